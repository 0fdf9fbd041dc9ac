/**
 * A schedule store kept in one JSON file. Writes queue up and are committed in groups: each group is
 * applied to a copy of the state, written to a temporary file, fsynced, renamed over the file and the folder
 * fsynced, and only then acknowledged. A crash at any moment leaves either the old or the new file, whole.
 * A write that fails (a full disk, a quota, an I/O error) leaves the old file and the state as they were, and the
 * store is not ready until a write succeeds again: readiness itself retries one while the store is failing.
 */
import { constants } from 'node:fs';
import { access, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Compile } from 'typebox/schema';
import { components } from '../../generated/validators/ip-schedule.ts';
import { writeFileAtomic } from '../../runtime/mod.ts';
import { AuditLog, type AuditRetention } from './audit-log.ts';
import { errors } from './errors.ts';
import type {
  AppliedPolicy, AuditEntry, AuditQuery, IpRecord, Logger, ScheduleStore, StoreChange, StoreChangeListener, StoredIp, WriteCondition, WriteOptions,
} from '../../runtime/mod.ts';

const FORMAT = 1;
/** Least time between the writes readiness retries while the store is failing: each writes the whole file */
const PROBE_MS = 1000;

/** The API's stored-record schema: a record that does not fit it would fail every read of its IP later on */
const RECORD = Compile({ $ref: '#/components/schemas/IpConfig', components } as never);

interface Entry {
  record: IpRecord;
  version: number;
}

interface State {
  /** Last version handed out; versions never repeat, so a stale reader cannot match a re-created IP */
  sequence: number;
  ips: Map<string, Entry>;
  /** Applied policies by id */
  policies: Map<string, AppliedPolicy>;
}

/** A write waiting for the next group commit: it decides its result against the state it is applied to */
interface Pending {
  /** What its success changes, for the watchers; none for readiness's retry, which changes nothing */
  change: StoreChange | undefined;
  /** Kept when the write succeeds */
  audit?: AuditEntry;
  apply(state: State): number | boolean | undefined;
  resolve(result: number | boolean | undefined): void;
  reject(error: unknown): void;
}

/** Schedule store in a JSON file, written atomically with group commit */
export class JsonFileStore implements ScheduleStore {
  readonly path: string;
  #state: State;
  #queue: Pending[] = [];
  #flushing: Promise<void> | undefined;
  #listeners = new Set<StoreChangeListener>();
  readonly #log: Logger;
  /** Why the last write failed, until one succeeds */
  #failing: string | undefined;
  #probed = 0;
  readonly #audit: AuditLog;
  readonly #onAuditError: (error: unknown) => void;

  private constructor(path: string, state: State, log: Logger, audit: AuditLog, retention: AuditRetention) {
    this.path = path;
    this.#state = state;
    this.#log = log;
    this.#audit = audit;
    this.#onAuditError = retention.onError;
  }

  /**
   * Opens (or starts) the store file at `path` and its audit file beside it (`<name>.audit.jsonl`), creating their
   * folder and removing temporary files a kill left
   */
  static async open(path: string, log: Logger, retention: AuditRetention): Promise<JsonFileStore> {
    await mkdir(dirname(path), { recursive: true });
    const auditPath = join(dirname(path), `${basename(path, '.json')}.audit.jsonl`);
    await removeLeftovers(path);
    await removeLeftovers(auditPath);
    return new JsonFileStore(path, await readState(path), log, await AuditLog.open(auditPath, retention), retention);
  }

