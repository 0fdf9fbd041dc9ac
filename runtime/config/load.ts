import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { StartupConfig } from '../../generated/types/startup-config.ts';
import { CapstanError } from '../host/errors.ts';
import { formatPath } from './path.ts';
import { parseSource } from './source.ts';
import { effective } from './effective.ts';
import { validateDocument } from './validate.ts';

/** One broken rule of a configuration file, with where it is. */
export type CheckError = { path: string; message: string; line: number; column: number };

/** The outcome of checking one file; `document` is the parsed value when it could be parsed. */
export type CheckResult = { file: string; valid: boolean; errors: CheckError[]; document?: unknown };

/**
 * Reads and checks a YAML or JSON startup configuration. Syntax errors and broken rules come
 * back as errors with line and column; a file that cannot be read throws `CONFIG_ERR_READ`.
 */
export async function checkFile(file: string): Promise<CheckResult> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CapstanError('CONFIG_ERR_READ', `Cannot read "${file}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
  const source = parseSource(text, file.toLowerCase().endsWith('.json'));
  if (source.syntaxErrors.length > 0) {
    const errors = source.syntaxErrors.map(({ line, column, message }) => ({ path: '', message, line, column }));
    return { file, valid: false, errors };
  }
  const errors = validateDocument(source.value)
    .map(({ path, message }) => ({ path: formatPath(path), message, ...source.locate(path) }))
    .sort((a, b) => a.line - b.line || a.column - b.column);
  return { file, valid: errors.length === 0, errors, document: source.value };
}

/** Formats an error as `FILE:LINE:COL PATH message`, the line the CLI and the host print. */
export function formatError(file: string, error: CheckError): string {
  return `${file}:${error.line}:${error.column} ${error.path === '' ? '' : `${error.path} `}${error.message}`;
}

/**
 * Loads the startup configuration for the host: checks it, fills the defaults and returns the
 * directory relative paths in it resolve against. Throws `CONFIG_ERR_INVALID` listing every error.
 */
export async function loadStartupConfig(file: string): Promise<{ document: StartupConfig; baseDir: string }> {
  const result = await checkFile(file);
  if (!result.valid) {
    const lines = result.errors.map((error) => formatError(file, error));
    throw new CapstanError('CONFIG_ERR_INVALID', `Invalid startup configuration "${file}":\n${lines.join('\n')}`);
  }
  return { document: effective(result.document as StartupConfig), baseDir: dirname(resolve(file)) };
}
