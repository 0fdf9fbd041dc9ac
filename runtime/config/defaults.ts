import { applicable, deref } from './schema.ts';
import type { Defs, SchemaNode } from './schema.ts';

type Node = { readonly [keyword: string]: unknown };
type Bag = Record<string, unknown>;

const isBag = (value: unknown): value is Bag => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Returns a copy of `value` with every schema `default` filled in. The walker reads only the
 * schema (one source of truth): it follows `$ref`, `allOf`, `if`/`then`/`else` and the matching
 * `anyOf`/`oneOf` branch. A default fills an absent property only when its parent object is
 * present, and never where an applicable rule forbids the property (`{"not": {}}`), so an
 * "http" server gets no `proxyprotocol` and a spool with `paths` gets no `path`.
 */
export function fillDefaults<T>(schema: SchemaNode, value: T): T {
  const copy = structuredClone(value);
  const defs = (typeof schema === 'object' ? (schema.$defs ?? {}) : {}) as Defs;
  fill(applicable(schema, copy, defs), copy, defs);
  return copy;
}

function fill(nodes: Node[], value: unknown, defs: Defs): void {
  if (Array.isArray(value)) {
    const items = nodes.flatMap((node) => (node.items === undefined ? [] : [node.items as SchemaNode]));
    for (const item of value)
      fill(
        items.flatMap((schema) => applicable(schema, item, defs)),
        item,
        defs,
      );
    return;
  }
  if (!isBag(value)) return;
  const children = new Map<string, SchemaNode[]>();
  for (const node of nodes) {
    for (const [key, child] of Object.entries((node.properties ?? {}) as Record<string, SchemaNode>)) {
      children.set(key, [...(children.get(key) ?? []), child]);
    }
  }
  for (const [key, schemas] of children) {
    if (schemas.some(forbidden)) continue;
    if (value[key] === undefined) {
      const found = schemas.map((schema) => defaultOf(schema, defs)).find((item) => item !== undefined);
      if (found === undefined) continue;
      value[key] = structuredClone(found);
    }
    fill(
      schemas.flatMap((schema) => applicable(schema, value[key], defs)),
      value[key],
      defs,
    );
  }
}

function forbidden(schema: SchemaNode): boolean {
  if (schema === false) return true;
  if (schema === true) return false;
  const not = schema.not;
  return not === true || (isBag(not) && Object.keys(not).length === 0);
}

/** The default written on a node, or on the definition its `$ref` points to. */
function defaultOf(schema: SchemaNode, defs: Defs): unknown {
  if (typeof schema === 'boolean') return undefined;
  if ('default' in schema) return schema.default;
  return typeof schema.$ref === 'string' ? defaultOf(deref(schema, defs), defs) : undefined;
}