  /**
   * Resolves when the next write can succeed: while writes fail, that is known only by writing, so the current
   * state is written again (at most once per PROBE_MS; it changes nothing)
   */
  async ready(): Promise<void> {
    if (this.#failing !== undefined && performance.now() - this.#probed >= PROBE_MS) {
      this.#probed = performance.now();
      await this.#enqueue(undefined, () => undefined).catch(() => undefined);
    }
    if (this.#failing !== undefined) throw new Error(`Store file "${this.path}" cannot be written: ${this.#failing}`);
    try {
      await access(dirname(this.path), constants.W_OK);
    } catch (error) {
      throw new Error(`Store folder "${dirname(this.path)}" is not writable: ${(error as Error).message}`);
    }
  }

  async get(ip: string): Promise<StoredIp | undefined> {
    const entry = this.#state.ips.get(ip);
    return entry && { ip, record: entry.record, version: entry.version };
  }

  async list(): Promise<StoredIp[]> {
    return [...this.#state.ips.keys()].sort(compare).map((ip) => {
      const entry = this.#state.ips.get(ip)!;
      return { ip, record: entry.record, version: entry.version };
    });
  }

  put(ip: string, record: IpRecord, condition: WriteCondition, options?: WriteOptions): Promise<number | undefined> {
    // frozen copy: readers share stored objects without copying, and the caller may reuse its own
    const frozen = deepFreeze(structuredClone(record));
    return this.#enqueue({ ip }, (state) => {
      if ((state.ips.get(ip)?.version ?? null) !== condition.expected) return undefined;
      const version = ++state.sequence;
      state.ips.set(ip, { record: frozen, version });
      return version;
    }, options?.audit) as Promise<number | undefined>;
  }

  delete(ip: string, condition: { expected: number }, options?: WriteOptions): Promise<boolean> {
    return this.#enqueue({ ip }, (state) => state.ips.get(ip)?.version === condition.expected && state.ips.delete(ip), options?.audit) as Promise<boolean>;
  }

  async listPolicies(): Promise<AppliedPolicy[]> {
    return [...this.#state.policies.keys()].sort(compare).map((id) => this.#state.policies.get(id)!);
  }

  async putPolicy(policy: AppliedPolicy, options?: WriteOptions): Promise<void> {
    const frozen = deepFreeze(structuredClone(policy));
    await this.#enqueue({ policy: policy.id }, (state) => {
      state.policies.set(policy.id, frozen);
      return true;
    }, options?.audit);
  }

  deletePolicy(id: string, condition: { expires: number }, options?: WriteOptions): Promise<boolean> {
    return this.#enqueue({ policy: id }, (state) => state.policies.get(id)?.expires === condition.expires && state.policies.delete(id), options?.audit) as Promise<boolean>;
  }

  replacePolicy(policy: AppliedPolicy, condition: { expires: number }, options?: WriteOptions): Promise<boolean> {
    const frozen = deepFreeze(structuredClone(policy));
    return this.#enqueue({ policy: policy.id }, (state) => state.policies.get(policy.id)?.expires === condition.expires && !!state.policies.set(policy.id, frozen), options?.audit) as Promise<boolean>;
  }

  appendAudit(entries: readonly AuditEntry[]): Promise<void> {
    return this.#audit.append(entries);
  }

  queryAudit(query: AuditQuery): Promise<AuditEntry[]> {
    return this.#audit.query(query);
  }

  /** One host owns the file, so every write passes through here: listeners hear of it right after its commit */
  async watch(listener: StoreChangeListener): Promise<() => void> {
    // A wrapper per call: the same function watching twice is told twice, and each stop ends only its own watch
    const own: StoreChangeListener = (change) => listener(change);
    this.#listeners.add(own);
    return () => void this.#listeners.delete(own);
  }

  /** Waits for queued writes to be committed */
  async close(): Promise<void> {
    while (this.#flushing) await this.#flushing;
    await this.#audit.close();
  }

  #enqueue(change: StoreChange | undefined, apply: Pending['apply'], audit?: AuditEntry): Promise<number | boolean | undefined> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ change, apply, resolve, reject, audit });
      this.#flushing ??= this.#flush();
    });
  }

  async #flush(): Promise<void> {
    while (this.#queue.length > 0) {
      const group = this.#queue;
      this.#queue = [];
      const next: State = { sequence: this.#state.sequence, ips: new Map(this.#state.ips), policies: new Map(this.#state.policies) };
      const results = group.map((pending) => pending.apply(next));
      try {
        await writeFileAtomic(this.path, serialize(next));
        this.#state = next;
        if (this.#failing !== undefined) this.#log.info('schedule store writable again', { path: this.path });
        this.#failing = undefined;
        await this.#keepAudit(group.filter((pending, index) => results[index] && pending.audit).map((pending) => pending.audit!));
        this.#notify(group.filter((_, index) => results[index]).map((pending) => pending.change!));
        group.forEach((pending, index) => pending.resolve(results[index]));
      } catch (error) {
        // The client sees the system's code only: the message names the server's paths
        const reason = (error as NodeJS.ErrnoException).code ?? 'unknown error';
        if (this.#failing === undefined) this.#log.error('schedule store cannot be written; writes answer 503 until one succeeds', { path: this.path, error });
        this.#failing = reason;
        const failure = errors.STORE_ERR_FILE_WRITE(reason, { cause: error });
        for (const pending of group) pending.reject(failure);
      }
    }
    this.#flushing = undefined;
  }

  /**
   * Appends the audit entries of a committed group before it is acknowledged. The file rename is the commit: an append
   * that fails then loses no write; its entries are kept and appended with the next group, and the host has logged them
   */
  async #keepAudit(entries: AuditEntry[]): Promise<void> {
    try {
      await this.#audit.append(entries, true);
    } catch (error) {
      this.#onAuditError(error);
    }
  }

  #notify(changes: StoreChange[]): void {
    const seen = new Set<string>();
    const distinct = changes.filter((change) => {
      const key = JSON.stringify(change);
      return !seen.has(key) && seen.add(key);
    });
    for (const listener of this.#listeners) {
      for (const change of distinct) {
        try {
          listener(change);
        } catch {
          // A listener's failure is its own: the write is committed, and the other listeners must still hear of it
        }
      }
    }
  }
}

