import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Node as YamlNode } from 'yaml';
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
export function parseSource(text: string, json: boolean, options: { env?: Record<string, string | undefined> } = {}): Source {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, customTags: [envTag] });
  const position = (offset: number): Position => {
    const { line, col } = counter.linePos(offset);
    return { line, column: col };
  };
  const syntaxErrors = json ? jsonErrors(text, position) : [];
  if (syntaxErrors.length === 0) {
    for (const error of doc.errors) syntaxErrors.push({ ...position(error.pos[0]), message: yamlMessage(error.message) });
  }
  const locate = (path: DocPath): Position => {
    const node = nodeAt(doc.contents as YamlNode | null, path);
    return position(node?.range?.[0] ?? 0);
  };
  const fromEnv = syntaxErrors.length === 0 ? resolveEnvTags(doc, options.env).map(({ offset, ...rest }) => ({ ...rest, ...position(offset) })) : [];
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
function nodeAt(root: YamlNode | null, path: DocPath): YamlNode | null {
  let node = root;
  let found: YamlNode | null = root;
  for (const part of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && isScalar(item.key) && String(item.key.value) === String(part));
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
