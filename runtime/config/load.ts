import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { StartupConfig } from '../../generated/types/startup-config.ts';
import { hostErrors } from '../host/host-errors.ts';
import type { Issue } from './explain.ts';
import { formatPath } from './path.ts';
import { parseSource } from './source.ts';
import type { Source } from './source.ts';
import { effective } from './effective.ts';
import { validateDocument } from './validate.ts';

/** One finding in a configuration file (an error, a warning or a note), with where it is. */
export type CheckError = { path: string; message: string; line: number; column: number };

/**
 * The outcome of checking one file; `document` is the parsed value when it could be parsed.
 * Warnings leave the file valid; notes say where a value comes from.
 */
export type CheckResult = { file: string; valid: boolean; errors: CheckError[]; warnings: CheckError[]; notes: CheckError[]; document?: unknown };

/** How to check: `serve` applies the rules Capstan needs to serve and reads `!Env` values from `env`. */
export type CheckOptions = { serve?: boolean; env?: Record<string, string | undefined> };

const EMPTY = 'the file is empty: a startup configuration needs at least version: "6.10"';

/**
 * Reads and checks a YAML or JSON startup configuration. Syntax errors and broken rules come
 * back as errors with line and column; a file that cannot be read throws `CONFIG_ERR_READ`.
 */
export async function checkFile(file: string, options: CheckOptions = {}): Promise<CheckResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw hostErrors.CONFIG_ERR_READ(file, (error as NodeJS.ErrnoException).code ?? (error as Error).message, { cause: error });
  }
  const source = parseSource(text, file.toLowerCase().endsWith('.json'), { env: options.serve ? options.env ?? {} : undefined });
  const invalid = (errors: CheckError[]): CheckResult => ({ file, valid: false, errors, warnings: [], notes: [] });
  if (source.syntaxErrors.length > 0) return invalid(source.syntaxErrors.map(({ line, column, message }) => ({ path: '', message, line, column })));
  // Only comments, or nothing at all: "must be an object" would not tell the operator why.
  if (source.value === null || source.value === undefined) return invalid([{ path: '', message: EMPTY, line: 1, column: 1 }]);
  const checked = validateDocument(source.value, options);
  const errors = located(source, checked.errors);
  const warnings = located(source, checked.warnings);
  const notes: CheckError[] = [];
  for (const value of source.fromEnv) {
    const at = { path: formatPath(value.path), line: value.line, column: value.column };
    const names = value.names.map((name) => `"${name}"`).join(', ');
    if (value.unresolved.length === 0) notes.push({ ...at, message: `comes from the environment (${names}) at start: checked with the default in !Env "${value.text}"` });
    else if (options.serve) errors.push({ ...at, message: `needs the environment variable "${value.unresolved[0]}": it is not set and !Env "${value.text}" has no default` });
    else warnings.push({ ...at, message: `comes from the environment (${names}) at start and !Env "${value.text}" has no default, so it is not checked` });
  }
  const order = (a: CheckError, b: CheckError): number => a.line - b.line || a.column - b.column;
  const mark = (list: CheckError[]): CheckError[] => list.map((item) => ({ ...item, message: fromEnvNote(source, item) })).sort(order);
  return { file, valid: errors.length === 0, errors: mark(errors), warnings: mark(warnings), notes: notes.sort(order), document: source.value };
}

function located(source: Source, issues: Issue[]): CheckError[] {
  return issues.map(({ path, message }) => ({ path: formatPath(path), message, ...source.locate(path) }));
}

/** A complaint about a value written with `!Env` says which text it came from, since the operator did not write the value itself. */
function fromEnvNote(source: Source, item: CheckError): string {
  const value = source.fromEnv.find((env) => env.unresolved.length === 0 && formatPath(env.path) === item.path);
  return value === undefined ? item.message : `${item.message} (the value of !Env "${value.text}")`;
}

/** Formats an error as `FILE:LINE:COL PATH message`, the line the CLI and the host print; `label` marks a warning or a note. */
export function formatError(file: string, error: CheckError, label?: 'warning' | 'note'): string {
  return `${file}:${error.line}:${error.column} ${error.path === '' ? '' : `${error.path} `}${label ? `${label}: ` : ''}${error.message}`;
}

/**
 * Loads the startup configuration for the host: checks it with the rules of `serve`, reading
 * `!Env` values from `env`, fills the defaults and returns the directory relative paths in it
 * resolve against, with the warnings as printable lines. Throws `CONFIG_ERR_INVALID` listing every error.
 */
export async function loadStartupConfig(file: string, options: { env?: Record<string, string | undefined> } = {}): Promise<{ document: StartupConfig; baseDir: string; warnings: string[] }> {
  const result = await checkFile(file, { serve: true, env: options.env ?? process.env });
  if (!result.valid) {
    const lines = result.errors.map((error) => formatError(file, error));
    throw hostErrors.CONFIG_ERR_INVALID(file, lines.join('\n'));
  }
  const warnings = result.warnings.map((warning) => formatError(file, warning, 'warning'));
  return { document: effective(result.document as StartupConfig), baseDir: dirname(resolve(file)), warnings };
}
