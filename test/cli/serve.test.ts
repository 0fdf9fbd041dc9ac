import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'node:https';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CLI, freePort, selfSigned, tempDir, writePlugin } from '../host/_fixtures.ts';

/** Starts `capstan serve` (with `args`) and resolves with the URL it prints */
async function serve(
  env: Record<string, string>,
  cwd: string,
  args: string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((done, fail) => {
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /^listening on (\S+)$/m.exec(out);
      if (m) done(m[1]);
    });
    child.once('exit', (code) => fail(new Error(`serve exited with ${code}: ${out}`)));
  });
  return { child, url };
}

async function stop(child: ChildProcess): Promise<number | null> {
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  child.kill('SIGTERM');
  return exited;
}

test('serve without --config serves both built-in APIs on the embedded default document', async () => {
  const cwd = tempDir();
  const port = await freePort();
  const { child, url } = await serve({ SERVICE_PORT: String(port) }, cwd);
  try {
    assert.is(url, `http://127.0.0.1:${port}`);
    const doc = await (await fetch(`${url}/openapi.json`)).json();
    for (const path of ['/v1/bnac/single', '/v2/bnac', '/v1/backoff', '/normalise', '/config/{ip}', '/status'])
      assert.ok(doc.paths[path], path);
    const res = await fetch(`${url}/v1/bnac/single`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: '451 4.7.1 Greylisting in effect, please try again later' }),
    });
    assert.equal(await res.json(), { class: 'GRAYLISTING' });
    const status = await fetch(`${url}/status`);
    assert.is(status.status, 200);
  } finally {
    assert.is(await stop(child), 0);
  }
});

test("the default document keeps an operator's corrections in the audit trail GET /v1/audit answers", async () => {
  const cwd = tempDir();
  const port = await freePort();
  const { child, url } = await serve({ SERVICE_PORT: String(port) }, cwd);
  try {
    const created = await fetch(`${url}/v1/corrections`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: '550 5.7.1 Access denied', backoff: 'RECIPIENT_ERROR' }),
    });
    assert.is(created.status, 201);
    const { id } = await created.json();
    const { entries } = await (await fetch(`${url}/v1/audit?action=correction.create`)).json();
    assert.equal(
      entries.map((e: { action: string; subject: unknown }) => [e.action, e.subject]),
      [['correction.create', { correction: id }]],
    );
  } finally {
    assert.is(await stop(child), 0);
  }
});

test('serve turns the default server into https from SERVICE_TLS_CERT and SERVICE_TLS_KEY', async () => {
  const cwd = tempDir();
  const { key, cert } = selfSigned(cwd);
  const port = await freePort();
  const { child, url } = await serve({ SERVICE_PORT: String(port), SERVICE_TLS_CERT: cert, SERVICE_TLS_KEY: key }, cwd);
  try {
    assert.is(url, `https://127.0.0.1:${port}`);
    const agent = new Agent({ ca: readFileSync(cert) });
    const body = await new Promise<string>((done, fail) => {
      request(`${url}/v1/cache/info`, { agent }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d)).on('end', () => done(text));
      })
        .on('error', fail)
        .end();
    });
    assert.type(JSON.parse(body).cache_enabled, 'boolean');
  } finally {
    await stop(child);
  }
});

