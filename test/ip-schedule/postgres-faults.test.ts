/**
 * The PostgreSQL store under the faults production brings: its connections terminated by the server (a failover,
 * a restart, idle_session_timeout) and a network partition (a paused TCP relay). Only this file's connections are
 * touched: each host's pool carries an application_name of its own.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { autoGrouping, startScheduleHost, utcDate, type ScheduleHost } from './_host.ts';
import { MtaClient } from './_mta-client.ts';
import { startTcpProxy } from './_tcp-proxy.ts';

const URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const target = new globalThis.URL(URL);
const schemas: string[] = [];
const running = (name: string) => autoGrouping(name, [utcDate(0), 100], [utcDate(9), 10_000]);

/** A host on `schema` whose connections are named `name` (the listening one `name-watch`) */
function start(
  schema: string,
  name: string,
  config: Record<string, unknown> = {},
  connectionString = URL,
): Promise<ScheduleHost> {
  return startScheduleHost({
    plugins: [
      { id: 'schedule-store-postgres', config: { connectionString, schema, applicationName: name, ...config } },
    ],
    config: { store: 'schedule-store-postgres' },
  });
}

/** Sends a request that fails the test if it has no answer within `ms` */
async function call(host: ScheduleHost, method: string, path: string, body: unknown, ms: number) {
  const started = performance.now();
  const response = await fetch(host.url + path, {
    method,
    signal: AbortSignal.timeout(ms),
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    json: JSON.parse(text),
    ms: performance.now() - started,
  };
}

async function until(ready: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ready())) {
    assert.ok(Date.now() < deadline, `${what} within ${ms} ms`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

test('two hosts on one schema survive the termination of every store connection and keep serving', async () => {
  const schema = `t_${randomUUID().replaceAll('-', '')}`;
  schemas.push(schema);
  const name = `capstan-t-${randomUUID().slice(0, 8)}`;
  const [a, b] = [await start(schema, `${name}-a`), await start(schema, `${name}-b`)];
  const client = new MtaClient(b.feed);
  const admin = new pg.Client(URL);
  await admin.connect();
  try {
    await client.start();
    // Several pooled connections per host, idle when they are cut: the case that ended the process
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).call('POST', `/config/192.0.2.${i + 1}`, { groupings: [] })),
    );
    const { rows } = await admin.query<{ application_name: string }>(
      'SELECT application_name FROM pg_stat_activity WHERE application_name LIKE $1 AND pg_terminate_backend(pid)',
      [`${name}-%`],
    );
    const cut = rows.map((r) => r.application_name);
    for (const part of [`${name}-a`, `${name}-b`, `${name}-a-watch`, `${name}-b-watch`])
      assert.ok(cut.includes(part), `${part} was cut: ${cut}`);
    // Written at once, on pools still holding the cut connections (each host had 4 in use) and while host b's listening
    // connection is away: every write succeeds, and b's feed catches up by re-reading
    const writes = await Promise.all([
      call(a, 'POST', '/config/192.0.2.50', { groupings: [running('&gmail')] }, 5000),
      ...Array.from({ length: 8 }, (_, i) =>
        call(i % 2 ? a : b, 'PUT', `/config/192.0.2.${i + 1}`, { groupings: [] }, 5000),
      ),
    ]);
    assert.equal(
      writes.map((w) => w.status),
      writes.map(() => 200),
      JSON.stringify(writes.map((w) => w.json)),
    );
    await client.until(
      () => client.policies.has('warmup:192.0.2.50:&gmail'),
      5000,
      'the feed of host b has the write of host a',
    );
    for (const [host, other] of [
      [a, b],
      [b, a],
    ] as const) {
      assert.is((await call(host, 'PUT', '/config/192.0.2.1', { groupings: [running('&x')] }, 5000)).status, 200);
      assert.is((await call(other, 'GET', '/config/192.0.2.1/%26x', undefined, 5000)).status, 200);
      assert.is((await call(host, 'DELETE', '/config/192.0.2.1/%26x', undefined, 5000)).status, 200);
      assert.is((await call(host, 'GET', '/readyz', undefined, 5000)).status, 200);
    }
    assert.equal(client.errors, []);
  } finally {
    await client.stop();
    await admin.end();
    await Promise.all([a.close(), b.close()]);
  }
});

