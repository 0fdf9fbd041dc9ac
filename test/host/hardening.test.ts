import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls, type ConnectionOptions } from 'node:tls';
import * as assert from 'uvu/assert';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost } from '../../runtime/mod.ts';
import { test } from '../_deadline.ts';
import { document, HELLO_PLUGIN, selfSigned, tempDir, writePlugin } from './_fixtures.ts';

const dir = tempDir();
// 16 MiB so that the nesting check, not the size limit, refuses the deep body
const hello = writePlugin(dir, 'hello', {
  'mod.ts': HELLO_PLUGIN.replace('return {\n      auth:', 'return {\n      bodyLimit: 16 * 1024 * 1024,\n      auth:'),
});
const KEY = 'sekret-key-1';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

async function withHost(
  options: { keys?: string[]; env?: Record<string, string> },
  run: (base: string, logs: string[]) => Promise<void>,
) {
  const logs: string[] = [];
  const log = createLogger({ service: 'test', level: 'debug', write: (line) => logs.push(line) });
  const host = await startHost(document([{ id: 'hello', path: hello, config: { keys: options.keys ?? [] } }]), {
    baseDir: dir,
    ephemeralPorts: true,
    log,
    env: options.env ?? {},
  });
  try {
    await run(host.urls[0]!, logs);
  } finally {
    await host.close();
  }
}

/** node:http, because fetch refuses methods such as TRACE */
function call(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res
        .on('data', (d) => (text += d))
        .on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', fail).end(body);
  });
}

function assertJsonError(answer: Answer, status: number, pattern: RegExp, what: string): void {
  assert.is(answer.status, status, what);
  assert.match(String(answer.headers['content-type']), /^application\/json/, what);
  const body = JSON.parse(answer.text);
  assert.equal(Object.keys(body), ['error'], what);
  assert.match(body.error, pattern, what);
}

/** Sends raw bytes and answers what the server writes before it closes the connection */
function raw(base: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(base);
  return new Promise((done, fail) => {
    const socket = connectTcp(Number(port), hostname, () => socket.write(bytes));
    let text = '';
    socket.setEncoding('utf8');
    socket
      .on('data', (d) => (text += d))
      .on('close', () => done(text))
      .on('error', fail);
  });
}

test('with keys configured every route asks for one, answering 401 with WWW-Authenticate, counted and logged without the key', async () => {
  await withHost({ keys: [KEY] }, async (base, logs) => {
    const requests: [string, string][] = [
      ['GET', '/openapi.json'],
      ['GET', '/nowhere'],
      ['PATCH', '/status'],
      ['TRACE', '/status'],
      ['PROPFIND', '/nowhere'],
      ['OPTIONS', '/status'],
      ['GET', '/status'],
      ['POST', '/config/192.0.2.1'],
    ];
    let refused = 0;
    for (const [method, path] of requests) {
      for (const headers of [{}, { 'x-api-key': 'wrong-key-value' }] as Record<string, string>[]) {
        const answer = await call(base, method, path, headers);
        assertJsonError(answer, 401, /API key.*"X-Api-Key"/, `${method} ${path}`);
        assert.is(answer.headers['www-authenticate'], 'ApiKey realm="capstan", header="X-Api-Key"');
        refused += 1;
      }
    }
    const lines = logs.filter((l) => l.includes('"request refused"')).map((l) => JSON.parse(l));
    assert.is(lines.length, refused);
    assert.equal(lines.at(-1), {
      ...lines.at(-1),
      level: 'warn',
      method: 'POST',
      path: '/config/192.0.2.1',
      reason: 'invalid',
      refused,
    });
    assert.not.ok(logs.join('').includes('wrong-key-value'));
    assert.is((await call(base, 'GET', '/openapi.json', { 'x-api-key': KEY })).status, 200);
  });
});

