import { checkFile, formatError, leftOut, MAX_PRINTED } from '../config/load.ts';
import type { CheckResult } from '../config/load.ts';
import { effective } from '../config/effective.ts';
import type { LoadPlugin } from '../config/plugins.ts';
import { importPlugin } from '../plugins/loader.ts';
import { startupConfigSchema } from '../config/schema.ts';
import type { StartupConfig } from '../../generated/types/startup-config.ts';

const HELP = `Usage: capstan config <command>

Commands:
  check [--json] [--strict] FILE...
                           Validate startup configurations (YAML or JSON)
                           Prints FILE:LINE:COL PATH message per error, warning and note;
                           exit 0 all valid (warnings allowed), 1 any invalid, 2 usage or
                           read error. --strict counts warnings as errors
  effective FILE           Print the configuration as JSON with every default filled in
  schema                   Print the JSON Schema (for editors: capstan config schema > startup-config.schema.json)
  --help                   This text
`;

/** How the command runs: `beforePluginLoad` prepares loading a plugin given by path, once, when a document has one */
export type ConfigCommandOptions = { beforePluginLoad?: () => Promise<void> };

/** Runs `capstan config ...` and answers the exit code. */
export async function configCommand(args: string[], options: ConfigCommandOptions = {}): Promise<number> {
  const [command, ...rest] = args;
  let prepared: Promise<void> | undefined;
  const loadPlugin: LoadPlugin = async (entry, baseDir) => {
    await (prepared ??= options.beforePluginLoad?.());
    return importPlugin(entry, baseDir);
  };
  switch (command) {
    case 'check':
      return check(rest, loadPlugin);
    case 'effective':
      return showEffective(rest, loadPlugin);
    case 'schema':
      process.stdout.write(`${JSON.stringify(startupConfigSchema, null, 2)}\n`);
      return 0;
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(HELP);
      return 0;
    default:
      return usage(command === undefined ? 'missing command' : `unknown command "${command}"`);
  }
}

function usage(problem: string): number {
  process.stderr.write(`capstan config: ${problem}\n\n${HELP}`);
  return 2;
}

/** Checks a file, turning a read failure into a result so one bad path does not hide the rest. */
async function checkOne(file: string, loadPlugin: LoadPlugin): Promise<CheckResult & { unreadable?: boolean }> {
  try {
    return await checkFile(file, { loadPlugin });
  } catch (error) {
    const message = (error as Error).message;
    return {
      file,
      valid: false,
      unreadable: true,
      errors: [{ path: '', message, line: 0, column: 0 }],
      warnings: [],
      notes: [],
    };
  }
}

/** Under --strict a warning is an error: printed and counted as one, and the file is invalid. */
function strictly(result: CheckResult & { unreadable?: boolean }): CheckResult & { unreadable?: boolean } {
  const errors = [...result.errors, ...result.warnings].sort((a, b) => a.line - b.line || a.column - b.column);
  return { ...result, valid: errors.length === 0, errors, warnings: [] };
}

async function check(args: string[], loadPlugin: LoadPlugin): Promise<number> {
  const options = new Set(['--json', '--strict']);
  const files = args.filter((arg) => !options.has(arg));
  const unknown = files.find((file) => file.startsWith('-') && file !== '-');
  if (unknown !== undefined) return usage(`unknown option "${unknown}"`);
  if (files.length === 0) return usage('"check" needs at least one FILE');
  const results = [];
  for (const file of files) {
    const result = await checkOne(file, loadPlugin);
    results.push(args.includes('--strict') ? strictly(result) : result);
  }
  if (args.includes('--json')) {
    const out = results.map(({ file, valid, unreadable, errors, warnings, notes }) => ({
      file,
      valid,
      ...(unreadable ? { unreadable } : {}),
      errors,
      warnings,
      notes,
    }));
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    for (const result of results) {
      if (result.unreadable) process.stderr.write(`capstan config: ${result.errors[0].message}\n`);
      else process.stdout.write(printed(result));
    }
  }
  process.stderr.write(summary(results));
  if (results.some((result) => result.unreadable)) return 2;
  return results.some((result) => !result.valid) ? 1 : 0;
}

/**
 * Errors, warnings and notes of one file, in the order of the lines they point at; at most `MAX_PRINTED` of each,
 * so a generated document with thousands of mistakes does not flood the terminal or a CI log.
 */
function printed(result: CheckResult): string {
  const lines = [
    ...result.errors.slice(0, MAX_PRINTED).map((item) => ({ item, text: formatError(result.file, item) })),
    ...result.warnings.slice(0, MAX_PRINTED).map((item) => ({ item, text: formatError(result.file, item, 'warning') })),
    ...result.notes.slice(0, MAX_PRINTED).map((item) => ({ item, text: formatError(result.file, item, 'note') })),
  ].sort((a, b) => a.item.line - b.item.line || a.item.column - b.item.column);
  const more = [
    leftOut(result.errors.length),
    leftOut(result.warnings.length, 'warning'),
    leftOut(result.notes.length, 'note'),
  ].flatMap((line) => (line === undefined ? [] : [`${result.file}: ${line}`]));
  return [...lines.map(({ text }) => text), ...more].map((text) => `${text}\n`).join('');
}

/** One closing line; a file that could not be read is counted apart, since nothing in it was checked. */
function summary(results: (CheckResult & { unreadable?: boolean })[]): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const readable = results.filter((result) => !result.unreadable);
  const invalid = readable.filter((result) => !result.valid);
  const unreadable = results.length - readable.length;
  const errors = readable.reduce((sum, result) => sum + result.errors.length, 0);
  const warnings = readable.reduce((sum, result) => sum + result.warnings.length, 0);
  const counts = [plural(errors, 'error'), ...(warnings > 0 ? [plural(warnings, 'warning')] : [])].join(', ');
  const parts = [
    `${readable.length - invalid.length} valid`,
    `${invalid.length} invalid`,
    ...(unreadable > 0 ? [`${unreadable} unreadable`] : []),
  ];
  return `${plural(results.length, 'file')} checked: ${parts.join(', ')} (${counts})\n`;
}

async function showEffective(args: string[], loadPlugin: LoadPlugin): Promise<number> {
  if (args.length !== 1 || args[0].startsWith('-')) return usage('"effective" needs exactly one FILE');
  const result = await checkOne(args[0], loadPlugin);
  if (!result.valid) {
    for (const error of result.errors)
      process.stderr.write(
        `${result.unreadable ? `capstan config: ${error.message}` : formatError(result.file, error)}\n`,
      );
    return result.unreadable ? 2 : 1;
  }
  process.stdout.write(`${JSON.stringify(effective(result.document as StartupConfig), null, 2)}\n`);
  return 0;
}
