import { hasFormat } from './formats.ts';
import { deref, matches } from './schema.ts';
import type { SchemaNode } from './schema.ts';
import { fillTemplate, formatPath, withinAny } from './path.ts';
import type { DocPath } from './path.ts';
import { suggest } from './suggest.ts';

/** One broken rule: where it is and what to do about it, in plain words. */
export type Issue = { path: DocPath; message: string };

type Node = { readonly [keyword: string]: unknown };
type Context = { root: unknown; fallback?: string; top: string };
// `forbids`: the rule says the property must be absent, which makes every other complaint about it moot.
type Found = Issue & { custom: boolean; forbids?: boolean };

/** Keywords the explainer understands; a test keeps the schema within this set. */
export const KNOWN_KEYWORDS = new Set([
  '$schema',
  '$id',
  '$defs',
  '$ref',
  'title',
  'description',
  'default',
  'x-message',
  'x-hints',
  'x-warnings',
  'type',
  'const',
  'enum',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
  'required',
  'properties',
  'patternProperties',
  'additionalProperties',
  'propertyNames',
  'items',
  'not',
  'allOf',
  'anyOf',
  'oneOf',
  'if',
  'then',
  'else',
]);

/**
 * Explains why a value fails a schema with one message per broken rule. It follows the schema
 * structure: `if` picks `then` or `else`, and `anyOf`/`oneOf` report only the branch the value
 * was meant for (by JSON type, then by the branch's required properties), never every branch.
 */
export function explain(schema: SchemaNode, value: unknown, options: { top?: string } = {}): Issue[] {
  const seen = new Set<string>();
  const found = walk(schema, value, [], { root: value, top: options.top ?? 'the top level' });
  const forbidden = withinAny(found.filter((issue) => issue.forbids).map((issue) => issue.path));
  const moot = (issue: Found): boolean => !issue.forbids && forbidden(issue.path);
  return found
    .filter((issue) => {
      const key = `${issue.path.join('\u0000')}\u0001${issue.message}`;
      return moot(issue) || seen.has(key) ? false : (seen.add(key), true);
    })
    .map(({ path, message }) => ({ path, message }));
}