test('paths in CAPSTAN_AUTH_EXEMPT answer without a key, plugin routes, the OpenAPI document and unknown paths alike', async () => {
  await withHost({ keys: [KEY], env: { CAPSTAN_AUTH_EXEMPT: '/nowhere, /status, /openapi.json' } }, async (base) => {
    assertJsonError(await call(base, 'GET', '/nowhere'), 404, /No route for "GET \/nowhere"/, 'exempt unknown path');
    assert.is((await call(base, 'GET', '/status')).status, 200);
    assert.is((await call(base, 'GET', '/openapi.json')).status, 200);
    assert.is((await call(base, 'GET', '/status/192.0.2.1')).status, 401);
  });
  await startHost(document([]), {
    baseDir: dir,
    ephemeralPorts: true,
    env: { CAPSTAN_AUTH_EXEMPT: 'healthz' },
    log: createLogger({ service: 'test', write: () => {} }),
  }).then(
    () => assert.unreachable('a relative exempt path should stop start-up'),
    (error) => assert.match(error.message, /Invalid "CAPSTAN_AUTH_EXEMPT" path "healthz": paths start with "\/"/),
  );
});

test('an unknown CAPSTAN_LOG_LEVEL stops start-up naming the variable and the levels', async () => {
  await startHost(document([]), {
    baseDir: dir,
    ephemeralPorts: true,
    env: { CAPSTAN_LOG_LEVEL: 'WARN' },
  }).then(
    async (host) => {
      await host.close();
      assert.unreachable('an unknown log level should stop start-up');
    },
    (error) =>
      assert.is(error.message, 'Invalid "CAPSTAN_LOG_LEVEL" "WARN": expected "debug", "info", "warn", "error"'),
  );
});

test('what no route answers is JSON: 404 for an unknown path, 405 with Allow for any other method, OPTIONS 204', async () => {
  await withHost({ keys: [KEY] }, async (base) => {
    const key = { 'x-api-key': KEY };
    assertJsonError(await call(base, 'GET', '/nowhere', key), 404, /^No route for "GET \/nowhere"$/, '404');
    const patch = await call(base, 'PATCH', '/status', key);
    assertJsonError(patch, 405, /^Method "PATCH" is not allowed on "\/status"$/, '405');
    assert.is(patch.headers.allow, 'HEAD, GET, OPTIONS');
    // Methods no route of any API takes are the client's mistake too: 405, never a 5xx
    for (const method of ['TRACE', 'PROPFIND']) {
      const answer = await call(base, method, '/config/192.0.2.1', key);
      assertJsonError(
        answer,
        405,
        new RegExp(`^Method "${method}" is not allowed on "/config/192\\.0\\.2\\.1"$`),
        method,
      );
      assert.is(answer.headers.allow, 'HEAD, GET, PUT, POST, DELETE, OPTIONS');
    }
    const unknown = await call(base, 'PROPFIND', '/nowhere', key);
    assertJsonError(unknown, 404, /^No route for "PROPFIND \/nowhere"$/, 'PROPFIND on an unknown path');
    assert.is(unknown.headers.allow, undefined);
    const options = await call(base, 'OPTIONS', '/status', key);
    assert.is(options.status, 204);
    assert.is(options.headers.allow, 'HEAD, GET, OPTIONS');
  });
});

test('a body in another charset than UTF-8 and a deeply nested body are refused, the latter cheaply', async () => {
  await withHost({}, async (base) => {
    const utf16 = await call(
      base,
      'POST',
      '/config/192.0.2.1',
      { 'content-type': 'application/json; charset=utf-16' },
      '{"groupings": []}',
    );
    assertJsonError(utf16, 400, /^Unsupported charset "utf-16": send JSON in "utf-8"$/, 'utf-16');
    assert.is(
      (
        await call(
          base,
          'POST',
          '/config/192.0.2.1',
          { 'content-type': 'application/json; charset=UTF-8' },
          '{"groupings": []}',
        )
      ).status,
      200,
    );
    const depth = 4 * 1024 * 1024;
    const started = performance.now();
    const deep = await call(
      base,
      'POST',
      '/config/192.0.2.1',
      { 'content-type': 'application/json' },
      `{"groupings": ${'['.repeat(depth)}${']'.repeat(depth)}}`,
    );
    const ms = performance.now() - started;
    assertJsonError(deep, 400, /^Request body nests arrays and objects deeper than the limit of 64$/, 'deep');
    // JSON.parse alone takes seconds on this body
    assert.ok(ms < 1000, `refused in ${ms.toFixed(0)} ms`);
    const shallow = `{"groupings": [], "pad": "${'['.repeat(100)}\\"${'['.repeat(100)}"}`;
    assertJsonError(
      await call(base, 'POST', '/config/192.0.2.1', { 'content-type': 'application/json' }, shallow),
      400,
      /unknown property "pad"/,
      'brackets in a string',
    );
  });
});

