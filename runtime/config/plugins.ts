import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { builtinPluginSchemas } from '../../generated/validators/plugins.ts';
import { BUILTIN_DIR } from '../core/builtin-dir.ts';
import type { PluginDefinition } from '../core/types.ts';
import { fillDefaults } from './defaults.ts';
import { explain } from './explain.ts';
import type { Issue } from './explain.ts';
import { formatPath } from './path.ts';
import type { DocPath } from './path.ts';
import { compiled, inlineRefs } from './plugin-schema.ts';
import type { SchemaNode } from './schema.ts';
import type { Source } from './source.ts';
import { suggest } from './suggest.ts';

/** What the linter needs to know of a plugin: its kind, its config schema, the services it uses and its thread pool */
export interface PluginFacts {
  kind: string;
  schema: SchemaNode;
  services: Record<string, { kind: string; configKey?: string; default: string; optional?: boolean }>;
  scriptPool?: string;
}

/** Loads a plugin given by `path` for its definition (the host's loader; the CLI may prepare TypeScript first) */
export type LoadPlugin = (entry: { id: string; path: string }, baseDir: string) => Promise<PluginDefinition>;

/** A finding in a plugin's config file (`plugins[].config` as a path), with that file's positions */
export type FileError = { file: string; path: string; message: string; line: number; column: number };

/** Reads and parses a plugin's config file as the startup document is parsed; throws what makes it unreadable */
export type ReadConfigFile = (file: string) => Promise<Source>;

type Bag = Record<string, unknown>;
const isBag = (value: unknown): value is Bag => value !== null && typeof value === 'object' && !Array.isArray(value);

const BUILTIN_IDS = Object.keys(builtinPluginSchemas);

/** The facts of a built-in plugin, from its spec (spec/schema/plugins/<id>.schema.json): nothing is loaded */
export function builtinFacts(id: string): PluginFacts | undefined {
  const schema = (builtinPluginSchemas as unknown as Record<string, Bag>)[id];
  if (schema === undefined) return undefined;
  const services: PluginFacts['services'] = {};
  for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, Bag>)) {
    const need = property['x-service'] as { kind: string; default: string; optional?: boolean } | undefined;
    if (need !== undefined) services[key] = { ...need, configKey: key };
  }
  return { kind: String(schema['x-kind']), schema: schema as SchemaNode, services };
}

/** The facts of a loaded plugin definition */
export function definitionFacts(definition: PluginDefinition): PluginFacts {
  const pool = definition.capabilities?.pool;
  return {
    kind: definition.kind,
    schema: definition.config as unknown as SchemaNode,
    services: { ...(definition.capabilities?.services ?? {}) },
    scriptPool: pool?.scriptPool ?? pool?.threads,
  };
}

/** What checking the plugins found: issues in the startup document, and errors in the config files it names */
export interface PluginsChecked {
  errors: Issue[];
  warnings: Issue[];
  fileErrors: FileError[];
}

type Found = { errors: Issue[]; warnings: Issue[]; serve?: boolean };

/**
 * Checks `plugins[]` the way `capstan serve` starts it: each entry names a built-in plugin or loads by `path`; its
 * config (inline, or the file it names) passes its plugin's schema once defaults are filled; each service it uses
 * names a plugin of the right kind; the thread pool its code asks for exists in `threads.scripts`. Plugins given by
 * `path` are loaded for their definition; one that cannot be loaded is an error naming the path, since `serve` could
 * not start it either.
 *
 * The startup document is the MTA's too, and its `plugins[]` may list the MTA's own plugins: an id that is no built-in
 * plugin (nor close to one) and a shared object (`.so`) as `path`. `capstan serve` refuses those; for `config check`
 * (`serve` unset) they are warnings, as the https key is, so that the MTA's documents pass.
 */
