import { Compile } from 'typebox/schema';
import type { SchemaNode } from './schema.ts';

type Checker = { Check(value: unknown): boolean };
type Bag = Record<string, unknown>;

const inlined = new WeakMap<object, SchemaNode>();
const checkers = new WeakMap<object, Checker>();

/**
 * A plugin's config schema with its local `$ref`s (`#/$defs/name`) replaced by what they point to, so that the
 * explainer and the defaults walker, which know only the startup document's definitions, can read it. A definition
 * that refers to itself stays a `$ref` below its first level. Computed once per schema.
 */
export function inlineRefs(schema: SchemaNode): SchemaNode {
  if (typeof schema === 'boolean') return schema;
  let done = inlined.get(schema);
  if (done === undefined) {
    const defs = (schema.$defs ?? {}) as Record<string, SchemaNode>;
    const visit = (node: unknown, seen: readonly string[]): unknown => {
      if (Array.isArray(node)) return node.map((item) => visit(item, seen));
      if (node === null || typeof node !== 'object') return node;
      const { $ref, $defs: _, $id: __, ...rest } = node as Bag;
      const name = typeof $ref === 'string' && $ref.startsWith('#/$defs/') ? $ref.slice('#/$defs/'.length) : undefined;
      const out: Bag =
        name !== undefined && defs[name] !== undefined && !seen.includes(name)
          ? { ...(visit(defs[name], [...seen, name]) as Bag) }
          : $ref === undefined
            ? {}
            : { $ref };
      for (const [key, value] of Object.entries(rest)) out[key] = visit(value, seen);
      return out;
    };
    done = visit(schema, []) as SchemaNode;
    inlined.set(schema, done);
  }
  return done;
}

/** The compiled validator of a plugin's config schema, compiled once per schema */
export function compiled(schema: SchemaNode): Checker {
  if (typeof schema === 'boolean') return { Check: () => schema };
  let checker = checkers.get(schema);
  if (checker === undefined) {
    checker = Compile(schema as never) as Checker;
    checkers.set(schema, checker);
  }
  return checker;
}
