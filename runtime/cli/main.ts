import { readFileSync } from 'node:fs';

const HELP = `Usage: capstan <command> [options]

Commands:
  serve [--config FILE]                   Start the host (default: embedded document, http://127.0.0.1:8080)
  config check [--json] [--strict] FILE...
                                          Validate startup documents (exit 0 valid, 1 invalid, 2 usage error;
                                          --strict counts warnings as errors)
  config effective FILE                   Print a document with every default filled in
  config schema                           Print the startup document's JSON Schema
  classify [--model bnac|backoff] [--json] [TEXT...]
                                          Classify bounce replies offline (lines on stdin without TEXT)
  help, --help                            This text
  version, --version                      Capstan's version
`;

/** Runs one CLI invocation and answers its exit code */
export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'serve':
      return (await import('./serve.ts')).serveCommand(rest);
    case 'config':
      return (await import('./config.ts')).configCommand(rest);
    case 'classify':
      return (await import('./classify.ts')).classifyCommand(rest);
    case 'version':
    case '--version': {
      const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
      process.stdout.write(`capstan ${pkg.version}\n`);
      return 0;
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      process.stdout.write(HELP);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`capstan: unknown command "${command}"\n\n${HELP}`);
      return 2;
  }
}
