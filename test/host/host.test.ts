import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost } from '../../runtime/mod.ts';
import { document, HELLO_PLUGIN, selfSigned, tempDir, writePlugin } from './_fixtures.ts';

const dir = tempDir();
const hello = writePlugin(dir, 'hello', { 'mod.ts': HELLO_PLUGIN });
const log = createLogger({ service: 'test', write: () => {} });

async function withHost(doc: object, run: (base: string) => Promise<void>) {
  const host = await startHost(doc, { baseDir: dir, ephemeralPorts: true, log });
  try {
    await run(host.urls[0]);
  } finally {
    await host.close();
  }
}

test('host serves a custom TypeScript plugin from another folder', async () => {
  await withHost(document([{ id: 'hello', path: hello, config: { greeting: 'hey' } }]), async (base) => {
    const res = await fetch(`${base}/status`);
    assert.is(res.status, 200);
    assert.equal(await res.json(), { ips: {}, greeting: 'hey' });
  });
});

test('host answers 501 with a JSON error when an operation has no handler', async () => {
  await withHost(document([{ id: 'hello', path: hello }]), async (base) => {
    const res = await fetch(`${base}/config`);
    assert.is(res.status, 501);
    assert.match((await res.json()).error, /Operation "getConfigAll" is not implemented/);
  });
});

test('host decodes %26 and %2E in path parameters', async () => {
  await withHost(document([{ id: 'hello', path: hello }]), async (base) => {
    const res = await fetch(`${base}/status/192%2E0%2E2%2E1/%26gmail`);
    assert.equal(await res.json(), { ip: '192.0.2.1', grouping: '&gmail' });
  });
});

test('host validates bodies and answers 400 naming the field and rule', async () => {
  await withHost(document([{ id: 'hello', path: hello }]), async (base) => {
    const post = (body: string, type = 'application/json') =>
      fetch(`${base}/config/192.0.2.1`, { method: 'POST', headers: { 'content-type': type }, body });
    let res = await post('{"groupings": 5}');
    assert.is(res.status, 400);
    assert.match((await res.json()).error, /^body\.groupings must be array/);
    res = await post('{"groupings": [');
    assert.is(res.status, 400);
    assert.match((await res.json()).error, /Malformed JSON/);
    res = await post('groupings=1', 'application/x-www-form-urlencoded');
    assert.is(res.status, 400);
    assert.match((await res.json()).error, /Unsupported content type/);
    res = await fetch(`${base}/config/192.0.2.1`, { method: 'POST' });
    assert.is(res.status, 400);
    assert.match((await res.json()).error, /Request body is required/);
    res = await post(JSON.stringify({ groupings: [], pad: 'x'.repeat(2 * 1024 * 1024) }));
    assert.is(res.status, 413);
    res = await post('{"groupings": []}');
    assert.is(res.status, 200);
    assert.equal(await res.json(), { status: 'success' });
  });
});