test('a client abort mid-body is logged as an abort, not an error', async () => {
  await withHost({}, async (base, logs) => {
    const { hostname, port } = new URL(base);
    const socket: Socket = connectTcp(Number(port), hostname);
    socket.write(
      'POST /config/192.0.2.1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"groupings"',
    );
    await new Promise((r) => setTimeout(r, 200));
    socket.destroy();
    await new Promise((r) => setTimeout(r, 200));
    const lines = logs.map((l) => JSON.parse(l));
    assert.ok(
      lines.some((l) => l.msg === 'request aborted by client' && l.level === 'info' && l.path === '/config/192.0.2.1'),
      logs.join(''),
    );
    assert.not.ok(
      lines.some((l) => l.level === 'error' || l.level === 'warn'),
      logs.join(''),
    );
  });
});

test('slow headers and slow bodies get a JSON 408 within the configured timeouts', async () => {
  await withHost({ env: { CAPSTAN_HEADERS_TIMEOUT_MS: '300', CAPSTAN_REQUEST_TIMEOUT_MS: '600' } }, async (base) => {
    let started = performance.now();
    const headers = await raw(base, 'GET /status HTTP/1.1\r\nHost: x\r\n');
    assert.match(
      headers,
      /^HTTP\/1\.1 408 Request Timeout\r\n[^]*Content-Type: application\/json[^]*\r\n\r\n\{"error":"Request took too long: send the headers and body sooner"\}$/,
    );
    assert.ok(performance.now() - started < 2000);
    started = performance.now();
    const body = await raw(
      base,
      'POST /config/192.0.2.1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    assert.match(body, /^HTTP\/1\.1 408 [^]*\{"error":"Request took too long/);
    assert.ok(performance.now() - started < 2500);
  });
});

test('a malformed request gets a JSON 400', async () => {
  await withHost({}, async (base) => {
    assert.match(
      await raw(base, 'GET /status HTTP/1.1\r\nHost x\r\n\r\n'),
      /^HTTP\/1\.1 400 Bad Request\r\n[^]*\r\n\r\n\{"error":"Malformed HTTP request"\}$/,
    );
  });
});

test('connections beyond CAPSTAN_MAX_CONNECTIONS are closed and logged', async () => {
  await withHost({ env: { CAPSTAN_MAX_CONNECTIONS: '1' } }, async (base, logs) => {
    const { hostname, port } = new URL(base);
    const first = connectTcp(Number(port), hostname);
    await new Promise((r) => first.once('connect', r));
    await new Promise((r) => setTimeout(r, 50));
    const second = await raw(base, 'GET /status HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.is(second, '');
    assert.ok(logs.some((l) => l.includes('"connection refused: too many connections"')));
    first.destroy();
  });
});

test('connections that got their 408 are closed even when the client keeps them open, freeing their slots', async () => {
  const cap = 20;
  await withHost(
    {
      env: {
        CAPSTAN_MAX_CONNECTIONS: String(cap),
        CAPSTAN_HEADERS_TIMEOUT_MS: '200',
        CAPSTAN_REQUEST_TIMEOUT_MS: '200',
      },
    },
    async (base) => {
      const { hostname, port } = new URL(base);
      // An attacker's idle connections: half a request, then never a byte more and never a close of their own
      const idle = await Promise.all(
        Array.from(
          { length: cap },
          () =>
            new Promise<{ socket: Socket; answered: Promise<string> }>((done) => {
              const socket = connectTcp({ port: Number(port), host: hostname, allowHalfOpen: true }, () => {
                socket.write('GET /status HTTP/1.1\r\nHost: x\r\n');
                let text = '';
                socket.setEncoding('utf8');
                socket.on('error', () => {});
                done({
                  socket,
                  answered: new Promise<string>((got) =>
                    socket.on('data', (d) => (text += d)).on('end', () => got(text)),
                  ),
                });
              });
            }),
        ),
      );
      try {
        for (const { answered } of idle) assert.match(await answered, /^HTTP\/1\.1 408 /);
        // Within a short grace after the 408 the server lets go of them; until then a real client is refused ("socket
        // hang up"), and on a server that only half-closes them it is refused for as long as the attacker likes
        let status: number | Error = 0;
        for (const until = performance.now() + 5000; status !== 200 && performance.now() < until;) {
          status = await call(base, 'GET', '/status').then(
            (answer) => answer.status,
            (error: Error) => error,
          );
          if (status !== 200) await new Promise((r) => setTimeout(r, 100));
        }
        assert.is(status, 200);
      } finally {
        for (const { socket } of idle) socket.destroy();
      }
    },
  );
});

const { key, cert } = selfSigned(dir);
const ca = readFileSync(cert);

async function withTlsHost(env: Record<string, string>, run: (port: number) => Promise<void>) {
  const doc = document([{ id: 'hello', path: hello }], {
    servers: [{ id: 'secure', type: 'https', listeners: [{ address: '127.0.0.1', port: 8443 }] }],
    pki: { private: [{ id: 'secure', privatekey: { path: key }, certificate: { path: cert } }] },
  });
  const host = await startHost(doc, {
    baseDir: dir,
    ephemeralPorts: true,
    env,
    log: createLogger({ service: 'test', write: () => {} }),
  });
  try {
    await run(Number(new URL(host.urls[0]!).port));
  } finally {
    await host.close();
  }
}

/** The negotiated protocol and cipher, or the handshake error */
function handshake(
  port: number,
  options: ConnectionOptions,
): Promise<{ protocol: string | null; cipher: string } | Error> {
  return new Promise((done) => {
    const socket = connectTls({ host: '127.0.0.1', port, ca, ...options }, () => {
      done({ protocol: socket.getProtocol(), cipher: socket.getCipher().standardName });
      socket.end();
    });
    socket.on('error', done);
  });
}

test('https defaults to TLS 1.2+ with forward-secret AEAD suites only', async () => {
  await withTlsHost({}, async (port) => {
    assert.equal(await handshake(port, {}), { protocol: 'TLSv1.3', cipher: 'TLS_AES_128_GCM_SHA256' });
    const tls12 = await handshake(port, { maxVersion: 'TLSv1.2' });
    assert.equal(tls12, { protocol: 'TLSv1.2', cipher: 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256' });
    for (const ciphers of ['ECDHE-ECDSA-AES128-SHA', 'ECDHE-ECDSA-AES256-SHA384', 'ECDHE-ECDSA-AES128-SHA256']) {
      assert.instance(await handshake(port, { maxVersion: 'TLSv1.2', ciphers }), Error, ciphers);
    }
    assert.instance(
      await handshake(port, { minVersion: 'TLSv1', maxVersion: 'TLSv1.1', ciphers: 'DEFAULT@SECLEVEL=0' }),
      Error,
      'TLS 1.1',
    );
  });
});

test('CAPSTAN_TLS_MIN_VERSION and CAPSTAN_TLS_CIPHERS change what https accepts', async () => {
  await withTlsHost({ CAPSTAN_TLS_CIPHERS: 'ECDHE-ECDSA-AES128-SHA' }, async (port) => {
    assert.equal(await handshake(port, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-SHA' }), {
      protocol: 'TLSv1.2',
      cipher: 'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA',
    });
  });
  await withTlsHost({ CAPSTAN_TLS_MIN_VERSION: 'TLSv1.3' }, async (port) => {
    assert.instance(await handshake(port, { maxVersion: 'TLSv1.2' }), Error);
    assert.is(((await handshake(port, {})) as { protocol: string }).protocol, 'TLSv1.3');
  });
});

test.run();
