import { readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fillDefaults } from '../config/defaults.ts';
import type { SchemaNode } from '../config/schema.ts';
import { hostErrors } from '../core/host-errors.ts';
import { compileValidator } from '../config/validator.ts';
import { BUILTIN_DIR } from '../core/builtin-dir.ts';
import { isPluginDefinition } from './define.ts';
import { readDataFile } from './load-data.ts';
import { satisfies } from './semver.ts';
import { PLUGIN_API_VERSION, type PluginDefinition } from '../core/types.ts';

const KINDS = ['api', 'classifier', 'store'];
const COMMAND_RE = /^[a-z][a-z0-9-]*$/;

/** Ids of the built-in plugins: the folders of `plugins/` */
export async function builtinPluginIds(): Promise<string[]> {
  const entries = await readdir(BUILTIN_DIR, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** A `plugins[]` entry of the startup document */
export interface PluginEntry {
  id: string;
  path?: string;
  config?: unknown;
}

async function moduleFile(entry: PluginEntry, baseDir: string): Promise<string> {
  const target =
    entry.path === undefined
      ? join(BUILTIN_DIR, entry.id)
      : isAbsolute(entry.path)
        ? entry.path
        : resolve(baseDir, entry.path);
  const info = await stat(target).catch(() => undefined);
  if (!info) {
    throw entry.path === undefined
      ? hostErrors.PLUGIN_ERR_NOT_BUILTIN(entry.id)
      : hostErrors.PLUGIN_ERR_NOT_FOUND(entry.id, target);
  }
  return info.isDirectory() ? join(target, 'mod.ts') : target;
}

/** Imports a plugin module and checks its manifest: shape, kind and plugin-API version range */
export async function importPlugin(entry: PluginEntry, baseDir: string): Promise<PluginDefinition> {
  const file = await moduleFile(entry, baseDir);
  let mod: Record<string, unknown>;
  try {
    mod = await import(pathToFileURL(file).href);
  } catch (error) {
    throw hostErrors.PLUGIN_ERR_LOAD(entry.id, file, (error as Error).message, { cause: error });
  }
  // A .ts file outside an ESM package loads as CommonJS, which nests the default export once more
  const definition = isPluginDefinition(mod.default)
    ? mod.default
    : (mod.default as Record<string, unknown> | undefined)?.default;
  const problem = (message: string) => hostErrors.PLUGIN_ERR_MANIFEST(entry.id, message);
  if (!isPluginDefinition(definition)) throw problem(`"${file}" has no default export made by definePlugin()`);
  for (const field of ['id', 'kind', 'apiVersion'] as const) {
    if (typeof definition[field] !== 'string' || definition[field] === '')
      throw problem(`manifest is missing "${field}"`);
  }
  if (!KINDS.includes(definition.kind))
    throw problem(`unknown kind "${definition.kind}", expected one of "${KINDS.join('", "')}"`);
  if (definition.api !== undefined && (definition.kind !== 'api' || typeof definition.api !== 'string'))
    throw problem('only a plugin of kind "api" names an "api", as a string');
  if (typeof definition.setup !== 'function') throw problem('manifest is missing "setup"');
  for (const [name, command] of Object.entries(definition.commands ?? {})) {
    if (!COMMAND_RE.test(name)) throw problem(`command "${name}" must be lower case letters, digits and "-"`);
    if (
      typeof command?.run !== 'function' ||
      typeof command.summary !== 'string' ||
      typeof command.usage !== 'string'
    ) {
      throw problem(`command "${name}" must have "summary", "usage" and "run"`);
    }
  }
  const errors = Object.entries(definition.errors ?? {});
  if (errors.some(([code, factory]) => typeof factory !== 'function' || factory.code !== code))
    throw problem('"errors" must be made by defineErrors()');
  let supported: boolean;
  try {
    supported = satisfies(PLUGIN_API_VERSION, definition.apiVersion);
  } catch (error) {
    throw problem((error as Error).message);
  }
  if (!supported) {
    throw hostErrors.PLUGIN_ERR_VERSION(entry.id, definition.apiVersion, PLUGIN_API_VERSION);
  }
  return definition;
}

/** A plugin's validated config, and the servers its routes are limited to (config key `servers`) */
export interface ResolvedConfig {
  config: Record<string, unknown>;
  servers?: string[];
}

/** Reads a plugin's config (an object, or a path to a YAML/JSON file), fills defaults and validates it */
export async function pluginConfig(
  entry: PluginEntry,
  definition: PluginDefinition,
  baseDir: string,
): Promise<ResolvedConfig> {
  const invalid = (message: string) => hostErrors.PLUGIN_ERR_CONFIG(entry.id, message);
  let raw: unknown = entry.config ?? {};
  if (typeof raw === 'string') {
    try {
      raw = await readDataFile(resolve(baseDir, raw));
    } catch (error) {
      throw invalid((error as Error).message);
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalid('must be an object or a path to a YAML or JSON file');
  // `servers` belongs to the host: it limits which servers mount the plugin's routes
  const { servers, ...own } = raw as Record<string, unknown>;
  if (servers !== undefined && (!Array.isArray(servers) || servers.some((s) => typeof s !== 'string'))) {
    throw invalid('config.servers must be an array of server ids');
  }
  const config = fillDefaults(definition.config as SchemaNode, own);
  const problem = compileValidator(definition.config, 'config')(config);
  if (problem) throw invalid(problem);
  return { config, servers: servers as string[] | undefined };
}
