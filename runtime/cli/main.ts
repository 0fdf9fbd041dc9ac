import { readFileSync } from 'node:fs';
import { pluginCommands, type FoundCommand } from './plugin-commands.ts';

const USAGE = 'Usage: capstan [--config FILE] <command> [options]';
const HOST_HELP = `Commands:
  serve [--config FILE]                   Start the host (default: embedded document, http://127.0.0.1:8080)
  config check [--json] [--strict] FILE...
                                          Validate startup documents (exit 0 valid, 1 invalid, 2 usage error;
                                          --strict counts warnings as errors)
  config effective FILE                   Print a document with every default filled in
  config schema                           Print the startup document's JSON Schema
  help, --help                            This text
  version, --version                      Capstan's version
`;
const COLUMN = 40;

function help(commands: Iterable<FoundCommand>): string {
  const lines = [...commands]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(({ pluginId, command }) => {
      const summary = `${command.summary} (plugin ${pluginId})`;
      const usage = `  ${command.usage}`;
      return usage.length < COLUMN ? `${usage.padEnd(COLUMN)}${summary}` : `${usage}\n${' '.repeat(COLUMN)}${summary}`;
    });
  const plugins =
    lines.length === 0
      ? ''
      : `\nPlugin commands (from plugins/ and the plugins[] of --config FILE):\n${lines.join('\n')}\n`;
  return `${USAGE}\n\n${HOST_HELP}${plugins}`;
}

/** `--config FILE` before the command: the startup document whose plugins[] add commands */
function globalConfig(args: string[]): { config?: string; rest: string[] } {
  if (args[0] === '--config' && args[1] !== undefined) return { config: args[1], rest: args.slice(2) };
  if (args[0]?.startsWith('--config=')) return { config: args[0].slice('--config='.length), rest: args.slice(1) };
  return { rest: args };
}

/** Runs one CLI invocation and answers its exit code */
export async function main(args: string[]): Promise<number> {
  const {
    config,
    rest: [command, ...rest],
  } = globalConfig(args);
  switch (command) {
    case 'serve':
      return (await import('./serve.ts')).serveCommand(config === undefined ? rest : ['--config', config, ...rest]);
    case 'config':
      return (await import('./config.ts')).configCommand(rest);
    case 'version':
    case '--version': {
      const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
      process.stdout.write(`capstan ${pkg.version}\n`);
      return 0;
    }
  }
  // Everything else needs the plugins' commands: help lists them, any other name may be one
  let found;
  try {
    found = await pluginCommands(config);
  } catch (error) {
    process.stderr.write(`capstan: ${(error as Error).message}\n`);
    return 2;
  }
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(help(found.commands.values()));
    return command === undefined ? 2 : 0;
  }
  const plugin = found.commands.get(command);
  if (!plugin) {
    process.stderr.write(`capstan: unknown command "${command}"\n\n${help(found.commands.values())}`);
    return 2;
  }
  const { baseDir, plugins } = found;
  // Loaded on first use: most commands start no plugin
  const useService = async <S>(name: string) =>
    (await import('../plugins/use.ts')).useService<S>(plugin.entry, name, { baseDir, entries: plugins });
  try {
    return await plugin.command.run(rest, {
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: process.stderr,
      baseDir,
      useService,
    });
  } catch (error) {
    // What a command leaves uncaught (a plugin it uses refusing to start, a bad host setting) is one line, not a
    // stack trace
    process.stderr.write(`capstan ${command}: ${(error as Error).message}\n`);
    return 1;
  }
}