test('serve refuses a SERVICE_PORT that is not a port, naming the variable', () => {
  for (const value of ['abc', '70000']) {
    const run = spawnSync(process.execPath, [CLI, 'serve'], {
      cwd: tempDir(),
      env: { ...process.env, SERVICE_PORT: value },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.is(run.status, 1, `${run.stdout}${run.stderr}`);
    assert.match(run.stderr, `Invalid "SERVICE_PORT" "${value}": expected a port from 0 to 65535`);
  }
});

test('serve refuses with exit 1 naming the document when it has no http or https server', () => {
  const cwd = tempDir();
  const file = join(cwd, 'smtpd.yaml');
  writeFileSync(file, 'version: "6.10"\nservers:\n  - id: inbound\n    listeners: [{ port: 25 }]\n');
  const run = spawnSync(process.execPath, [CLI, 'serve', '--config', file], { cwd, encoding: 'utf8', timeout: 30_000 });
  assert.is(run.status, 1, `${run.stdout}${run.stderr}`);
  assert.ok(
    run.stderr.includes(`Nothing to serve: "${file}" has no listener of an http or https server`),
    `${run.stdout}${run.stderr}`,
  );
});

test('serve refuses a store folder that cannot be made, and starts with the cache in memory, rather than hang', async () => {
  // The kernel refuses a new entry in /proc with ENOENT: Node's recursive mkdir then loops forever
  const cwd = tempDir();
  const file = join(cwd, 'capstan.yaml');
  const port = await freePort();
  const document = (plugins: string) =>
    `version: "6.10"\nservers:\n  - id: api\n    type: http\n    listeners: [{ address: 127.0.0.1, port: ${port} }]\n` +
    `plugins:\n${plugins}`;
  writeFileSync(
    file,
    document('  - id: schedule-store-file\n    config: { path: /proc/capstan-none/schedules.json }\n'),
  );
  const run = spawnSync(process.execPath, [CLI, 'serve', '--config', file], { cwd, encoding: 'utf8', timeout: 30_000 });
  assert.is(run.status, 1, `${run.stdout}${run.stderr}`);
  assert.match(run.stderr, /Cannot start plugin "schedule-store-file": ENOENT: .*mkdir '\/proc\/capstan-none'/);
  writeFileSync(file, document('  - id: bounce-classifier\n    config: { cache: { folder: /proc/capstan-none } }\n'));
  const { child, url } = await serve({}, cwd, ['--config', file]);
  try {
    const answer = await fetch(`${url}/v2/bnac/single`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message: '550 5.1.1 User unknown' }),
    });
    assert.is(answer.status, 200);
  } finally {
    await stop(child);
  }
});

test('serve runs the pool worker of a TypeScript plugin whose package is typed "commonjs"', async () => {
  const cwd = tempDir();
  // `npm init -y` writes this: Node then loads the plugin's .ts files as CommonJS, in the pool's worker threads too
  writeFileSync(join(cwd, 'package.json'), JSON.stringify({ name: 'plugin-author', type: 'commonjs' }));
  writePlugin(cwd, 'pooled', {
    'worker.ts': 'export default async function (payload: { n: number }) {\n  return { value: payload.n * 3 };\n}\n',
    'mod.ts': `import { definePlugin, Type } from '@capstan';
export default definePlugin({
  id: 'pooled',
  kind: 'api',
  api: 'ip-schedule',
  apiVersion: '^1.2.0',
  config: Type.Object({}),
  capabilities: { pool: { worker: new URL('./worker.ts', import.meta.url).href } },
  setup: (ctx) => ({ handlers: { getStatus: async ({ params }) => ({ body: await ctx.pool!.run({ n: Number(params.ip) }) }) } }),
});
`,
  });
  const port = await freePort();
  const listener = `[{ address: 127.0.0.1, port: ${port} }]`;
  writeFileSync(
    join(cwd, 'capstan.yaml'),
    `version: "6.10"\nservers:\n  - id: api\n    type: http\n    listeners: ${listener}\nplugins:\n  - id: pooled\n    path: ./pooled\n`,
  );
  const { child, url } = await serve({}, cwd, ['--config', 'capstan.yaml']);
  try {
    const res = await fetch(`${url}/status/14`);
    assert.equal(await res.json(), { value: 42 });
  } finally {
    assert.is(await stop(child), 0);
  }
});

test('capstan prints help, its version, and rejects an unknown command with exit 2', () => {
  const help = spawnSync(process.execPath, [CLI, '--help'], { encoding: 'utf8' });
  assert.is(help.status, 0);
  assert.match(help.stdout, /capstan serve \[--config FILE\]|serve \[--config FILE\]/);
  const version = spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' });
  assert.match(version.stdout, /^capstan \d+\.\d+\.\d+/);
  const unknown = spawnSync(process.execPath, [CLI, 'frobnicate'], { encoding: 'utf8' });
  assert.is(unknown.status, 2);
  assert.match(unknown.stderr, /unknown command "frobnicate"/);
});

test.run();
