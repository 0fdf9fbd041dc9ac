import type { Issue } from './explain.ts';
import type { DocPath } from './path.ts';
import { fillTemplate } from './path.ts';
import { applicable, matches, startupConfigSchema } from './schema.ts';
import type { SchemaNode } from './schema.ts';
import { suggest } from './suggest.ts';

type Node = { readonly [keyword: string]: unknown };
type Warning = { when?: SchemaNode; message: string };

/**
 * Collects the schema's `x-warnings`: values the format accepts but an operator should look at
 * (a rate of "0", a property of a partly known object that Capstan cannot check). It follows
 * the same branches as the defaults walker, so it also runs on documents with errors.
 */
export function collectWarnings(value: unknown): Issue[] {
  const out: Issue[] = [];
  visit(applicable(startupConfigSchema, value), value, [], value, out);
  return out;
}

function visit(nodes: Node[], value: unknown, path: DocPath, root: unknown, out: Issue[]): void {
  for (const node of nodes) {
    for (const warning of (node['x-warnings'] ?? []) as Warning[]) {
      if (warning.when === undefined || matches(warning.when, value))
        out.push({ path, message: fillTemplate(warning.message, root, path) });
    }
  }
  if (Array.isArray(value)) {
    const items = nodes.flatMap((node) => (node.items === undefined ? [] : [node.items as SchemaNode]));
    value.forEach((item, index) =>
      visit(
        items.flatMap((schema) => applicable(schema, item)),
        item,
        [...path, index],
        root,
        out,
      ),
    );
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, item] of Object.entries(value)) {
    const named = nodes.flatMap((node) => {
      const child = (node.properties as Record<string, SchemaNode> | undefined)?.[key];
      return child === undefined ? [] : [child];
    });
    const extra =
      named.length > 0
        ? []
        : nodes.flatMap((node) =>
            typeof node.additionalProperties === 'object' ? [node.additionalProperties as Node] : [],
          );
    const before = out.length;
    visit(
      [...named, ...extra].flatMap((schema) => applicable(schema, item)),
      item,
      [...path, key],
      root,
      out,
    );
    // A typo in a partly known object is only a warning, so the closest known name matters all the more.
    const hint =
      extra.length > 0 && out.length > before
        ? suggest(
            key,
            nodes.flatMap((node) => Object.keys(node.properties ?? {})),
          )
        : undefined;
    if (hint !== undefined) out[before] = { ...out[before], message: `${out[before].message}; did you mean "${hint}"` };
  }
}