function walk(schema: SchemaNode, value: unknown, path: DocPath, ctx: Context): Found[] {
  if (schema === true) return [];
  if (schema === false) return [{ path, message: 'is not allowed here', custom: false }];
  const node = schema as Node;
  const out: Found[] = [];
  if (typeof node.$ref === 'string') out.push(...walk(deref(node), value, path, ctx));
  const say = (keyword: string, fallback: string, at: DocPath = path): void => {
    const custom = customMessage(node, keyword, value);
    const message = custom ?? (keyword === 'pattern' ? ctx.fallback : undefined) ?? fallback;
    const forbids = keyword === 'not' && isObject(node.not) && Object.keys(node.not).length === 0;
    out.push({ path: at, message: fillTemplate(message, ctx.root, at), custom: custom !== undefined, forbids });
  };
  if (node.type !== undefined && !hasType(value, node.type as string)) {
    say('type', `must be ${typeName(node.type as string)}`);
    return out;
  }
  if ('const' in node && !sameValue(value, node.const)) say('const', `must be ${JSON.stringify(node.const)}`);
  if (Array.isArray(node.enum) && !node.enum.some((item) => sameValue(value, item))) {
    // A misspelt name (a class, a mode) is the usual cause: the closest one saves reading the whole list
    const hint =
      typeof value === 'string'
        ? suggest(
            value,
            node.enum.filter((item): item is string => typeof item === 'string'),
          )
        : undefined;
    say(
      'enum',
      `must be one of ${node.enum.map((item) => JSON.stringify(item)).join(', ')}${hint ? `; did you mean "${hint}"` : ''}`,
    );
  }
  if (typeof value === 'number') {
    if (typeof node.minimum === 'number' && value < node.minimum) say('minimum', `must be at least ${node.minimum}`);
    if (typeof node.maximum === 'number' && value > node.maximum) say('maximum', `must be at most ${node.maximum}`);
    if (typeof node.exclusiveMinimum === 'number' && value <= node.exclusiveMinimum)
      say('exclusiveMinimum', `must be more than ${node.exclusiveMinimum}`);
    if (typeof node.exclusiveMaximum === 'number' && value >= node.exclusiveMaximum)
      say('exclusiveMaximum', `must be less than ${node.exclusiveMaximum}`);
  }
  if (typeof value === 'string') {
    const short = typeof node.minLength === 'number' && [...value].length < node.minLength;
    if (short)
      say('minLength', node.minLength === 1 ? 'must not be empty' : `must have at least ${node.minLength} characters`);
    // A too-short value would also fail the pattern; one message for one mistake.
    else if (typeof node.pattern === 'string' && !new RegExp(node.pattern, 'u').test(value)) {
      say('pattern', `must match the pattern "${node.pattern}"`);
    }
    if (typeof node.maxLength === 'number' && [...value].length > node.maxLength)
      say('maxLength', `must have at most ${node.maxLength} characters`);
    if (typeof node.format === 'string' && !hasFormat(node.format, value))
      say('format', `must be a valid "${node.format}"`);
  }
  if (Array.isArray(value)) walkArray(node, value, path, ctx, out, say);
  if (isObject(value)) walkObject(node, value, path, ctx, out, say);
  if (node.not !== undefined && matches(node.not as SchemaNode, value)) say('not', 'is not allowed here');
  for (const part of (node.allOf ?? []) as SchemaNode[]) out.push(...walk(part, value, path, ctx));
  if (node.if !== undefined) {
    const branch = matches(node.if as SchemaNode, value) ? node.then : node.else;
    if (branch !== undefined) out.push(...walk(branch as SchemaNode, value, path, ctx));
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(node[keyword])) out.push(...walkUnion(node, keyword, value, path, ctx));
  }
  return out;
}

type Say = (keyword: string, fallback: string, at?: DocPath) => void;

function walkArray(node: Node, value: unknown[], path: DocPath, ctx: Context, out: Found[], say: Say): void {
  const count = (n: number): string => `${n} item${n === 1 ? '' : 's'}`;
  if (typeof node.minItems === 'number' && value.length < node.minItems)
    say('minItems', `must have at least ${count(node.minItems)}`);
  if (typeof node.maxItems === 'number' && value.length > node.maxItems)
    say('maxItems', `must have at most ${count(node.maxItems)}`);
  if (node.uniqueItems === true) {
    const first = new Map<string, number>();
    value.forEach((item, index) => {
      const key = canonical(item);
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, index);
      else say('uniqueItems', `repeats item ${earlier}: items must be unique`, [...path, index]);
    });
  }
  if (node.items !== undefined) {
    value.forEach((item, index) => out.push(...walk(node.items as SchemaNode, item, [...path, index], ctx)));
  }
}

function walkObject(
  node: Node,
  value: Record<string, unknown>,
  path: DocPath,
  ctx: Context,
  out: Found[],
  say: Say,
): void {
  const properties = (node.properties ?? {}) as Record<string, SchemaNode>;
  const patterns = Object.entries((node.patternProperties ?? {}) as Record<string, SchemaNode>).map(
    ([pattern, schema]) => ({ re: new RegExp(pattern, 'u'), schema }),
  );
  for (const key of (node.required ?? []) as string[]) {
    if (!(key in value)) say('required', 'is required', [...path, key]);
  }
  for (const [key, item] of Object.entries(value)) {
    // A key the schema names none of says so once: its value is not looked into
    if (node.propertyNames !== undefined && !matches(node.propertyNames as SchemaNode, key)) {
      const inner = walk(node.propertyNames as SchemaNode, key, [...path, key], ctx);
      out.push(
        ...inner.map((issue) => ({
          ...issue,
          message: issue.custom ? issue.message : `is not a valid key: ${issue.message}`,
        })),
      );
      continue;
    }
    const child = properties[key];
    const patterned = patterns.filter(({ re }) => re.test(key));
    if (child !== undefined) out.push(...walk(child, item, [...path, key], ctx));
    for (const { schema } of patterned) out.push(...walk(schema, item, [...path, key], ctx));
    if (child !== undefined || patterned.length > 0) continue;
    if (node.additionalProperties === false)
      say('additionalProperties', unknownProperty(node, key, path, ctx.top), [...path, key]);
    else if (typeof node.additionalProperties === 'object')
      out.push(...walk(node.additionalProperties as SchemaNode, item, [...path, key], ctx));
  }
}