/**
 * Removes `.<file>.<pid>.tmp` files beside `path`: a write killed before its rename leaves one, and nothing reads it.
 * One host owns the file, so at start none of them belongs to a write in progress
 */
async function removeLeftovers(path: string): Promise<void> {
  const folder = dirname(path);
  const prefix = `.${basename(path)}.`;
  for (const name of await readdir(folder)) {
    if (name.startsWith(prefix) && /^\d+\.tmp$/.test(name.slice(prefix.length))) await rm(join(folder, name), { force: true });
  }
}

/** The file's state; refuses a file it cannot trust, naming the file, what is wrong and what to do */
async function readState(path: string): Promise<State> {
  const refuse = (problem: string, advice: string, cause?: unknown) =>
    errors.STORE_ERR_FILE_READ(path, `${problem}: ${advice}`, { cause });
  const restore = 'restore it from a backup, or move it aside to start with no schedules';
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { sequence: 0, ips: new Map(), policies: new Map() };
    throw refuse((error as Error).message, 'check the file and its permissions', error);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw refuse(`not valid JSON, the file may be truncated (${(error as Error).message})`, restore, error);
  }
  if (!isObject(data)) throw refuse(`expected an object with "format", "sequence" and "ips", found "${JSON.stringify(data)}"`, restore);
  if (data.format !== FORMAT) throw refuse(`unknown format "${data.format}"`, 'open it with the Capstan version that wrote it');
  const { sequence, ips } = data;
  if (!Number.isSafeInteger(sequence) || (sequence as number) < 0) {
    throw refuse(`"sequence" must be a whole number of at least 0, found "${JSON.stringify(sequence)}"`, 'set it to the highest "version" of its entries');
  }
  if (!isObject(ips)) throw refuse(`"ips" must be an object, found "${JSON.stringify(ips)}"`, restore);
  const entries = new Map<string, Entry>();
  for (const [ip, entry] of Object.entries(ips)) {
    const problem = entryProblem(entry, sequence as number);
    if (problem) throw refuse(`entry "${ip}" ${problem}`, 'correct or remove that entry, or restore the file from a backup');
    entries.set(ip, deepFreeze(entry as Entry));
  }
  const policies = new Map<string, AppliedPolicy>();
  const applied = data.policies ?? {};
  if (!isObject(applied)) throw refuse(`"policies" must be an object, found "${JSON.stringify(applied)}"`, restore);
  for (const [id, policy] of Object.entries(applied)) {
    const problem = policyProblem(id, policy);
    if (problem) throw refuse(`applied policy "${id}" ${problem}`, 'remove that entry (it would lapse anyway), or restore the file from a backup');
    policies.set(id, deepFreeze(policy as AppliedPolicy));
  }
  return { sequence: sequence as number, ips: entries, policies };
}

