import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../runtime/observability/logger.ts';
import { PLUGIN_API_VERSION, startHost } from '../../runtime/mod.ts';
import { CLI, document, HELLO_PLUGIN, tempDir, writePlugin } from './_fixtures.ts';

const dir = tempDir();
const hello = writePlugin(dir, 'hello', { 'mod.ts': HELLO_PLUGIN });
const log = createLogger({ service: 'test', write: () => {} });

async function startupError(doc: object): Promise<string> {
  try {
    const host = await startHost(doc, { baseDir: dir, ephemeralPorts: true, log });
    await host.close();
  } catch (error) {
    return (error as Error).message;
  }
  return assert.unreachable('startup should fail') as never;
}

test('serve exits non-zero naming the file, path and rule when the document is invalid', () => {
  const file = join(dir, 'bad.yaml');
  writeFileSync(file, 'version: "6.10"\nservers:\n  - id: api\n    type: http\n    listeners:\n      - port: 99999\n');
  const run = spawnSync(process.execPath, [CLI, 'serve', '--config', file], { encoding: 'utf8', timeout: 30_000 });
  assert.is(run.status, 1);
  assert.match(run.stderr, /bad\.yaml:6:\d+ servers\[0\]\.listeners\[0\]\.port/);
});

test('startup fails when a plugin cannot be found', async () => {
  assert.match(
    await startupError(document([{ id: 'no-such-plugin' }])),
    /plugins\[0\]\.id no built-in plugin is called "no-such-plugin"/,
  );
  assert.match(
    await startupError(document([{ id: 'x', path: './missing' }])),
    /plugins\[0\]\.path cannot load plugin "x": ".*missing" does not exist/,
  );
});

test('startup fails when a plugin config does not match its schema', async () => {
  const message = await startupError(document([{ id: 'hello', path: hello, config: { greeting: 5 } }]));
  assert.match(message, /plugins\[0\]\.config\.greeting must be a string/);
  const extra = await startupError(document([{ id: 'hello', path: hello, config: { nope: true } }]));
  assert.match(extra, /plugins\[0\]\.config\.nope unknown property/);
});

test('startup fails when a handler names an unknown operationId', async () => {
  const bad = writePlugin(dir, 'bad-op', { 'mod.ts': HELLO_PLUGIN.replace('getStatusAll:', 'getEverything:') });
  assert.match(
    await startupError(document([{ id: 'hello', path: bad }])),
    /handler for unknown operation "getEverything" of API "ip-schedule"/,
  );
});

test('startup fails when a plugin needs another plugin API version', async () => {
  const old = writePlugin(dir, 'old', { 'mod.ts': HELLO_PLUGIN.replace("'^1.0.0'", "'^2.0.0'") });
  const host = PLUGIN_API_VERSION.replaceAll('.', '\\.');
  assert.match(
    await startupError(document([{ id: 'hello', path: old }])),
    new RegExp(`supports plugin API "\\^2\\.0\\.0", this host has "${host}"`),
  );
});

test('startup fails when a module is not a plugin', async () => {
  const plain = writePlugin(dir, 'plain', { 'mod.ts': 'export default { id: "plain" };\n' });
  assert.match(
    await startupError(document([{ id: 'plain', path: plain }])),
    /has no default export made by definePlugin\(\)/,
  );
});

test('startup fails when an https server has no key', async () => {
  const doc = document([], { servers: [{ id: 'secure', type: 'https', listeners: [{ port: 8443 }] }] });
  assert.match(await startupError(doc), /"secure".*pki|pki.*"secure"/);
});

test('startup fails when a plugin reads a config file that is not there', async () => {
  assert.match(
    await startupError(document([{ id: 'hello', path: hello, config: 'nope.yaml' }])),
    /plugins\[0\]\.config cannot read ".*nope\.yaml": ENOENT/,
  );
});

test.run();
