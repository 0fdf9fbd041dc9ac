import { Compile } from 'typebox/schema';
import { StartupConfigSchema } from '../../generated/validators/startup-config.ts';
import './formats.ts';

/** A node of the raw JSON Schema; the walkers read only the keywords they know. */
export type SchemaNode = { readonly [keyword: string]: unknown } | boolean;

/** The startup configuration JSON Schema (spec/schema/startup-config.schema.json, as generated). */
export const startupConfigSchema: { readonly [keyword: string]: unknown } = StartupConfigSchema;

/** The `$defs` a schema's local references point into */
export type Defs = Record<string, SchemaNode>;

const startupDefs = startupConfigSchema.$defs as Defs;

/** Follows a local `$ref` (`#/$defs/name`) until a node without one is reached. */
export function deref(node: SchemaNode, defs: Defs = startupDefs): SchemaNode {
  let current = node;
  while (typeof current === 'object' && typeof current.$ref === 'string') {
    const ref: string = current.$ref;
    current = defs[ref.slice('#/$defs/'.length)];
    if (current === undefined) throw new Error(`Cannot resolve "${ref}": unknown $ref`);
  }
  return current;
}

type Checker = { Check(value: unknown): boolean };

let whole: Checker | undefined;

/** The compiled validator of the whole document, compiled on first use, once per process. */
export function documentValidator(): Checker {
  whole ??= Compile(startupConfigSchema as never) as Checker;
  return whole;
}

const parts = new WeakMap<object, Checker>();

/**
 * Tells whether a value matches one schema node. Used to evaluate `if` and to pick `oneOf`
 * branches, so the walkers agree with the compiled validator instead of re-implementing it.
 */
export function matches(node: SchemaNode, value: unknown, defs: Defs = startupDefs): boolean {
  if (typeof node === 'boolean') return node;
  let checker = parts.get(node);
  if (checker === undefined) {
    checker = Compile({ $defs: defs, allOf: [node] } as never) as Checker;
    parts.set(node, checker);
  }
  return checker.Check(value);
}

type Node = { readonly [keyword: string]: unknown };

/** The schema nodes that apply to a value: the node itself plus the branches it selects (`$ref`, `allOf`, `if`, the matching `anyOf`/`oneOf` branch). */
export function applicable(schema: SchemaNode, value: unknown, defs: Defs = startupDefs, out: Node[] = []): Node[] {
  if (typeof schema === 'boolean') return out;
  out.push(schema);
  if (typeof schema.$ref === 'string') applicable(deref(schema, defs), value, defs, out);
  for (const part of (schema.allOf ?? []) as SchemaNode[]) applicable(part, value, defs, out);
  if (schema.if !== undefined) {
    const branch = matches(schema.if as SchemaNode, value, defs) ? schema.then : schema.else;
    if (branch !== undefined) applicable(branch as SchemaNode, value, defs, out);
  }
  for (const keyword of ['anyOf', 'oneOf']) {
    const chosen = ((schema[keyword] ?? []) as SchemaNode[]).find((branch) => matches(branch, value, defs));
    if (chosen !== undefined) applicable(chosen, value, defs, out);
  }
  return out;
}
