import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { importSiblingSchemas } from './sibling-schemas.ts';
import { pointerSegment, SpecError, type SpecFile } from './spec-file.ts';

/** Everything the generator reads from `spec/` */
export interface LoadedSpecs {
  openapi: SpecFile[];
  schemas: SpecFile[];
  /** The config schemas of the built-in plugins (`spec/schema/plugins/<plugin id>.schema.json`) */
  plugins: SpecFile[];
  /** The service contracts (`spec/contracts/<name>.yaml`), checked by the contract model */
  contracts: SpecFile[];
}

async function loadFolder(root: string, folder: string, suffix: string): Promise<SpecFile[]> {
  const dir = join(root, folder);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith(suffix)).sort();
  return Promise.all(
    names.map(async (name) => {
      const path = join(dir, name);
      const file = relative(root, path);
      const text = await readFile(path, 'utf8');
      let document: unknown;
      try {
        document = suffix.endsWith('.json') ? JSON.parse(text) : parse(text);
      } catch (error) {
        throw new SpecError(file, '', `cannot parse: ${(error as Error).message}`);
      }
      if (typeof document !== 'object' || document === null || Array.isArray(document)) {
        throw new SpecError(file, '', 'the document must be an object');
      }
      return { file, name: name.slice(0, -suffix.length), text, document: document as Record<string, any> };
    }),
  );
}

/**
 * Reads every OpenAPI document (`spec/openapi/*.yaml`), JSON Schema (`spec/schema/*.schema.json`), plugin config
 * schema (`spec/schema/plugins/*.schema.json`) and service contract (`spec/contracts/*.yaml`)
 */
export async function loadSpecs(root: string): Promise<LoadedSpecs> {
  const [openapi, schemas, plugins, contracts] = await Promise.all([
    loadFolder(root, 'spec/openapi', '.yaml'),
    loadFolder(root, 'spec/schema', '.schema.json'),
    loadFolder(root, 'spec/schema/plugins', '.schema.json'),
    loadFolder(root, 'spec/contracts', '.yaml'),
  ]);
  importSiblingSchemas(openapi);
  for (const spec of [...openapi, ...schemas]) checkRefs(spec);
  for (const spec of plugins) checkRefs(spec, openapi);
  return { openapi, schemas, plugins, contracts };
}

/** The prefix of a plugin schema's `$ref` into an OpenAPI document, such as a class enum */
export const OPENAPI_REF = '../../openapi/';

/** The schema a `$ref` into an OpenAPI document (`../../openapi/<name>.yaml#/pointer`) points to, if it resolves */
export function resolveOpenapiRef(ref: string, openapi: readonly SpecFile[]): unknown {
  const [file, pointer = ''] = ref.slice(OPENAPI_REF.length).split('#');
  const target = openapi.find((spec) => `${spec.name}.yaml` === file);
  return target === undefined ? undefined : resolvePointer(target.document, pointer);
}

/**
 * Calls `visit` with every string `$ref` below `node` and the JSON pointer of the `$ref` key. A `$ref` whose value is
 * not a string is a property name (under `properties`), so it is walked into like any other key
 */
export function eachRef(node: unknown, pointer: string, visit: (ref: string, pointer: string) => void): void {
  if (Array.isArray(node)) return node.forEach((item, i) => eachRef(item, `${pointer}/${i}`, visit));
  if (typeof node !== 'object' || node === null) return;
  for (const [key, value] of Object.entries(node)) {
    const at = `${pointer}/${pointerSegment(key)}`;
    if (key === '$ref' && typeof value === 'string') visit(value, at);
    else eachRef(value, at, visit);
  }
}

/** Fails on a `$ref` that does not resolve inside its own document, or, where `openapi` is given, in an OpenAPI document */
function checkRefs(spec: SpecFile, openapi?: readonly SpecFile[]): void {
  eachRef(spec.document, '', (ref, at) => {
    const resolved =
      openapi !== undefined && ref.startsWith(OPENAPI_REF)
        ? resolveOpenapiRef(ref, openapi)
        : ref.startsWith('#')
          ? resolvePointer(spec.document, ref.slice(1))
          : undefined;
    if (resolved === undefined) throw new SpecError(spec.file, at, `unresolved $ref "${ref}"`);
  });
}

/** Looks up a JSON pointer inside a document */
export function resolvePointer(document: unknown, pointer: string): unknown {
  if (pointer === '') return document;
  let node: any = document;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof node !== 'object' || node === null || !(key in node)) return undefined;
    node = node[key];
  }
  return node;
}