test('host answers a handler error with its status and message', async () => {
  await withHost(document([{ id: 'hello', path: hello }]), async (base) => {
    const groupings = [1, 2, 3].map((i) => ({
      grouping: `&g${i}`,
      mode: 'MANUAL',
      start: { date: '2026-01-01' },
      schedule: [{ day: 1, messages: 1 }],
    }));
    const res = await fetch(`${base}/config/192.0.2.1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ groupings }),
    });
    assert.is(res.status, 400);
    assert.equal(await res.json(), { error: 'Too many groupings' });
  });
});

test('host answers 401 without the plugin API key, 404 for an unknown path and 405 for a wrong method', async () => {
  await withHost(document([{ id: 'hello', path: hello, config: { keys: ['k1', 'k2'] } }]), async (base) => {
    assert.is((await fetch(`${base}/status`)).status, 401);
    assert.is((await fetch(`${base}/status`, { headers: { 'x-api-key': 'nope' } })).status, 401);
    const headers = { 'x-api-key': 'k2' };
    assert.is((await fetch(`${base}/status`, { headers })).status, 200);
    const res = await fetch(`${base}/nowhere`, { headers });
    assert.is(res.status, 404);
    assert.equal(await res.json(), { error: 'No route for "GET /nowhere"' });
    const patch = await fetch(`${base}/status`, { method: 'PATCH', headers });
    assert.is(patch.status, 405);
    assert.match(patch.headers.get('allow') ?? '', /GET/);
    assert.equal(await patch.json(), { error: 'Method "PATCH" is not allowed on "/status"' });
  });
});

test('host serves the merged OpenAPI document of the mounted APIs', async () => {
  await withHost(document([{ id: 'hello', path: hello }]), async (base) => {
    const doc = await (await fetch(`${base}/openapi.json`)).json();
    assert.is(doc.openapi, '3.1.0');
    assert.ok(doc.paths['/status/{ip}/{grouping}']);
    assert.not.ok(doc.paths['/v2/bnac/single']);
  });
});

test('host mounts a plugin only on the servers its config file lists', async () => {
  writeFileSync(join(dir, 'hello.yaml'), 'servers: [second]\ngreeting: from a file\n');
  const doc = document([{ id: 'hello', path: hello, config: 'hello.yaml' }]);
  (doc.servers as object[]).push({ id: 'second', type: 'http', listeners: [{ address: '127.0.0.1', port: 8081 }] });
  const host = await startHost(doc, { baseDir: dir, ephemeralPorts: true, log });
  try {
    assert.is((await fetch(`${host.urls[0]}/status`)).status, 404);
    assert.equal(await (await fetch(`${host.urls[1]}/status`)).json(), { ips: {}, greeting: 'from a file' });
  } finally {
    await host.close();
  }
});

test('host listens on a Unix socket', async () => {
  const path = join(dir, 'capstan.sock');
  const doc = document([{ id: 'hello', path: hello }], {
    servers: [{ id: 'api', type: 'http', listeners: [{ path, chmod: '0660' }] }],
  });
  const host = await startHost(doc, { baseDir: dir, log });
  try {
    assert.equal(host.urls, [`http+unix:${path}`]);
    const body = await new Promise<string>((done, fail) => {
      request({ socketPath: path, path: '/status' }, (res) => {
        let text = '';
        res.on('data', (d) => (text += d)).on('end', () => done(text));
      })
        .on('error', fail)
        .end();
    });
    assert.equal(JSON.parse(body), { ips: {}, greeting: 'hi' });
  } finally {
    await host.close();
  }
});

test('host serves https with the pki key of the server', async () => {
  const { key, cert } = selfSigned(dir);
  const doc = document([{ id: 'hello', path: hello }], {
    servers: [{ id: 'secure', type: 'https', listeners: [{ address: '127.0.0.1', port: 8443 }] }],
    pki: { private: [{ id: 'secure', privatekey: { path: key }, certificate: { path: cert } }] },
  });
  const host = await startHost(doc, { baseDir: dir, ephemeralPorts: true, log });
  try {
    assert.match(host.urls[0], /^https:\/\/127\.0\.0\.1:\d+$/);
    const { Agent, request: httpsRequest } = await import('node:https');
    const { readFileSync } = await import('node:fs');
    const agent = new Agent({ ca: readFileSync(cert) });
    const status = await new Promise<number>((done, fail) => {
      httpsRequest(`${host.urls[0]}/status`, { agent }, (res) => {
        res.resume();
        done(res.statusCode ?? 0);
      })
        .on('error', fail)
        .end();
    });
    assert.is(status, 200);
  } finally {
    await host.close();
  }
});

test('host finishes an in-flight request on shutdown, then refuses connections', async () => {
  const host = await startHost(document([{ id: 'hello', path: hello, config: { delayMs: 400 } }]), {
    baseDir: dir,
    ephemeralPorts: true,
    log,
  });
  const base = host.urls[0];
  const pending = fetch(`${base}/status`);
  await new Promise((r) => setTimeout(r, 100));
  const closing = host.close();
  const res = await pending;
  assert.is(res.status, 200);
  assert.equal(await res.json(), { ips: {}, greeting: 'hi' });
  await closing;
  await fetch(`${base}/status`).then(
    () => assert.unreachable('connection should be refused'),
    (error) => assert.instance(error, TypeError),
  );
});

test('host answers 500 when a response does not match the spec and responses are checked', async () => {
  const host = await startHost(document([{ id: 'hello', path: hello }]), {
    baseDir: dir,
    ephemeralPorts: true,
    log,
    checkResponses: true,
  });
  try {
    const res = await fetch(`${host.urls[0]}/status/192.0.2.1`);
    assert.is(res.status, 500);
    assert.equal(await res.json(), { error: 'Internal Server Error' });
  } finally {
    await host.close();
  }
});

test.run();
