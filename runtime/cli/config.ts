import { checkFile, formatError } from '../config/load.ts';
import type { CheckResult } from '../config/load.ts';
import { effective } from '../config/effective.ts';
import { startupConfigSchema } from '../config/schema.ts';
import type { StartupConfig } from '../../generated/types/startup-config.ts';

const HELP = `Usage: capstan config <command>

Commands:
  check [--json] FILE...   Validate startup configurations (YAML or JSON)
                           Prints FILE:LINE:COL PATH message per error; exit 0 all valid,
                           1 any invalid, 2 usage or read error
  effective FILE           Print the configuration as JSON with every default filled in
  schema                   Print the JSON Schema (for editors: capstan config schema > startup-config.schema.json)
  --help                   This text
`;

/** Runs `capstan config ...` and answers the exit code. */
export async function configCommand(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'check':
      return check(rest);
    case 'effective':
      return showEffective(rest);
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
async function checkOne(file: string): Promise<CheckResult & { unreadable?: boolean }> {
  try {
    return await checkFile(file);
  } catch (error) {
    const message = (error as Error).message;
    return { file, valid: false, unreadable: true, errors: [{ path: '', message, line: 0, column: 0 }] };
  }
}

async function check(args: string[]): Promise<number> {
  const json = args.includes('--json');
  const files = args.filter((arg) => arg !== '--json');
  const unknown = files.find((file) => file.startsWith('-') && file !== '-');
  if (unknown !== undefined) return usage(`unknown option "${unknown}"`);
  if (files.length === 0) return usage('"check" needs at least one FILE');
  const results = [];
  for (const file of files) results.push(await checkOne(file));
  if (json) {
    const out = results.map(({ file, valid, errors }) => ({ file, valid, errors }));
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
  } else {
    for (const result of results) {
      if (result.unreadable) process.stderr.write(`capstan config: ${result.errors[0].message}\n`);
      else for (const error of result.errors) process.stdout.write(`${formatError(result.file, error)}\n`);
    }
  }
  const invalid = results.filter((result) => !result.valid);
  const errors = invalid.reduce((sum, result) => sum + result.errors.length, 0);
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  process.stderr.write(`${plural(results.length, 'file')} checked: ${results.length - invalid.length} valid, ${invalid.length} invalid (${plural(errors, 'error')})\n`);
  if (results.some((result) => result.unreadable)) return 2;
  return invalid.length > 0 ? 1 : 0;
}

async function showEffective(args: string[]): Promise<number> {
  if (args.length !== 1 || args[0].startsWith('-')) return usage('"effective" needs exactly one FILE');
  const result = await checkOne(args[0]);
  if (!result.valid) {
    for (const error of result.errors) process.stderr.write(`${result.unreadable ? `capstan config: ${error.message}` : formatError(result.file, error)}\n`);
    return result.unreadable ? 2 : 1;
  }
  process.stdout.write(`${JSON.stringify(effective(result.document as StartupConfig), null, 2)}\n`);
  return 0;
}