/** Names the object, suggests the closest known name and lists them all, so a typo is fixed in one go. */
function unknownProperty(node: Node, key: string, path: DocPath, top: string): string {
  const known = Object.keys(node.properties ?? {});
  const where =
    path.length === 0 ? top : `${typeof node.title === 'string' ? `the ${node.title} ` : ''}"${formatPath(path)}"`;
  const hint = suggest(key, known);
  const list =
    known.length === 0
      ? 'it takes no properties'
      : `known properties are ${known.map((name) => `"${name}"`).join(', ')}`;
  return `unknown property of ${where}: ${hint ? `did you mean "${hint}"; ` : ''}${list}`;
}

function walkUnion(node: Node, keyword: 'anyOf' | 'oneOf', value: unknown, path: DocPath, ctx: Context): Found[] {
  const branches = node[keyword] as SchemaNode[];
  const passing = branches.filter((branch) => matches(branch, value)).length;
  if (passing === 1 || (keyword === 'anyOf' && passing > 1)) return [];
  const unionMessage = customMessage(node, keyword, value);
  const report = (message: string): Found[] => [{ path, message: fillTemplate(message, ctx.root, path), custom: true }];
  if (passing > 1) return report(unionMessage ?? 'matches more than one form: remove the properties of the other form');
  let candidates = branches.filter((branch) => fits(branch, value));
  if (isObject(value)) {
    const forms = candidates;
    candidates = bestByRequired(forms, value);
    // Several forms whose required properties are all present: the value mixes forms.
    const keys = candidates.map((branch) => ((deref(branch) as Node).required as string[] | undefined)?.[0]);
    if (candidates.length > 1 && keys.every((key) => key !== undefined)) return report(eitherOr(forms));
    if (candidates.length === 0) {
      const missing = missingOfOnlyForm(forms, value);
      if (missing !== undefined) return report(missing);
    }
    if (candidates.length === 1) {
      const mixed = otherFormsKeys(forms, candidates[0], value);
      if (mixed.length > 0) {
        const rest = Object.fromEntries(Object.entries(value).filter(([key]) => !mixed.some((m) => m.key === key)));
        const object = `"${formatPath(path)}" ${eitherOr(forms)}`;
        const foreign = mixed.map(({ key, form }): Found => ({
          path: [...path, key],
          message: `belongs to the ${form}: ${object}`,
          custom: true,
        }));
        return [...foreign, ...walk(candidates[0], rest, path, ctx)];
      }
    }
  }
  const generic = `must be ${[...new Set(branches.flatMap(typesOf))].map(typeName).join(' or ')}`;
  if (candidates.length === 0) return report(unionMessage ?? generic);
  if (candidates.length > 1 && unionMessage !== undefined && !isObject(value)) return report(unionMessage);
  const inner: Context = { ...ctx, fallback: unionMessage ?? ctx.fallback };
  const explained = candidates.map((branch) => walk(branch, value, path, inner));
  return explained.reduce((best, next) => (next.length < best.length ? next : best));
}

/** The one phrasing of "pick one form": `takes either "port" or "path", not both`. */
function eitherOr(forms: SchemaNode[]): string {
  const keys = forms.map((form) => (((deref(form) as Node).required ?? []) as string[])[0] ?? firstOwnKey(form, forms));
  return `takes either ${keys.map((key) => `"${key}"`).join(' or ')}, not both`;
}

