import { isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Document, Node as YamlNode, ScalarTag } from 'yaml';
import type { DocPath } from './path.ts';

/** The MTA's `!Env "${NAME:default}"` tag, kept as its text so the placeholders can be read after parsing. */
export const envTag: ScalarTag = { tag: '!Env', resolve: (text: string) => text };

/** A value written with `!Env`: where it is (path and text offset), its text, and the variables it names. */
export type EnvValue = { path: DocPath; offset: number; text: string; names: string[]; unresolved: string[] };

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::([^}]*))?\}/g;
// Only text that reads back unchanged becomes a number: "25" is 25, but "6.10" and "0660" stay text.
const NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]*[1-9])?$/;

/**
 * Replaces every `!Env` value of a parsed YAML document in place. With `env` (serve) a variable
 * is read from it and falls back to its default; without (check) the default is the value.
 * A variable with neither is listed in `unresolved`, and the property holding it is removed.
 */
export function resolveEnvTags(doc: Document, env?: Record<string, string | undefined>): EnvValue[] {
  const found: EnvValue[] = [];
  const visit = (node: unknown, path: DocPath): YamlNode | undefined => {
    if (isScalar(node) && node.tag === '!Env' && typeof node.value === 'string') {
      const text = node.value;
      const names: string[] = [];
      const unresolved: string[] = [];
      const value = text.replace(PLACEHOLDER, (whole, name: string, fallback: string | undefined) => {
        names.push(name);
        const chosen = env?.[name] ?? fallback;
        if (chosen === undefined) unresolved.push(name);
        return chosen ?? '';
      });
      found.push({ path, offset: node.range?.[0] ?? 0, text, names, unresolved });
      node.value = NUMBER.test(value)
        ? Number(value)
        : value === 'true' || value === 'false'
          ? value === 'true'
          : value;
      return unresolved.length > 0 ? undefined : node;
    }
    if (isMap(node)) {
      node.items = node.items.filter(
        (pair) =>
          !isPair(pair) || !isScalar(pair.key) || visit(pair.value, [...path, String(pair.key.value)]) !== undefined,
      );
    } else if (isSeq(node)) {
      // Removing a list item would shift the paths of the items after it; it keeps the empty text instead.
      node.items.forEach((item, index) => visit(item, [...path, index]));
    }
    return node as YamlNode;
  };
  visit(doc.contents, []);
  return found;
}
