import { open } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { StartupConfig } from '../../generated/types/startup-config.ts';
import { hostErrors } from '../core/host-errors.ts';
import type { Issue } from './explain.ts';
import { formatPath } from './path.ts';
import { parseSource } from './source.ts';
import type { Source } from './source.ts';
import { effective } from './effective.ts';
import type { LoadPlugin, ReadConfigFile } from './plugins.ts';
import { validateStartup } from './validate.ts';

/**
 * One finding in a configuration file (an error, a warning or a note), with where it is; `file` is set when it is in
 * another file than the one checked: a plugin's config file.
 */
export type CheckError = { path: string; message: string; line: number; column: number; file?: string };

/**
 * The outcome of checking one file; `document` is the parsed value when it could be parsed.
 * Warnings leave the file valid; notes say where a value comes from.
 */
export type CheckResult = {
  file: string;
  valid: boolean;
  errors: CheckError[];
  warnings: CheckError[];
  notes: CheckError[];
  document?: unknown;
};

/**
 * How to check: `serve` applies the rules Capstan needs to serve and reads `!Env` values from `env`; `loadPlugin`
 * loads a plugin given by `path` (the host's loader, handed in from above: config/ sits below plugins/).
 */
export type CheckOptions = { serve?: boolean; env?: Record<string, string | undefined>; loadPlugin: LoadPlugin };

const EMPTY = 'the file is empty: a startup configuration needs at least version: "6.10"';

/** The largest file `check` and `serve` read (10 MiB): real documents are a few hundred KiB, and parsing is memory-bound */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Errors (or warnings, or notes) printed per file; the rest are counted in one closing line */
export const MAX_PRINTED = 100;

/**
 * Reads a file the linter checks, refusing one over `MAX_FILE_BYTES` before reading it: `CONFIG_ERR_READ` when it
 * cannot be read, `CONFIG_ERR_TOO_LARGE` when it is too large.
 */