/** What is wrong with an entry of the file, or undefined when it is a record the API can serve */
function entryProblem(entry: unknown, sequence: number): string | undefined {
  if (!isObject(entry)) return `must be an object with "record" and "version", found "${JSON.stringify(entry)}"`;
  const { version, record } = entry;
  if (!Number.isSafeInteger(version) || (version as number) < 1) return `has "version" "${JSON.stringify(version)}", not a whole number of at least 1`;
  // Versions are handed out from the sequence: one above it would be handed out again and match a stale writer
  if ((version as number) > sequence) return `has "version" "${version}", above "sequence" "${sequence}"`;
  if (record === undefined) return 'has no "record"';
  if (RECORD.Check(record)) return undefined;
  const [, errors] = RECORD.Errors(record) as unknown as [boolean, { keyword: string; instancePath: string; message: string }[]];
  const error = errors.reduce((deepest, e) => (e.instancePath.length > deepest.instancePath.length ? e : deepest), errors[0]!);
  // A property the schema does not allow fails its `false` schema, which the validator words as "schema is false"
  const rule = error.keyword === 'boolean' ? 'is not a field of a record' : error.message;
  return `has an invalid record: "record${error.instancePath.replaceAll('/', '.')}" ${rule}`;
}

/** What is wrong with an applied policy of the file, or undefined */
function policyProblem(id: string, policy: unknown): string | undefined {
  if (!isObject(policy)) return 'must be an object';
  if (policy.id !== id) return `has "id" "${JSON.stringify(policy.id)}", not its key`;
  if (policy.kind !== 'policy' && policy.kind !== 'suspend') return `has "kind" "${JSON.stringify(policy.kind)}", not "policy" or "suspend"`;
  if (!isObject(policy.object) || policy.object.id !== id) return 'has no "object" with its id';
  if (!Number.isSafeInteger(policy.expires) || !Number.isSafeInteger(policy.level)) return 'needs whole numbers "expires" and "level"';
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSON of the records and policies stored, which are deep-frozen: every group commit writes the whole file, so each
 * is encoded once rather than at every commit (a busy backoff feed commits many times a second over thousands)
 */
const encoded = new WeakMap<object, string>();

function encode(value: object): string {
  let json = encoded.get(value);
  if (json === undefined) encoded.set(value, (json = JSON.stringify(value)));
  return json;
}

function serialize(state: State): string {
  const ips = [...state.ips].map(([ip, entry]) => `${JSON.stringify(ip)}:{"record":${encode(entry.record)},"version":${entry.version}}`);
  // "policies" only when there are some: files without them stay as earlier versions wrote them
  const policies = state.policies.size > 0 ? `,"policies":{${[...state.policies].map(([id, policy]) => `${JSON.stringify(id)}:${encode(policy)}`).join(',')}}` : '';
  return `{"format":${JSON.stringify(FORMAT)},"sequence":${state.sequence},"ips":{${ips.join(',')}}${policies}}`;
}


function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
