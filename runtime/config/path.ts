/** A location in a configuration document: property names and array indexes from the root. */
export type DocPath = readonly (string | number)[];

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** Formats a path as `servers[1].listeners[0].port`; the root is the empty string. */
export function formatPath(path: DocPath): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (IDENTIFIER.test(part)) out += out === '' ? part : `.${part}`;
    else out += `[${JSON.stringify(part)}]`;
  }
  return out;
}

/** Reads the value at a path, or undefined when any step is missing. */
export function valueAt(root: unknown, path: DocPath): unknown {
  let node = root;
  for (const part of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[part];
  }
  return node;
}

/**
 * Fills `{../type}`-style placeholders in a message: each is a relative path from the error's
 * location (`..` is one level up), replaced by the value found there, so one schema message
 * serves every server type. `{.}` is the value at the location itself, written as JSON so a
 * string shows its quotes and a number does not.
 */
export function fillTemplate(message: string, root: unknown, path: DocPath): string {
  return message.replace(/\{((?:\.\.\/)*)([^}]+)\}/g, (whole, ups: string, rest: string) => {
    if (ups === '' && rest === '.') return JSON.stringify(valueAt(root, path)) ?? whole;
    const levels = ups.length / 3;
    const target = [...path.slice(0, path.length - levels), ...rest.split('/')];
    const value = valueAt(root, target);
    return value === undefined ? whole : String(value);
  });
}

/**
 * A test for "is this path at or below one of `paths`", answered through a set of their prefixes: one lookup per
 * step of the path tested, so checking every error of a large document against every other stays linear.
 */
export function withinAny(paths: readonly DocPath[]): (path: DocPath) => boolean {
  const keys = new Set(paths.map(pathKey));
  return (path) => {
    for (let end = 0; end <= path.length; end++) if (keys.has(pathKey(path.slice(0, end)))) return true;
    return false;
  };
}

function pathKey(path: DocPath): string {
  return path.map((part) => `${typeof part === 'number' ? '#' : '.'}${part}`).join('\u0000');
}
