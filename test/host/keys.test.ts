/**
 * Keys by default (docs/operations.md, "API keys"): with `API_KEY` set or any plugin's keys, every route of every
 * plugin, the feed and `/metrics` need a key; how keys combine across plugins; who made a request (`principal`); the
 * start-up warning for routes open to anyone on a non-loopback address.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { routes } from '../../generated/routes.ts';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost, type Host } from '../../runtime/mod.ts';
import { rejects } from '../rejects.ts';
import { document, tempDir, writePlugin } from './_fixtures.ts';

const RULES = join(import.meta.dirname, '../../docs/examples/rules-classifier/mod.ts');
const HOST_KEY = 'host-key-0123';
const dir = tempDir();

/** A plugin answering who called: `getStatusAll` puts the principal in a header, the feed sends it as its one message */
const whoami = writePlugin(dir, 'whoami', {
  'mod.ts': `
import { definePlugin, Type } from '@capstan';
export default definePlugin({
  id: 'whoami',
  kind: 'api',
  api: 'ip-schedule',
  apiVersion: '^1.4.0',
  config: Type.Object({ keys: Type.Array(Type.Any(), { default: [] }) }),
  setup: (ctx) => ({
    auth: { header: 'X-Api-Key', keys: ctx.config.keys, query: 'api_key' },
    handlers: { getStatusAll: (request) => ({ body: { ips: {} }, headers: { 'x-principal': request.principal ?? '(none)' } }) },
    sockets: { policyFeed: (socket, request) => socket.send(request.principal ?? '(none)') },
  }),
});
`,
});

async function withHost(
  plugins: unknown[],
  env: Record<string, string>,
  run: (base: string, logs: string[]) => Promise<void>,
  listener = '127.0.0.1',
): Promise<void> {
  const logs: string[] = [];
  const doc = document(plugins);
  (doc.servers as { listeners: { address: string }[] }[])[0]!.listeners[0]!.address = listener;
  const host: Host = await startHost(doc, {
    baseDir: tempDir(),
    ephemeralPorts: true,
    env,
    log: createLogger({ service: 'test', level: 'info', write: (line) => logs.push(line) }),
  });
  try {
    await run(host.urls[0]!.replace('0.0.0.0', '127.0.0.1'), logs);
  } finally {
    await host.close();
  }
}

