/**
 * Plugins contribute `capstan` commands: `--help` lists them, `capstan <command>` runs them, and a name that clashes
 * with a host command or another plugin's command is refused. The CLI runs as a process.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { document, runCli as capstan, tempDir, writePlugin } from '../host/_fixtures.ts';

const dir = tempDir();
/** A plugin adding `command`, which echoes its arguments, stdin and baseDir, and exits with code 3 */
const commandPlugin = (name: string, command: string) =>
  writePlugin(dir, name, {
    'mod.ts': `import { definePlugin, Type } from '@capstan';
export default definePlugin({
  id: '${name}',
  kind: 'store',
  apiVersion: '^1.2.0',
  config: Type.Object({}),
  commands: {
    '${command}': {
      summary: 'Echo what it gets (${name})',
      usage: '${command} [WORD...]',
      async run(args, io) {
        let input = '';
        for await (const chunk of io.stdin) input += chunk;
        io.stdout.write(JSON.stringify({ args, input, baseDir: io.baseDir }) + '\\n');
        return 3;
      },
    },
  },
  setup: () => ({ service: {} }),
});
`,
  });
/** A startup document listing `plugins`, written to `name` */
function startup(name: string, plugins: unknown[]): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(document(plugins)));
  return file;
}

test('capstan --help lists the commands of the built-in plugins with their summaries', async () => {
  const { code, stdout } = await capstan(['--help']);
  assert.is(code, 0);
  assert.match(stdout, 'Plugin commands');
  assert.match(
    stdout,
    new RegExp(
      String.raw`classify \[--model bnac\|backoff\] \[--json\] \[--explain\] \[TEXT\.\.\. \| --email FILE\|FOLDER\.\.\.\]` +
        String.raw`\s+Classify bounce replies offline \(lines on stdin without TEXT\), ` +
        String.raw`or whole bounce emails with --email \(plugin bounce-classifier\)`,
    ),
  );
});

test('capstan runs a command of a plugin from --config FILE, with its arguments, stdin and exit code', async () => {
  const config = startup('echo.json', [{ id: 'echo', path: commandPlugin('echo-plugin', 'echo') }]);
  const listed = await capstan(['--config', config, '--help']);
  assert.is(listed.code, 0);
  assert.match(listed.stdout, /echo \[WORD\.\.\.\]\s+Echo what it gets \(echo-plugin\) \(plugin echo\)/);
  const ran = await capstan(['--config', config, 'echo', 'a', '--b'], 'from stdin');
  assert.is(ran.code, 3);
  assert.equal(JSON.parse(ran.stdout), { args: ['a', '--b'], input: 'from stdin', baseDir: dir });
  const without = await capstan(['echo']);
  assert.is(without.code, 2);
  assert.match(without.stderr, 'capstan: unknown command "echo"');
});

test('capstan refuses a plugin command named like a host command', async () => {
  const config = startup('serve.json', [{ id: 'sneaky', path: commandPlugin('serve-plugin', 'serve') }]);
  const { code, stderr } = await capstan(['--config', config, '--help']);
  assert.is(code, 2);
  assert.is(stderr, 'capstan: Cannot add command "serve" of plugin "sneaky": the host has a command of that name\n');
});

test('capstan refuses a command two plugins add, naming both', async () => {
  const config = startup('twice.json', [
    { id: 'first', path: commandPlugin('greet-one', 'greet') },
    { id: 'second', path: commandPlugin('greet-two', 'greet') },
  ]);
  const { code, stderr } = await capstan(['--config', config, 'greet']);
  assert.is(code, 2);
  assert.is(
    stderr,
    'capstan: Cannot add command "greet" of plugin "second": plugin "first" adds a command of that name\n',
  );
});

test('capstan takes one plugin listed twice, and the built-in classify listed by path, without a clash', async () => {
  const echo = commandPlugin('echo-twice', 'echo-twice');
  const config = startup('same.json', [
    { id: 'a', path: echo },
    { id: 'b', path: echo },
    { id: 'bc', path: join(import.meta.dirname, '../../plugins/bounce-classifier') },
  ]);
  const { code, stdout } = await capstan(['--config', config, '--help']);
  assert.is(code, 0);
  assert.match(stdout, 'echo-twice [WORD...]');
});

test('capstan refuses a plugin whose command is malformed, naming the plugin', async () => {
  const bad = writePlugin(dir, 'bad-command', {
    'mod.ts':
      `import { definePlugin, Type } from '@capstan';
export default definePlugin({ id: 'bad', kind: 'store', apiVersion: '^1.2.0', config: Type.Object({}),` +
      ` commands: { Shout: { summary: 's', usage: 'Shout', run: async () => 0 } }, setup: () => ({ service: {} }) });
`,
  });
  const { code, stderr } = await capstan(['--config', startup('bad.json', [{ id: 'bad', path: bad }]), '--help']);
  assert.is(code, 2);
  assert.match(
    stderr,
    /^capstan: Invalid startup configuration ".*bad\.json":\n.*bad\.json:1:\d+ plugins\[0\]\.path cannot load plugin "bad": command "Shout" must be lower case letters, digits and "-"\n$/,
  );
});

test.run();
