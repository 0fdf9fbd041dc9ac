import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit } from 'yaml';
import type { Node as YamlNode, Pair, YAMLMap } from 'yaml';
import { envTag, resolveEnvTags } from './env-tag.ts';
import type { EnvValue } from './env-tag.ts';
import type { DocPath } from './path.ts';

/** A line and column, both starting at 1. */
export type Position = { line: number; column: number };

/** A parsed configuration file: its value, its syntax errors, its `!Env` values and a path-to-position map. */
export type Source = {
  value: unknown;
  syntaxErrors: (Position & { message: string })[];
  fromEnv: (Omit<EnvValue, 'offset'> & Position)[];
  locate(path: DocPath): Position;
};

/**
 * Parses YAML or JSON text. JSON is checked with `JSON.parse` first because the YAML parser
 * accepts some invalid JSON (trailing commas); positions always come from the YAML tree,
 * which JSON is a subset of. `!Env` values take their default, or with `env` the variable.
 */
export function parseSource(
  text: string,
  json: boolean,
  options: { env?: Record<string, string | undefined> } = {},
): Source {
  const counter = new LineCounter();
  // The parser's own duplicate-key check compares each key with every earlier one: 40,000 keys took 12 s
  const doc = parseDocument(text, {
    lineCounter: counter,
    prettyErrors: false,
    customTags: [envTag],
    uniqueKeys: false,
  });
  const position = (offset: number): Position => {
    const { line, col } = counter.linePos(offset);
    return { line, column: col };
  };
  const syntaxErrors = json ? jsonErrors(text, position) : [];
  if (syntaxErrors.length === 0) {
    for (const error of doc.errors)
      syntaxErrors.push({ ...position(error.pos[0]), message: yamlMessage(error.message) });
    for (const offset of duplicateKeys(doc))
      syntaxErrors.push({ ...position(offset), message: 'invalid YAML: Map keys must be unique' });
    syntaxErrors.sort((a, b) => a.line - b.line || a.column - b.column);
  }
  const keys = new WeakMap<YAMLMap, Map<string, Pair>>();
  const locate = (path: DocPath): Position => {
    const node = nodeAt(doc.contents as YamlNode | null, path, keys);
    return position(node?.range?.[0] ?? 0);
  };
  const fromEnv =
    syntaxErrors.length === 0
      ? resolveEnvTags(doc, options.env).map(({ offset, ...rest }) => ({ ...rest, ...position(offset) }))
      : [];
  return { value: syntaxErrors.length === 0 ? doc.toJS() : undefined, syntaxErrors, fromEnv, locate };
}

function jsonErrors(text: string, position: (offset: number) => Position): Source['syntaxErrors'] {
  try {
    JSON.parse(text);
    return [];
  } catch (error) {
    const message = (error as Error).message;
    const detail = message.replace(/(, (\.\.\.)?".*)?( in JSON)?( at position \d+.*)?$/s, '');
    return [{ ...position(jsonErrorOffset(text, message)), message: `invalid JSON: ${detail}` }];
  }
}

/**
 * Finds where JSON.parse failed. V8 gives "at position N" for some errors, and for others only
 * the offending token inside a quoted excerpt of the text, which is searched for instead.
 */
function jsonErrorOffset(text: string, message: string): number {
  const at = /at position (\d+)/.exec(message);
  if (at) return Number(at[1]);
  const excerpt = /"(?:\.\.\.)?(.*?)(?:\.\.\.)?" is not valid JSON/s.exec(message)?.[1];
  const token = /Unexpected token '(.)'/.exec(message)?.[1];
  const start = excerpt ? text.indexOf(excerpt) : -1;
  if (start < 0) return /end of JSON input/.test(message) ? text.length : 0;
  return start + Math.max(0, token ? excerpt!.indexOf(token) : 0);
}

function yamlMessage(message: string): string {
  const first = message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  return `invalid YAML: ${first}`;
}

/**
 * Finds the node for a path; for a property it returns the key, so the position points at the
 * name the operator wrote. A missing step stops at the deepest node that exists.
 */
function nodeAt(root: YamlNode | null, path: DocPath, index: WeakMap<YAMLMap, Map<string, Pair>>): YamlNode | null {
  let node = root;
  let found: YamlNode | null = root;
  for (const part of path) {
    if (isMap(node)) {
      const pair = keysOf(node, index).get(String(part));
      if (!pair) return found;
      found = (pair.key as YamlNode) ?? found;
      node = pair.value as YamlNode | null;
    } else if (isSeq(node) && typeof part === 'number' && node.items[part] !== undefined) {
      node = node.items[part] as YamlNode;
      found = node;
    } else return found;
  }
  return found;
}

/** A mapping's pairs by key, built once per mapping: one lookup per error, not one scan, keeps 40,000 errors linear */
function keysOf(map: YAMLMap, index: WeakMap<YAMLMap, Map<string, Pair>>): Map<string, Pair> {
  let keys = index.get(map);
  if (keys === undefined) {
    keys = new Map();
    for (const item of map.items) {
      if (isPair(item) && isScalar(item.key) && !keys.has(String(item.key.value)))
        keys.set(String(item.key.value), item as Pair);
    }
    index.set(map, keys);
  }
  return keys;
}

/** Where each repeated key of a mapping starts, in one pass with a set per mapping (keys equal as the parser compares them) */
function duplicateKeys(doc: ReturnType<typeof parseDocument>): number[] {
  const offsets: number[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const key = pair.key.value;
        if (seen.has(key)) offsets.push(pair.key.range?.[0] ?? 0);
        else seen.add(key);
      }
    },
  });
  return offsets;
}