export async function checkPlugins(
  doc: unknown,
  options: { serve?: boolean; baseDir: string; load: LoadPlugin; readConfigFile: ReadConfigFile },
): Promise<PluginsChecked> {
  const errors: Issue[] = [];
  const warnings: Issue[] = [];
  const fileErrors: FileError[] = [];
  const found: Found = { errors, warnings, serve: options.serve };
  const entries = Array.isArray(isBag(doc) ? doc.plugins : undefined) ? ((doc as Bag).plugins as unknown[]) : [];
  const scripts = isBag(doc) && isBag(doc.threads) && Array.isArray(doc.threads.scripts) ? doc.threads.scripts : [];
  const pools = new Set(scripts.map((pool) => (isBag(pool) ? pool.id : undefined)));
  const facts = await Promise.all(entries.map((entry, index) => factsOf(entry, index, options, found)));
  for (const [index, entry] of entries.entries()) {
    const own = facts[index];
    if (!isBag(entry) || own === undefined) continue;
    const at: DocPath = ['plugins', index];
    const config = await checkConfig(entry, own.schema, at, options, errors, fileErrors);
    if (own.scriptPool !== undefined && !pools.has(own.scriptPool)) {
      errors.push({
        path: [...at, 'id'],
        message: `runs its work in the script thread pool "${own.scriptPool}" (its "capabilities.pool.scriptPool"): no script thread pool "${own.scriptPool}" in "threads.scripts": add it there`,
      });
    }
    if (config !== undefined) checkServices(entries, facts, index, own, config, errors);
  }
  return { errors, warnings, fileErrors };
}

async function factsOf(
  entry: unknown,
  index: number,
  options: { baseDir: string; load: LoadPlugin },
  found: Found,
): Promise<PluginFacts | undefined> {
  if (!isBag(entry) || typeof entry.id !== 'string') return undefined;
  if (typeof entry.path !== 'string') {
    const facts = builtinFacts(entry.id);
    const hint = suggest(entry.id, BUILTIN_IDS);
    // Close to a built-in id it is a typo; otherwise it may be one of the MTA's plugins
    if (facts === undefined && (hint !== undefined || found.serve))
      found.errors.push({ path: ['plugins', index, 'id'], message: notBuiltin(entry.id, hint) });
    else if (facts === undefined)
      found.warnings.push({
        path: ['plugins', index, 'id'],
        message:
          'is no Capstan plugin: fine for the MTA, which loads its plugins from ' +
          '"/opt/service/plugins/", but "capstan serve" needs a built-in plugin or a "path"; ' +
          `built-in plugins are ${BUILTIN_IDS.map((name) => `"${name}"`).join(', ')}`,
      });
    return facts;
  }
  if (entry.path.endsWith('.so')) {
    const message =
      'is a shared object, a plugin of the MTA: "capstan serve" loads only JavaScript or TypeScript modules';
    (found.serve ? found.errors : found.warnings).push({ path: ['plugins', index, 'path'], message });
    return undefined;
  }
  const target = isAbsolute(entry.path) ? entry.path : resolve(options.baseDir, entry.path);
  // A path to a built-in plugin's folder (through links too) is that plugin: its facts come from the spec, without
  // loading the host
  const real = await realpath(target).catch(() => target);
  if (dirname(real) === BUILTIN_DIR && builtinFacts(basename(real))) return builtinFacts(basename(real));
  try {
    return definitionFacts(await options.load({ id: entry.id, path: entry.path }, options.baseDir));
  } catch (error) {
    const message = (error as Error).message;
    found.errors.push({ path: ['plugins', index, 'path'], message: `${message[0].toLowerCase()}${message.slice(1)}` });
    return undefined;
  }
}

function notBuiltin(id: string, hint: string | undefined): string {
  const list = BUILTIN_IDS.map((name) => `"${name}"`).join(', ');
  return `no built-in plugin is called "${id}": ${hint ? `did you mean "${hint}"; ` : ''}built-in plugins are ${list}, and a plugin of your own needs a "path"`;
}