function propertiesOf(form: SchemaNode): string[] {
  return Object.keys(((deref(form) as Node).properties ?? {}) as object);
}

/** A property only this form has, naming a form without required properties (the Unix control socket's "path"). */
function firstOwnKey(form: SchemaNode, forms: SchemaNode[]): string | undefined {
  return propertiesOf(form).find((key) => forms.every((other) => other === form || !propertiesOf(other).includes(key)));
}

/** The properties of the value that only another form has: the value mixes forms. */
function otherFormsKeys(
  forms: SchemaNode[],
  chosen: SchemaNode,
  value: Record<string, unknown>,
): { key: string; form: string }[] {
  const mine = propertiesOf(chosen);
  return Object.keys(value).flatMap((key) => {
    if (mine.includes(key)) return [];
    const other = forms.find((form) => form !== chosen && propertiesOf(form).includes(key));
    return other === undefined ? [] : [{ key, form: String((deref(other) as Node).title ?? 'other form') }];
  });
}

/** When the value's properties fit exactly one form and it lacks that form's required ones, says so plainly. */
function missingOfOnlyForm(forms: SchemaNode[], value: Record<string, unknown>): string | undefined {
  const keys = Object.keys(value);
  const fitting = forms.filter((form) => keys.every((key) => propertiesOf(form).includes(key)));
  if (keys.length === 0 || fitting.length !== 1) return undefined;
  const form = deref(fitting[0]) as Node;
  const missing = ((form.required ?? []) as string[]).filter((key) => !(key in value));
  const list = (names: string[]): string => names.map((name) => `"${name}"`).join(' and ');
  return `has ${list(keys)} but no ${list(missing)}: a ${String(form.title)} needs ${list(missing)}`;
}

/** Keeps the object branches whose required properties are all present, most required first. */
function bestByRequired(branches: SchemaNode[], value: Record<string, unknown>): SchemaNode[] {
  const scored = branches
    .map((branch) => {
      const required = ((deref(branch) as Node).required ?? []) as string[];
      return { branch, score: required.every((key) => key in value) ? required.length : -1 };
    })
    .filter(({ score }) => score >= 0);
  const top = Math.max(...scored.map(({ score }) => score));
  return scored.filter(({ score }) => score === top).map(({ branch }) => branch);
}

function fits(branch: SchemaNode, value: unknown): boolean {
  const types = typesOf(branch);
  return types.length === 0 || types.some((type) => hasType(value, type));
}

/** The JSON types a branch can accept, looking through `$ref`, `enum` and nested unions. */
function typesOf(branch: SchemaNode): string[] {
  const node = deref(branch);
  if (typeof node !== 'object') return [];
  if (typeof node.type === 'string') return [node.type];
  if (Array.isArray(node.enum)) return [...new Set(node.enum.map(jsonType))];
  const nested = (node.anyOf ?? node.oneOf) as SchemaNode[] | undefined;
  return nested ? [...new Set(nested.flatMap(typesOf))] : [];
}

type Hint = { pattern?: string; const?: unknown; type?: string; message: string };

function customMessage(node: Node, keyword: string, value: unknown): string | undefined {
  const hint = ((node['x-hints'] ?? []) as Hint[]).find((h) => {
    if (h.pattern !== undefined)
      return keyword === 'pattern' && typeof value === 'string' && new RegExp(h.pattern, 'u').test(value);
    if ('const' in h) return sameValue(value, h.const);
    return h.type !== undefined && hasType(value, h.type);
  });
  if (hint) return hint.message;
  const custom = node['x-message'];
  if (typeof custom === 'string') return custom;
  if (custom !== null && typeof custom === 'object') return (custom as Record<string, string>)[keyword];
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (Number.isInteger(value)) return 'integer';
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  const actual = jsonType(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

function typeName(type: string): string {
  return TYPE_NAMES[type] ?? type;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}
