import { Compile } from 'typebox/schema';
// The formats of Capstan's schemas (an IANA time zone), the same ones `capstan config check` knows
import './formats.ts';

/** Checks a value; answers undefined when valid, else one message naming the field and the rule */
export type Validate = (value: unknown) => string | undefined;

interface RawError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  params: Record<string, any>;
  message: string;
}

/** Renders a JSON pointer as `messages[2].text` under a prefix such as `body` */
function fieldPath(prefix: string, pointer: string): string {
  let out = prefix;
  for (const raw of pointer.split('/').slice(1)) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    out += /^\d+$/.test(key) ? `[${key}]` : out === '' ? key : `.${key}`;
  }
  return out || '(root)';
}

function describe(error: RawError): string {
  switch (error.keyword) {
    case 'required':
      return `is missing required property "${(error.params.requiredProperties ?? [error.params.missingProperty]).join('", "')}"`;
    case 'additionalProperties':
      return `has unknown property "${(error.params.additionalProperties ?? []).join('", "')}"`;
    case 'type':
      return `must be ${[error.params.type].flat().join(' or ')}`;
    case 'enum':
      return `must be one of ${(error.params.allowedValues ?? []).map((v: unknown) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(error.params.allowedValue)}`;
    default:
      return error.message;
  }
}

const ALTERNATIVE = /^(.*?\/(?:oneOf|anyOf)\/\d+)/;

/**
 * Picks the error that tells the client most: the deepest path, and among alternatives (oneOf/anyOf) the branch the
 * client meant, being the one whose required properties are all present. When several are meant the client mixed
 * them; when none is, it left out what each needs.
 */
function mostTelling(errors: RawError[]): { error: RawError; message?: string } {
  const branches = new Map<string, RawError[]>();
  for (const e of errors) {
    const branch = ALTERNATIVE.exec(e.schemaPath ?? '')?.[1];
    if (branch !== undefined) branches.set(branch, [...(branches.get(branch) ?? []), e]);
  }
  let pool = errors;
  if (branches.size > 1) {
    const missing = (branch: RawError[]) =>
      branch.find((e) => e.keyword === 'required' && e.schemaPath.match(ALTERNATIVE)?.[0] === e.schemaPath);
    const meant = [...branches.values()].filter((branch) => !missing(branch));
    const names = (list: RawError[]) =>
      `"${list.map((e) => (e.params.requiredProperties ?? [e.params.missingProperty]).join('", "')).join('" or "')}"`;
    if (meant.length === 1) pool = meant[0];
    else if (meant.length === 0)
      return {
        error: missing([...branches.values()][0])!,
        message: `is missing required property ${names([...branches.values()].map((b) => missing(b)!))}`,
      };
    else {
      const unknown = meant.map((branch) => branch.find((e) => e.keyword === 'additionalProperties'));
      if (unknown.every((e) => e !== undefined)) {
        const mixed = [...new Set(unknown.flatMap((e) => e!.params.additionalProperties as string[]))];
        return { error: unknown[0]!, message: `takes either "${mixed.join('" or "')}", not both` };
      }
    }
  }
  const concrete = pool.filter((e) => !['oneOf', 'anyOf', 'if', 'then', 'else', 'boolean'].includes(e.keyword));
  const candidates = concrete.length > 0 ? concrete : pool;
  return {
    error: candidates.reduce((best, e) => (e.instancePath.length > best.instancePath.length ? e : best), candidates[0]),
  };
}

/** What a value breaks first: where (a JSON pointer into the value; undefined: nowhere said) and which rule */
export interface FieldProblem {
  pointer?: string;
  message: string;
}

/**
 * Compiles a JSON Schema once into a check answering the most telling problem of a value, for callers that name the
 * field their own way (a CSV column); undefined when the value is valid
 */
export function compileChecker(schema: object): (value: unknown) => FieldProblem | undefined {
  const compiled = Compile(schema as any);
  return (value) => {
    if (compiled.Check(value)) return undefined;
    const [, errors] = compiled.Errors(value) as unknown as [boolean, RawError[]];
    if (errors.length === 0) return { message: 'is invalid' };
    const { error, message } = mostTelling(errors);
    return { pointer: error.instancePath, message: message ?? describe(error) };
  };
}

/** Compiles a JSON Schema once; `prefix` names the part of the request in messages (`body`, `query`, …) */
export function compileValidator(schema: object, prefix: string): Validate {
  const check = compileChecker(schema);
  return (value) => {
    const problem = check(value);
    if (!problem) return undefined;
    if (problem.pointer === undefined) return `${prefix || 'value'} ${problem.message}`;
    return `${fieldPath(prefix, problem.pointer)} ${problem.message}`;
  };
}
