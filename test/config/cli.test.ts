import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = (name: string): string => `test/fixtures/config/${name}`;

type Run = { code: number; stdout: string; stderr: string };

function capstan(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['runtime/cli/capstan.js', 'config', ...args], { cwd: root }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

test('config check exits 0 when every file is valid', async () => {
  const run = await capstan('check', fixture('valid.yaml'), fixture('valid.json'));
  assert.is(run.code, 0, run.stderr);
  assert.is(run.stdout, '');
  assert.match(run.stderr, '2 files checked: 2 valid, 0 invalid (0 errors)');
});

test('config check prints FILE:LINE:COL PATH message and exits 1 when a file is invalid', async () => {
  const run = await capstan('check', fixture('valid.yaml'), fixture('invalid.yaml'));
  assert.is(run.code, 1);
  const lines = run.stdout.trim().split('\n');
  assert.equal(lines.slice(0, 2), [
    'test/fixtures/config/invalid.yaml:7:9 servers[0].listeners[1].port must be at least 1',
    'test/fixtures/config/invalid.yaml:10:5 servers[1].listeners a server of type "http" takes at most 1 listener',
  ]);
  assert.is(lines.length, 5);
  assert.match(run.stderr, '2 files checked: 1 valid, 1 invalid (5 errors)');
});

test('config check prints one JSON result per file in order when given --json', async () => {
  const run = await capstan('check', '--json', fixture('invalid.yaml'), fixture('valid.json'), fixture('syntax.json'));
  assert.is(run.code, 1);
  const results = JSON.parse(run.stdout) as { file: string; valid: boolean; errors: { path: string; line: number; column: number }[] }[];
  assert.equal(results.map((r) => [r.file, r.valid]), [[fixture('invalid.yaml'), false], [fixture('valid.json'), true], [fixture('syntax.json'), false]]);
  assert.equal(Object.keys(results[0].errors[0]), ['path', 'message', 'line', 'column']);
  assert.equal(results[2].errors.map((e) => [e.line, e.column]), [[3, 17]]);
});

test('config check exits 2 when a file cannot be read', async () => {
  const run = await capstan('check', fixture('valid.yaml'), fixture('missing.yaml'));
  assert.is(run.code, 2);
  assert.match(run.stderr, 'Cannot read "test/fixtures/config/missing.yaml": ENOENT');
});

test('config check exits 2 when no file is given', async () => {
  const run = await capstan('check');
  assert.is(run.code, 2);
  assert.match(run.stderr, '"check" needs at least one FILE');
});

test('config effective prints the document with defaults when the file is valid', async () => {
  const run = await capstan('effective', fixture('valid.json'));
  assert.is(run.code, 0, run.stderr);
  const document = JSON.parse(run.stdout);
  assert.equal(document.servers[0], { id: 'inbound', listeners: [{ port: 25 }], type: 'smtp', proxyprotocol: false });
  assert.is(document.spool.path, '/var/spool/service/queue');
});

test('config effective exits 1 with errors when the file is invalid', async () => {
  const run = await capstan('effective', fixture('invalid.yaml'));
  assert.is(run.code, 1);
  assert.is(run.stdout, '');
  assert.match(run.stderr, 'servers[0].listeners[1].port must be at least 1');
});

test('config schema prints the JSON Schema when asked', async () => {
  const run = await capstan('schema');
  assert.is(run.code, 0);
  assert.is(JSON.parse(run.stdout).$id, 'https://capstan.dev/schemas/startup-config.schema.json');
});

test('config --help prints usage and exits 0 when asked', async () => {
  const run = await capstan('--help');
  assert.is(run.code, 0);
  assert.match(run.stdout, 'check [--json] FILE...');
});

test.run();
