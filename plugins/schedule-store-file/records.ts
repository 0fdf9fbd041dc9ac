/** What the file store accepts as a stored record or applied policy, whichever format it is read from */
import { Compile } from 'typebox/schema';
import { components } from '../../generated/validators/ip-schedule.ts';
import type { AppliedPolicy, IpRecord } from '../../runtime/mod.ts';

/** The API's stored-record schema: a record that does not fit it would fail every read of its IP later on */
const RECORD = Compile({ $ref: '#/components/schemas/IpConfig', components } as never);

export interface Entry {
  record: IpRecord;
  version: number;
}

export interface State {
  /** Last version handed out; versions never repeat, so a stale reader cannot match a re-created IP */
  sequence: number;
  ips: Map<string, Entry>;
  /** Applied policies by id */
  policies: Map<string, AppliedPolicy>;
}

/** What is wrong with an entry, or undefined when it is a record the API can serve */
export function entryProblem(entry: unknown, sequence: number): string | undefined {
  if (!isObject(entry)) return `must be an object with "record" and "version", found "${JSON.stringify(entry)}"`;
  const { version, record } = entry;
  if (!Number.isSafeInteger(version) || (version as number) < 1)
    return `has "version" "${JSON.stringify(version)}", not a whole number of at least 1`;
  // Versions are handed out from the sequence: one above it would be handed out again and match a stale writer
  if ((version as number) > sequence) return `has "version" "${version}", above "sequence" "${sequence}"`;
  if (record === undefined) return 'has no "record"';
  if (RECORD.Check(record)) return undefined;
  const [, errors] = RECORD.Errors(record) as unknown as [
    boolean,
    { keyword: string; instancePath: string; message: string }[],
  ];
  const error = errors.reduce(
    (deepest, e) => (e.instancePath.length > deepest.instancePath.length ? e : deepest),
    errors[0]!,
  );
  // A property the schema does not allow fails its `false` schema, which the validator words as "schema is false"
  const rule = error.keyword === 'boolean' ? 'is not a field of a record' : error.message;
  return `has an invalid record: "record${error.instancePath.replaceAll('/', '.')}" ${rule}`;
}

/** What is wrong with an applied policy, or undefined */
export function policyProblem(id: string, policy: unknown): string | undefined {
  if (!isObject(policy)) return 'must be an object';
  if (policy.id !== id) return `has "id" "${JSON.stringify(policy.id)}", not its key`;
  if (policy.kind !== 'policy' && policy.kind !== 'suspend')
    return `has "kind" "${JSON.stringify(policy.kind)}", not "policy" or "suspend"`;
  if (!isObject(policy.object) || policy.object.id !== id) return 'has no "object" with its id';
  if (!Number.isSafeInteger(policy.expires) || !Number.isSafeInteger(policy.level))
    return 'needs whole numbers "expires" and "level"';
  return undefined;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Longest string kept once */
const SHARED_CHARS = 64;
/** Most strings kept once: the table stays under a megabyte whatever the records hold */
const SHARED_MAX = 10_000;
/**
 * Strings records repeat (dates, grouping names, modes, algorithms), kept once: each record read from JSON or cloned
 * has its own copies otherwise, about 700 bytes of an IP of 5 groupings
 */
const shared = new Map<string, string>();

function share(text: string): string {
  if (text.length > SHARED_CHARS) return text;
  const known = shared.get(text);
  if (known !== undefined) return known;
  if (shared.size < SHARED_MAX) shared.set(text, text);
  return text;
}

/** Freezes `value` and all it holds, in place, its short strings replaced by the copy other records share */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    const fields = value as Record<string, unknown>;
    for (const key of Object.keys(fields)) {
      const child = fields[key];
      if (typeof child === 'string') fields[key] = share(child);
      else deepFreeze(child);
    }
    Object.freeze(value);
  }
  return value;
}