const fingerprint = (key: string) => `key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;

function call(base: string, method: string, path: string, key?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (key !== undefined) headers['x-api-key'] = key;
  return fetch(base + path, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : '{}' });
}

/** Opens a WebSocket; answers the first message, or the status an refused upgrade answered */
function openSocket(url: string, headers: Record<string, string> = {}): Promise<{ status: number; message?: string }> {
  return new Promise((done, fail) => {
    const ws = new WebSocket(url, { headers });
    ws.once('message', (data) => {
      ws.terminate();
      done({ status: 101, message: String(data) });
    });
    ws.once('unexpected-response', (_request, response) => {
      done({ status: response.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('error', fail);
  });
}

const concrete = (path: string) => path.replace(':ip', '192.0.2.1').replace(':grouping', '%26a');

test('with API_KEY set, every route of every plugin and /metrics answer 401 JSON with WWW-Authenticate without it; health checks and pages stay open', async () => {
  const plugins = [
    { id: 'rules', path: RULES },
    { id: 'bounce-classifier', config: { classifier: 'rules', cache: { enabled: false } } },
    { id: 'ip-schedule' },
    { id: 'ui' },
  ];
  await withHost(plugins, { API_KEY: HOST_KEY }, async (base) => {
    const guarded = routes.filter((r) => r.api !== 'host' || r.path === '/metrics');
    assert.ok(
      guarded.some((r) => r.path === '/v1/backoff/events') && guarded.some((r) => r.path === '/v2/bnac'),
      'both APIs are walked',
    );
    for (const route of [...guarded, { method: 'GET', path: '/openapi.json' }]) {
      const what = `${route.method} ${route.path}`;
      for (const key of [undefined, 'wrong-key']) {
        const refused = await call(base, route.method, concrete(route.path), key);
        assert.is(refused.status, 401, what);
        assert.match(
          refused.headers.get('www-authenticate') ?? '',
          /^ApiKey realm="capstan", header="x-api-key"/,
          what,
        );
        assert.match((await refused.json()).error, key ? /^Invalid API key/ : /^Missing API key/, what);
      }
      const accepted = await call(base, route.method, concrete(route.path), HOST_KEY);
      await accepted.arrayBuffer();
      assert.not.equal(accepted.status, 401, what);
    }
    for (const path of ['/healthz', '/readyz', '/ui/', '/ui/warmup.html'])
      assert.is((await fetch(base + path)).status, 200, path);
  });
});

test('with API_KEY set, the feed upgrade needs the key, in the header or in the api_key query parameter', async () => {
  await withHost([{ id: 'ip-schedule' }], { API_KEY: HOST_KEY }, async (base) => {
    const feed = `${base.replace(/^http/, 'ws')}/v1/policies/feed`;
    assert.is((await openSocket(feed)).status, 401);
    assert.is((await openSocket(`${feed}?api_key=wrong`)).status, 401);
    assert.is((await openSocket(feed, { 'x-api-key': HOST_KEY })).status, 101);
    assert.is((await openSocket(`${feed}?api_key=${HOST_KEY}`)).status, 101);
  });
});

test("keys combine: API_KEY opens everything, a plugin's own keys its routes and the host's, not another keyed plugin's", async () => {
  const plugins = [
    { id: 'rules', path: RULES },
    { id: 'bounce-classifier', config: { classifier: 'rules', apiKey: 'bc-key', cache: { enabled: false } } },
    { id: 'ip-schedule', config: { authentication: { apikeys: ['plain-key', { name: 'ops', key: 'ops-key' }] } } },
  ];
  await withHost(plugins, { API_KEY: HOST_KEY }, async (base) => {
    const verdicts = async (key: string) => ({
      schedule: (await call(base, 'GET', '/status', key)).status,
      classifier: (await call(base, 'GET', '/v1/cache/info', key)).status,
      metrics: (await call(base, 'GET', '/metrics', key)).status,
    });
    assert.equal(await verdicts(HOST_KEY), { schedule: 200, classifier: 200, metrics: 200 });
    assert.equal(await verdicts('ops-key'), { schedule: 200, classifier: 401, metrics: 200 });
    assert.equal(await verdicts('plain-key'), { schedule: 200, classifier: 401, metrics: 200 });
    assert.equal(await verdicts('bc-key'), { schedule: 401, classifier: 200, metrics: 200 });
  });
  // Keys of one plugin alone put the others' routes behind them too
  await withHost(plugins.slice(0, 2), {}, async (base) => {
    assert.is((await call(base, 'GET', '/v1/cache/info')).status, 401);
    assert.is((await call(base, 'GET', '/metrics')).status, 401);
    assert.is((await call(base, 'GET', '/metrics', 'bc-key')).status, 200);
  });
  await withHost(
    [plugins[0], { ...plugins[1], config: { classifier: 'rules', cache: { enabled: false } } }, plugins[2]],
    {},
    async (base) => {
      assert.is((await call(base, 'POST', '/normalise', undefined)).status, 401);
      assert.is((await call(base, 'GET', '/v1/cache/info', 'ops-key')).status, 200);
    },
  );
});

test("principal: the key's name, else its fingerprint; absent on open and exempt paths; no key is logged", async () => {
  const keys = ['plain-key', { name: 'ops', key: 'ops-key' }];
  const principal = async (base: string, key?: string) =>
    (await call(base, 'GET', '/status', key)).headers.get('x-principal');
  await withHost([{ id: 'whoami', path: whoami, config: { keys } }], { API_KEY: HOST_KEY }, async (base, logs) => {
    assert.is(await principal(base, 'ops-key'), 'ops');
    assert.is(await principal(base, 'plain-key'), fingerprint('plain-key'));
    assert.is(await principal(base, HOST_KEY), fingerprint(HOST_KEY));
    const feed = `${base.replace(/^http/, 'ws')}/v1/policies/feed`;
    assert.is((await openSocket(`${feed}?api_key=ops-key`)).message, 'ops');
    assert.is((await openSocket(feed, { 'x-api-key': 'plain-key' })).message, fingerprint('plain-key'));
    assert.is((await call(base, 'GET', '/status', 'wrong-key')).status, 401);
    for (const secret of ['plain-key', 'ops-key', HOST_KEY, 'wrong-key'])
      assert.not.ok(logs.join('').includes(secret), secret);
  });
  await withHost(
    [{ id: 'whoami', path: whoami, config: { keys } }],
    { CAPSTAN_AUTH_EXEMPT: '/status' },
    async (base) => {
      assert.is(await principal(base, 'ops-key'), '(none)');
    },
  );
  await withHost([{ id: 'whoami', path: whoami }], {}, async (base) => {
    assert.is(await principal(base), '(none)');
  });
});

test('a plugin whose auth holds a malformed key stops start-up, naming the plugin', async () => {
  await rejects(
    () => withHost([{ id: 'whoami', path: whoami, config: { keys: [{ name: 'ops' }] } }], {}, async () => {}),
    /^Plugin "whoami" returned an invalid "auth": "keys\[0\]" is neither/,
    'starting the host',
  );
});

const warnings = (logs: string[]) =>
  logs
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.level === 'warn' && entry.msg.startsWith('open to anyone'));

test('a non-loopback listener with routes open to anyone logs a warning naming them; loopback or keys keep it quiet', async () => {
  await withHost(
    [{ id: 'ip-schedule' }],
    {},
    async (_base, logs) => {
      const [warning, ...more] = warnings(logs);
      assert.is(more.length, 0);
      assert.match(
        warning?.msg ?? '',
        /^open to anyone on http:\/\/0\.0\.0\.0:\d+: every route of API "ip-schedule" \(plugin "ip-schedule"\), \/metrics, \/openapi\.json; put them behind a key \(API_KEY\)/,
      );
    },
    '0.0.0.0',
  );
  await withHost([{ id: 'ip-schedule' }], {}, async (_base, logs) => assert.is(warnings(logs).length, 0), '127.0.0.1');
  await withHost(
    [{ id: 'ip-schedule' }],
    { API_KEY: HOST_KEY },
    async (_base, logs) => assert.is(warnings(logs).length, 0),
    '0.0.0.0',
  );
  await withHost(
    [{ id: 'ip-schedule' }],
    { API_KEY: HOST_KEY, CAPSTAN_AUTH_EXEMPT: '/healthz,/readyz,/metrics' },
    async (_base, logs) => {
      assert.equal(
        warnings(logs).map((w) => w.open),
        [['/metrics (CAPSTAN_AUTH_EXEMPT)']],
      );
    },
    '0.0.0.0',
  );
});

test.run();