test('a write that meets a connection the server terminated runs again on a new one', async () => {
  const schema = `t_${randomUUID().replaceAll('-', '')}`;
  schemas.push(schema);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const name = `capstan-t-${randomUUID().slice(0, 8)}`;
  const host = await start(schema, name, { poolSize: 2 }, proxy.via(URL));
  const admin = new pg.Client(URL);
  await admin.connect();
  try {
    await Promise.all(
      ['192.0.2.1', '192.0.2.2'].map((ip) => call(host, 'POST', `/config/${ip}`, { groupings: [] }, 5000)),
    );
    await new Promise((done) => setTimeout(done, 300));
    // The relay holds the server's goodbye, so the pool still takes its connections for live ones when the writes come
    proxy.pause();
    const { rowCount } = await admin.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
      [name],
    );
    assert.is(rowCount, 2, 'both pooled connections were cut');
    await new Promise((done) => setTimeout(done, 200));
    const writes = ['192.0.2.1', '192.0.2.2'].map((ip) =>
      call(host, 'PUT', `/config/${ip}`, { groupings: [running('&gmail')] }, 5000),
    );
    await new Promise((done) => setTimeout(done, 100));
    proxy.resume();
    const answers = await Promise.all(writes);
    assert.equal(
      answers.map((a) => a.status),
      [200, 200],
      JSON.stringify(answers.map((a) => a.json)),
    );
  } finally {
    proxy.resume();
    await admin.end();
    await host.close();
    await proxy.close();
  }
});

test('during a partition writes answer 503 with Retry-After within the timeouts, /readyz fails, and both recover', async () => {
  const schema = `t_${randomUUID().replaceAll('-', '')}`;
  schemas.push(schema);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  // Two connections and one waiting query at most: of four concurrent writes, the fourth is refused at once
  const timeouts = { connectTimeout: 1, queryTimeout: 1, statementTimeout: 1, poolSize: 2, maxWaiting: 1 };
  const host = await start(schema, `capstan-t-${randomUUID().slice(0, 8)}`, timeouts, proxy.via(URL));
  try {
    assert.is((await call(host, 'POST', '/config/192.0.2.1', { groupings: [running('&gmail')] }, 5000)).status, 200);
    // The feed reads the write back: once it has, the pool's connection is idle, and the partition finds it so
    await new Promise((done) => setTimeout(done, 300));
    proxy.pause();
    const answers = await Promise.all([
      call(host, 'PUT', '/config/192.0.2.1/%26gmail/pause', undefined, 5000),
      ...['192.0.2.2', '192.0.2.3', '192.0.2.4'].map((ip) =>
        call(host, 'POST', `/config/${ip}`, { groupings: [] }, 5000),
      ),
    ]);
    const first = answers[0]!;
    // The first runs on the idle connection and waits for its query's answer (1 s), never the partition's length
    assert.is(first.status, 503, JSON.stringify(first.json));
    assert.is(first.retryAfter, '5');
    assert.is(first.json.error, 'Schedule database cannot be reached: Query read timeout');
    assert.ok(first.ms < 2000, `answered in ${first.ms.toFixed(0)} ms, within the 1 s query timeout`);
    for (const answer of answers) {
      assert.is(answer.status, 503);
      assert.ok(answer.ms < 2500, `answered in ${answer.ms.toFixed(0)} ms, within the 1 s + 1 s timeouts`);
    }
    const refused = answers.find((r) => /queries waiting for a connection/.test(r.json.error));
    assert.ok(refused, `one write finds the queue full: ${JSON.stringify(answers.map((r) => r.json))}`);
    assert.is(refused.status, 503);
    assert.is(refused.retryAfter, '1');
    assert.ok(refused.ms < 500, `refused at once, in ${refused.ms.toFixed(0)} ms`);

    const ready = await call(host, 'GET', '/readyz', undefined, 3000);
    assert.is(ready.status, 503, 'not ready during the partition');
    assert.match(ready.json.failing[0].error, /^Database cannot be written: /);

    proxy.resume();
    await until(
      async () => (await call(host, 'GET', '/readyz', undefined, 3000)).status === 200,
      5000,
      'ready again after the partition',
    );
    assert.is((await call(host, 'PUT', '/config/192.0.2.1/%26gmail/pause', undefined, 5000)).status, 200);
    assert.is((await call(host, 'GET', '/config/192.0.2.1/%26gmail', undefined, 5000)).json.paused, true);
  } finally {
    proxy.resume();
    await host.close();
    await proxy.close();
  }
});

test.after(async () => {
  const client = new pg.Client(URL);
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

test.run();
