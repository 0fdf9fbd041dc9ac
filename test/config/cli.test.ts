import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../host/_fixtures.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const fixture = (name: string): string => `test/fixtures/config/${name}`;

type Run = { code: number; stdout: string; stderr: string };

function capstan(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['runtime/cli/capstan.js', 'config', ...args],
      { cwd: root },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
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
  const results = JSON.parse(run.stdout) as {
    file: string;
    valid: boolean;
    errors: { path: string; line: number; column: number }[];
  }[];
  assert.equal(
    results.map((r) => [r.file, r.valid]),
    [
      [fixture('invalid.yaml'), false],
      [fixture('valid.json'), true],
      [fixture('syntax.json'), false],
    ],
  );
  assert.equal(Object.keys(results[0].errors[0]), ['path', 'message', 'line', 'column']);
  assert.equal(
    results[2].errors.map((e) => [e.line, e.column]),
    [[3, 17]],
  );
});

test('config check exits 2 and counts the file as unreadable, not invalid, when a file cannot be read', async () => {
  const run = await capstan('check', fixture('valid.yaml'), fixture('missing.yaml'));
  assert.is(run.code, 2);
  assert.match(run.stderr, 'Cannot read "test/fixtures/config/missing.yaml": ENOENT');
  assert.match(run.stderr, '2 files checked: 1 valid, 0 invalid, 1 unreadable (0 errors)');
});

test('config check says the file is empty when it holds no document', async () => {
  const run = await capstan('check', fixture('empty.yaml'));
  assert.is(run.code, 1);
  assert.is(
    run.stdout,
    'test/fixtures/config/empty.yaml:1:1 the file is empty: a startup configuration needs at least version: "6.10"\n',
  );
});

test("config check accepts the parts real documents carry that the format does not show, warning only of the MTA's own plugin", async () => {
  const run = await capstan('check', fixture('real-style.yaml'));
  assert.is(run.code, 0, run.stdout);
  assert.is(
    run.stdout,
    `${fixture('real-style.yaml')}:15:5 plugins[0].id warning: is no Capstan plugin: fine ` +
      'for the MTA, which loads its plugins from "/opt/service/plugins/", but "capstan serve" ' +
      'needs a built-in plugin or a "path"; built-in plugins are "bounce-classifier", ' +
      '"bounce-model", "ip-schedule", "schedule-store-file", "schedule-store-postgres", "ui"\n',
  );
});

test('config check prints warnings and exits 0 when only soft rules are broken', async () => {
  const run = await capstan('check', fixture('soft-rules.yaml'));
  assert.is(run.code, 0, run.stdout);
  const warned = run.stdout
    .trim()
    .split('\n')
    .map((line) => /^\S+ (\S+) warning: /.exec(line)?.[1]);
  assert.equal(warned, [
    'servers[1].listeners[0]',
    'servers[2]',
    'spool.rate',
    'resolver.ednsbuffersize',
    'environment.syslog.facility',
    'environment.syslog.mask',
    'cluster.tiemout',
  ]);
  assert.match(run.stderr, '1 file checked: 1 valid, 0 invalid (0 errors, 7 warnings)');
});

test('config check --strict counts warnings as errors and exits 1 when there are any', async () => {
  const run = await capstan('check', '--strict', fixture('soft-rules.yaml'));
  assert.is(run.code, 1);
  assert.not.match(run.stdout, 'warning:');
  assert.match(run.stdout, 'soft-rules.yaml:14:3 spool.rate is a rate of 0 messages');
  assert.match(run.stderr, '1 file checked: 0 valid, 1 invalid (7 errors)');
});

test('config check validates an !Env default as the value and says it comes from the environment', async () => {
  const ok = await capstan('check', fixture('env.yaml'));
  assert.is(ok.code, 0, ok.stdout);
  assert.match(
    ok.stdout,
    'env.yaml:1:15 version note: comes from the environment ("CAPSTAN_TEST_VERSION") at start: checked with the default in !Env "${CAPSTAN_TEST_VERSION:6.10}"',
  );
  assert.match(
    ok.stdout,
    'env.yaml:7:20 environment.licensekey warning: comes from the environment ("CAPSTAN_TEST_LICENSE") at start and !Env "${CAPSTAN_TEST_LICENSE}" has no default, so it is not checked',
  );
  const bad = await capstan('check', fixture('env-invalid.yaml'));
  assert.is(bad.code, 1);
  assert.match(
    bad.stdout,
    'env-invalid.yaml:5:9 servers[0].listeners[0].port must be at most 65535 (the value of !Env "${CAPSTAN_TEST_PORT:70000}")',
  );
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
  assert.match(run.stdout, 'check [--json] [--strict] FILE...');
});

test('serve takes an !Env value from the environment when the variable is set', async () => {
  const port = await freePort();
  const child = spawn(process.execPath, ['runtime/cli/capstan.js', 'serve', '--config', fixture('env-serve.yaml')], {
    cwd: root,
    env: { ...process.env, CAPSTAN_TEST_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr.on('data', (d) => (out += d));
  const url = await new Promise<string>((done, fail) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /^listening on (\S+)$/m.exec(out);
      if (m) done(m[1]);
    });
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}: ${out}`)));
  });
  const exited = new Promise((done) => child.once('exit', done));
  child.kill('SIGTERM');
  await exited;
  assert.is(url, `http://127.0.0.1:${port}`);
});

test('serve refuses to start when an !Env variable is unset and has no default', async () => {
  const run = await new Promise<Run>((resolve) => {
    const env = { ...process.env };
    delete env.CAPSTAN_TEST_LICENSE;
    execFile(
      process.execPath,
      ['runtime/cli/capstan.js', 'serve', '--config', fixture('env.yaml')],
      { cwd: root, env },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
  assert.is(run.code, 1);
  assert.match(
    run.stderr,
    'environment.licensekey needs the environment variable "CAPSTAN_TEST_LICENSE": it is not set and !Env "${CAPSTAN_TEST_LICENSE}" has no default',
  );
});

test.run();