export async function readConfigText(file: string): Promise<string> {
  let handle;
  try {
    handle = await open(file, 'r');
    const { size } = await handle.stat();
    if (size > MAX_FILE_BYTES) throw hostErrors.CONFIG_ERR_TOO_LARGE(file, size, MAX_FILE_BYTES);
    return await handle.readFile('utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'CONFIG_ERR_TOO_LARGE') throw error;
    throw hostErrors.CONFIG_ERR_READ(file, (error as NodeJS.ErrnoException).code ?? (error as Error).message, {
      cause: error,
    });
  } finally {
    await handle?.close();
  }
}

/** Reads a plugin's config file as the startup document is read: bounded in size, `!Env` values from `env` (serve) */
export function configFileReader(env: Record<string, string | undefined> | undefined): ReadConfigFile {
  return async (path) => parseSource(await readConfigText(path), path.toLowerCase().endsWith('.json'), { env });
}

/**
 * Reads and checks a YAML or JSON startup configuration. Syntax errors and broken rules come
 * back as errors with line and column; a file that cannot be read throws `CONFIG_ERR_READ`.
 */
export async function checkFile(file: string, options: CheckOptions): Promise<CheckResult> {
  const text = await readConfigText(file);
  const source = parseSource(text, file.toLowerCase().endsWith('.json'), {
    env: options.serve ? (options.env ?? {}) : undefined,
  });
  const invalid = (errors: CheckError[]): CheckResult => ({ file, valid: false, errors, warnings: [], notes: [] });
  if (source.syntaxErrors.length > 0)
    return invalid(source.syntaxErrors.map(({ line, column, message }) => ({ path: '', message, line, column })));
  // Only comments, or nothing at all: "must be an object" would not tell the operator why.
  if (source.value === null || source.value === undefined)
    return invalid([{ path: '', message: EMPTY, line: 1, column: 1 }]);
  const env = options.serve ? (options.env ?? {}) : undefined;
  const checked = await validateStartup(source.value, {
    serve: options.serve,
    baseDir: dirname(resolve(file)),
    load: options.loadPlugin,
    readConfigFile: configFileReader(env),
  });
  const errors = [...located(source, checked.errors), ...checked.fileErrors];
  const warnings = located(source, checked.warnings);
  const notes: CheckError[] = [];
  for (const value of source.fromEnv) {
    const at = { path: formatPath(value.path), line: value.line, column: value.column };
    const names = value.names.map((name) => `"${name}"`).join(', ');
    if (value.unresolved.length === 0)
      notes.push({
        ...at,
        message: `comes from the environment (${names}) at start: checked with the default in !Env "${value.text}"`,
      });
    else if (options.serve)
      errors.push({
        ...at,
        message: `needs the environment variable "${value.unresolved[0]}": it is not set and !Env "${value.text}" has no default`,
      });
    else
      warnings.push({
        ...at,
        message: `comes from the environment (${names}) at start and !Env "${value.text}" has no default, so it is not checked`,
      });
  }
  // The document's own lines first, then each plugin config file's
  const order = (a: CheckError, b: CheckError): number =>
    (a.file ?? '').localeCompare(b.file ?? '') || a.line - b.line || a.column - b.column;
  const envTexts = new Map(
    source.fromEnv.filter((env) => env.unresolved.length === 0).map((env) => [formatPath(env.path), env.text]),
  );
  const mark = (list: CheckError[]): CheckError[] =>
    list.map((item) => ({ ...item, message: fromEnvNote(envTexts, item) })).sort(order);
  return {
    file,
    valid: errors.length === 0,
    errors: mark(errors),
    warnings: mark(warnings),
    notes: notes.sort(order),
    document: source.value,
  };
}

function located(source: Source, issues: Issue[]): CheckError[] {
  return issues.map(({ path, message }) => ({ path: formatPath(path), message, ...source.locate(path) }));
}

/** A complaint about a value written with `!Env` says which text it came from, since the operator did not write the value itself. */
function fromEnvNote(envTexts: Map<string, string>, item: CheckError): string {
  const text = envTexts.get(item.path);
  return text === undefined ? item.message : `${item.message} (the value of !Env "${text}")`;
}

/** Formats an error as `FILE:LINE:COL PATH message`, the line the CLI and the host print; `label` marks a warning or a note. */
export function formatError(file: string, error: CheckError, label?: 'warning' | 'note'): string {
  return `${error.file ?? file}:${error.line}:${error.column} ${error.path === '' ? '' : `${error.path} `}${label ? `${label}: ` : ''}${error.message}`;
}

/** The line closing a list of `count` errors (or warnings, or notes) printed up to `MAX_PRINTED`, when some were left out */
export function leftOut(count: number, noun = 'error'): string | undefined {
  const more = count - MAX_PRINTED;
  return more > 0 ? `... and ${more} more ${noun}${more === 1 ? '' : 's'}` : undefined;
}

/**
 * Loads the startup configuration for the host: checks it with the rules of `serve`, reading
 * `!Env` values from `env`, fills the defaults and returns the directory relative paths in it
 * resolve against, with the warnings as printable lines. Throws `CONFIG_ERR_INVALID` listing every error.
 */
export async function loadStartupConfig(
  file: string,
  options: { env?: Record<string, string | undefined>; loadPlugin: LoadPlugin },
): Promise<{ document: StartupConfig; baseDir: string; warnings: string[] }> {
  const result = await checkFile(file, {
    serve: true,
    env: options.env ?? process.env,
    loadPlugin: options.loadPlugin,
  });
  if (!result.valid) {
    const lines = result.errors.slice(0, MAX_PRINTED).map((error) => formatError(file, error));
    const more = leftOut(result.errors.length);
    throw hostErrors.CONFIG_ERR_INVALID(file, [...lines, ...(more === undefined ? [] : [more])].join('\n'));
  }
  const warnings = result.warnings.map((warning) => formatError(file, warning, 'warning'));
  return { document: effective(result.document as StartupConfig), baseDir: dirname(resolve(file)), warnings };
}
