import { Compile } from 'typebox/schema';

/** Checks a value; answers undefined when valid, else one message naming the field and the rule */
export type Validate = (value: unknown) => string | undefined;

interface RawError {
  keyword: string;
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

/**
 * Picks the error that tells the client most: the deepest path, and among alternatives (oneOf/anyOf) the
 * branch error rather than the summary.
 */
function mostTelling(errors: RawError[]): RawError {
  const concrete = errors.filter((e) => !['oneOf', 'anyOf', 'if', 'then', 'else', 'boolean'].includes(e.keyword));
  const pool = concrete.length > 0 ? concrete : errors;
  return pool.reduce((best, e) => (e.instancePath.length > best.instancePath.length ? e : best), pool[0]);
}

/** Compiles a JSON Schema once; `prefix` names the part of the request in messages (`body`, `query`, …) */
export function compileValidator(schema: object, prefix: string): Validate {
  const compiled = Compile(schema as any);
  return (value) => {
    if (compiled.Check(value)) return undefined;
    const [, errors] = compiled.Errors(value) as unknown as [boolean, RawError[]];
    if (errors.length === 0) return `${prefix || 'value'} is invalid`;
    const error = mostTelling(errors);
    return `${fieldPath(prefix, error.instancePath)} ${describe(error)}`;
  };
}