/** Checks one entry's config; answers it with defaults filled when it is an object, for the service checks */
async function checkConfig(
  entry: Bag,
  schema: SchemaNode,
  at: DocPath,
  options: { baseDir: string; readConfigFile: ReadConfigFile },
  errors: Issue[],
  fileErrors: FileError[],
): Promise<Bag | undefined> {
  const raw = entry.config ?? {};
  if (typeof raw !== 'string') {
    errors.push(
      ...configIssues(String(entry.id), schema, raw).map((issue) => ({
        ...issue,
        path: [...at, 'config', ...issue.path],
      })),
    );
    // The services are checked even when the rest is wrong, so that one run reports every mistake
    return isBag(raw) ? fillDefaults(inlineRefs(schema), withoutServers(raw)) : undefined;
  }
  const file = resolve(options.baseDir, raw);
  let source: Source;
  try {
    source = await options.readConfigFile(file);
  } catch (error) {
    const message = (error as Error).message;
    errors.push({ path: [...at, 'config'], message: `${message[0].toLowerCase()}${message.slice(1)}` });
    return undefined;
  }
  if (source.syntaxErrors.length > 0) {
    fileErrors.push(
      ...source.syntaxErrors.map(({ line, column, message }) => ({ file, path: '', message, line, column })),
    );
    return undefined;
  }
  const value = source.value ?? {};
  fileErrors.push(
    ...configIssues(String(entry.id), schema, value).map(({ path, message }) => ({
      file,
      path: formatPath(path),
      message,
      ...source.locate(path),
    })),
  );
  return isBag(value) ? fillDefaults(inlineRefs(schema), withoutServers(value)) : undefined;
}

/**
 * The issues of the config of plugin `id` against its schema, paths relative to the config. `servers` belongs to the
 * host (it limits the servers that mount the plugin), so it is checked here and left out of the plugin's own config.
 */
function configIssues(id: string, schema: SchemaNode, config: unknown): Issue[] {
  if (!isBag(config)) return [{ path: [], message: 'must be an object or a path to a YAML or JSON file' }];
  const issues: Issue[] = [];
  const servers = config.servers;
  if (servers !== undefined && (!Array.isArray(servers) || servers.some((server) => typeof server !== 'string'))) {
    issues.push({ path: ['servers'], message: 'must be a list of server ids' });
  }
  const resolved = inlineRefs(schema);
  const filled = fillDefaults(resolved, withoutServers(config));
  if (!compiled(resolved).Check(filled)) {
    const found = explain(resolved, filled, { top: `the config of plugin "${id}"` });
    issues.push(...(found.length > 0 ? found : [{ path: [], message: "does not match the plugin's config schema" }]));
  }
  return issues;
}

function withoutServers(config: Bag): Bag {
  const { servers: _, ...own } = config;
  return own;
}

/** Each service the plugin uses must name a plugin that provides it: listed in `plugins[]` (or the built-in default), of the kind asked for */
function checkServices(
  entries: unknown[],
  facts: (PluginFacts | undefined)[],
  index: number,
  own: PluginFacts,
  config: Bag,
  errors: Issue[],
): void {
  for (const [name, need] of Object.entries(own.services)) {
    const named = need.configKey === undefined ? undefined : config[need.configKey];
    const id = typeof named === 'string' ? named : need.default;
    const listed = entries.findIndex((entry) => isBag(entry) && entry.id === id);
    if (need.optional && typeof named !== 'string' && listed < 0) continue;
    const path: DocPath =
      typeof named === 'string' ? ['plugins', index, 'config', need.configKey!] : ['plugins', index, 'id'];
    const ids = entries.flatMap((entry) => (isBag(entry) && typeof entry.id === 'string' ? [entry.id] : []));
    if (listed < 0 && id !== need.default) {
      const hint = suggest(id, ids);
      errors.push({
        path,
        message: `names plugin "${id}" for its "${name}" service, and "plugins" has no plugin "${id}"${hint ? `: did you mean "${hint}"` : ''}`,
      });
      continue;
    }
    const provider = listed >= 0 ? facts[listed] : builtinFacts(id);
    if (listed < 0 && provider === undefined) {
      errors.push({
        path,
        message: `uses the plugin "${id}" for its "${name}" service by default, and no built-in plugin is called "${id}": add it to "plugins"`,
      });
    } else if (provider !== undefined && provider.kind !== need.kind) {
      errors.push({
        path,
        message: `names plugin "${id}" for its "${name}" service, which needs a plugin of kind "${need.kind}": "${id}" is of kind "${provider.kind}"`,
      });
    }
  }
}
