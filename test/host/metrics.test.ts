/**
 * `GET /metrics` after traffic to both APIs, read back by a Prometheus text-format parser: every family the docs list
 * is there with the values the traffic implies. (The parser merges the label sets of a labelled histogram, so
 * histograms are checked by type and request counts by the counter.)
 */
import { once } from 'node:events';
import parse, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { BACKOFF_TABLE } from '../../generated/data/bounce-classifier.ts';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost } from '../../runtime/mod.ts';
import { rejects } from '../rejects.ts';
import { document, tempDir, writePlugin } from './_fixtures.ts';

const dir = tempDir();
const quiet = createLogger({ service: 'test', write: () => {} });

function family(families: PrometheusFamily[], name: string): PrometheusFamily {
  const found = families.find((f) => f.name === name);
  if (!found) assert.unreachable(`family "${name}" is missing`);
  return found!;
}

function value(families: PrometheusFamily[], name: string, labels: Record<string, string>): number | undefined {
  const sample = family(families, name).metrics.find((m) =>
    Object.entries(labels).every(([k, v]) => m.labels?.[k] === v),
  );
  return sample === undefined ? undefined : Number(sample.value);
}

const post = (base: string, path: string, body: unknown) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

test('every documented family is present after traffic, with the counts the traffic implies', async () => {
  const host = await startHost(
    document([{ id: 'bounce-classifier', config: { cache: { folder: `${dir}/cache` } } }, { id: 'ip-schedule' }]),
    { baseDir: dir, ephemeralPorts: true, log: quiet, env: {} },
  );
  try {
    const base = host.urls[0]!;
    const grey = '451 4.7.1 Greylisting in effect, please come back later';
    for (let i = 0; i < 3; i++) assert.is((await post(base, '/v2/bnac/single', { message: grey })).status, 200);
    assert.is((await post(base, '/v2/bnac/single', { nope: 1 })).status, 400);
    // More than the model's inline maximum, so that the batch runs in the worker pool
    const batch = ['550 5.1.1 User unknown', '552 5.2.2 Mailbox full', '421 4.7.0 Try again later', grey];
    assert.is((await post(base, '/v1/backoff', { messages: batch })).status, 200);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const auto = {
      grouping: '&warm',
      mode: 'AUTO',
      start: { date: day(-5), volume: 10 },
      end: { date: day(20), volume: 1000 },
    };
    assert.is((await post(base, '/config/192.0.2.1', { groupings: [auto] })).status, 200);
    assert.is((await post(base, '/config/192.0.2.2', { groupings: [{ ...auto, paused: true }] })).status, 200);
    assert.is((await post(base, '/config/192.0.2.2', { groupings: [auto] })).status, 400, 'an IP that exists');
    assert.is((await fetch(`${base}/no/such/path`)).status, 404);
    assert.is((await fetch(`${base}/v2/bnac/single`, { method: 'DELETE' })).status, 405);

    const answer = await fetch(`${base}/metrics`);
    assert.is(answer.status, 200);
    assert.match(answer.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
    const families = parse(await answer.text());

    assert.is(
      value(families, 'capstan_http_requests_total', {
        api: 'bounce-classifier',
        operation: 'classifyBnacSingleV2',
        status: '200',
      }),
      3,
    );
    assert.is(
      value(families, 'capstan_http_requests_total', {
        api: 'bounce-classifier',
        operation: 'classifyBnacSingleV2',
        status: '400',
      }),
      1,
    );
    assert.is(
      value(families, 'capstan_http_requests_total', { api: 'ip-schedule', operation: 'createConfig', status: '400' }),
      1,
    );
    assert.is(value(families, 'capstan_http_requests_total', { api: 'none', operation: 'unrouted', status: '404' }), 1);
    assert.is(value(families, 'capstan_http_requests_total', { api: 'none', operation: 'unrouted', status: '405' }), 1);
    assert.is(family(families, 'capstan_http_request_duration_seconds').type, 'HISTOGRAM');

    assert.is(
      value(families, 'capstan_classifications_total', {
        plugin: 'bounce-classifier',
        model: 'bnac',
        class: 'GRAYLISTING',
      }),
      3,
    );
    const backoff = family(families, 'capstan_classifications_total').metrics.filter(
      (m) => m.labels?.model === 'backoff',
    );
    assert.is(
      backoff.reduce((n, m) => n + Number(m.value), 0),
      4,
    );
    assert.is(value(families, 'capstan_cache_misses_total', { plugin: 'bounce-classifier', model: 'bnac' }), 1);
    assert.is(value(families, 'capstan_cache_hits_total', { plugin: 'bounce-classifier', model: 'bnac' }), 2);
    assert.is(value(families, 'capstan_cache_entries', { plugin: 'bounce-classifier' }), 5);
    assert.ok(value(families, 'capstan_cache_bytes', { plugin: 'bounce-classifier' })! > 0);

    assert.is(value(families, 'capstan_pool_threads', { pool: 'shared' })! >= 1, true);
    assert.is(value(families, 'capstan_pool_queue_length', { pool: 'shared' }), 0);
    assert.is(value(families, 'capstan_pool_busy_workers', { pool: 'shared' }), 0);

    assert.is(
      value(families, 'capstan_store_operations_total', {
        plugin: 'schedule-store-file',
        operation: 'put',
        outcome: 'ok',
      }),
      2,
    );
    assert.is(
      value(families, 'capstan_store_operations_total', {
        plugin: 'schedule-store-file',
        operation: 'put',
        outcome: 'conflict',
      }),
      1,
    );
    assert.is(value(families, 'capstan_schedules', { plugin: 'ip-schedule', status: 'ONSCHEDULE' }), 1);
    assert.is(value(families, 'capstan_schedules', { plugin: 'ip-schedule', status: 'PAUSED' }), 1);
    assert.is(value(families, 'capstan_schedules', { plugin: 'ip-schedule', status: 'FINISHED' }), 0);

    assert.is(value(families, 'capstan_plugin_ready', { plugin: 'bounce-model' }), 1);
    assert.is(value(families, 'capstan_plugin_ready', { plugin: 'schedule-store-file' }), 1);
    for (const name of [
      'process_cpu_user_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_heap_size_used_bytes',
    ])
      family(families, name);
    // Low cardinality: no label value is an IP or a message
    for (const f of families)
      for (const m of f.metrics)
        for (const v of Object.values(m.labels ?? {}))
          assert.not.match(v, /192\.0\.2|Greylisting/, `${f.name} label "${v}"`);
  } finally {
    await host.close();
  }
});

/** A feed client that keeps the action of every frame it gets */
async function feedClient(
  address: string,
): Promise<{ ws: WebSocket; actions: string[]; until(count: number): Promise<void> }> {
  const ws = new WebSocket(address);
  const actions: string[] = [];
  let wake = () => {};
  ws.on('message', (data) => {
    actions.push(JSON.parse(String(data)).action);
    wake();
  });
  await once(ws, 'open');
  const until = (count: number) =>
    new Promise<void>((done, fail) => {
      const timer = setTimeout(
        () => fail(new Error(`${actions.length} frames (${actions.join(' ')}), not ${count}`)),
        3000,
      );
      wake = () => {
        if (actions.length < count) return;
        clearTimeout(timer);
        done();
      };
      wake();
    });
  return { ws, actions, until };
}

test('the policy feed and backoff events: clients, frames sent by action, drops, policies in force, events by class', async () => {
  // A threshold of 2 for every class that has fields: two events of one reply apply its backoff policy, whatever the
  // class
  const policies = Object.fromEntries(
    Object.entries(BACKOFF_TABLE)
      .filter(([, row]) => row.fields.length > 0)
      .map(([cls]) => [cls, { threshold: 2 }]),
  );
  const host = await startHost(
    document([
      { id: 'bounce-classifier', config: { cache: { folder: `${dir}/feed-cache` } } },
      { id: 'ip-schedule', config: { backoff: { policies } } },
    ]),
    { baseDir: tempDir(), ephemeralPorts: true, log: quiet, env: {} },
  );
  const scrape = async () => parse(await (await fetch(`${host.urls[0]}/metrics`)).text());
  const clients: WebSocket[] = [];
  try {
    const base = host.urls[0]!;
    const feed = `${base.replace(/^http/, 'ws')}/v1/policies/feed`;
    const before = await scrape();
    for (const action of ['VERSION', 'CREATE', 'UPDATE', 'DELETE', 'SYNCED'])
      assert.is(value(before, 'capstan_feed_messages_total', { plugin: 'ip-schedule', action }), 0, action);
    for (const reason of ['slow_reader', 'missed_ping', 'malformed_frame'])
      assert.is(value(before, 'capstan_feed_clients_dropped_total', { plugin: 'ip-schedule', reason }), 0, reason);
    assert.is(value(before, 'capstan_feed_clients', { plugin: 'ip-schedule' }), 0);

    // Connected to an empty state: VERSION, SYNCED
    const first = await feedClient(feed);
    clients.push(first.ws);
    await first.until(2);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const auto = {
      grouping: '&warm',
      mode: 'AUTO',
      start: { date: day(-5), volume: 10 },
      end: { date: day(20), volume: 1000 },
    };
    // A WARMUP policy for .1; .2 is paused: a WARMUP hold (suspension)
    assert.is((await post(base, '/config/192.0.2.1', { groupings: [auto] })).status, 200);
    assert.is((await post(base, '/config/192.0.2.2', { groupings: [{ ...auto, paused: true }] })).status, 200);
    await first.until(4);
    const busy = '421 4.7.0 Too many connections from your IP, try again later';
    const context = {
      localip: '192.0.2.1',
      remoteip: '198.51.100.7',
      remotemx: 'mx.example.com',
      recipientdomain: 'example.com',
      grouping: '&warm',
      tenantid: 't1',
      jobid: 'j1',
      transportid: 'mx',
    };
    const events = [
      busy,
      '550 5.1.1 <a@example.com>: Recipient address rejected: User unknown in virtual mailbox table',
      busy,
    ].map((message) => ({ message, ...context }));
    const answer = await post(base, '/v1/backoff/events', { events });
    assert.is(answer.status, 200);
    const answered = (await answer.json()).events as { class: string; fields: string[]; policies: string[] }[];
    assert.ok(answered[0]!.fields.length > 0, `the busy reply's class "${answered[0]!.class}" has fields`);
    assert.is(answered[2]!.policies.length, 1, 'the second busy event applied a policy');
    await first.until(5);
    // An UPDATE of .1's policy (new volumes), the DELETE of .2's hold
    assert.is(
      (
        await fetch(`${base}/config/192.0.2.1`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ groupings: [{ ...auto, end: { ...auto.end, volume: 2000 } }] }),
        })
      ).status,
      200,
    );
    assert.is((await fetch(`${base}/config/192.0.2.2`, { method: 'DELETE' })).status, 200);
    await first.until(7);
    // A second client gets the replay: VERSION, a CREATE per object in force (the WARMUP and the BACKOFF policy),
    // SYNCED
    const second = await feedClient(feed);
    clients.push(second.ws);
    await second.until(4);
    // A third client, synced, then cut off for a malformed frame (reserved opcode 0x3)
    const bad = await feedClient(feed);
    clients.push(bad.ws);
    await bad.until(4);
    const closed = once(bad.ws, 'close');
    (bad.ws as unknown as { _socket: { write(b: Buffer): void } })._socket.write(Buffer.from([0x83, 0x80, 1, 2, 3, 4]));
    await closed;

    const families = await scrape();
    const got = (action: string) =>
      [...first.actions, ...second.actions, ...bad.actions].filter((a) => a === action).length;
    assert.equal(first.actions, ['VERSION', 'SYNCED', 'CREATE', 'CREATE', 'CREATE', 'UPDATE', 'DELETE']);
    assert.equal(second.actions, ['VERSION', 'CREATE', 'CREATE', 'SYNCED']);
    assert.equal(bad.actions, second.actions);
    for (const [action, count] of Object.entries({ VERSION: 3, CREATE: 7, UPDATE: 1, DELETE: 1, SYNCED: 3 })) {
      assert.is(value(families, 'capstan_feed_messages_total', { plugin: 'ip-schedule', action }), count, action);
      assert.is(got(action), count, `the clients got ${action}`);
    }
    assert.is(family(families, 'capstan_feed_messages_total').type, 'COUNTER');
    assert.is(value(families, 'capstan_feed_clients', { plugin: 'ip-schedule' }), 2, 'the malformed one is gone');
    assert.is(
      value(families, 'capstan_feed_clients_dropped_total', { plugin: 'ip-schedule', reason: 'malformed_frame' }),
      1,
    );
    assert.is(
      value(families, 'capstan_feed_clients_dropped_total', { plugin: 'ip-schedule', reason: 'slow_reader' }),
      0,
    );
    assert.is(
      value(families, 'capstan_feed_clients_dropped_total', { plugin: 'ip-schedule', reason: 'missed_ping' }),
      0,
    );
    const suspends = BACKOFF_TABLE[answered[0]!.class as keyof typeof BACKOFF_TABLE].actions.includes(
      'suspend' as never,
    );
    assert.is(value(families, 'capstan_feed_policies', { plugin: 'ip-schedule', kind: 'policy', type: 'WARMUP' }), 1);
    assert.is(
      value(families, 'capstan_feed_policies', { plugin: 'ip-schedule', kind: 'suspend', type: 'WARMUP' }),
      0,
      'the hold went with .2',
    );
    assert.is(
      value(families, 'capstan_feed_policies', {
        plugin: 'ip-schedule',
        kind: suspends ? 'suspend' : 'policy',
        type: 'BACKOFF',
      }),
      1,
    );
    assert.is(
      value(families, 'capstan_feed_policies', {
        plugin: 'ip-schedule',
        kind: suspends ? 'policy' : 'suspend',
        type: 'BACKOFF',
      }),
      0,
    );
    const byClass = new Map<string, number>();
    for (const { class: cls } of answered) byClass.set(cls, (byClass.get(cls) ?? 0) + 1);
    assert.is(byClass.get(answered[0]!.class), 2);
    for (const cls of Object.keys(BACKOFF_TABLE))
      assert.is(
        value(families, 'capstan_backoff_events_total', { plugin: 'ip-schedule', class: cls }),
        byClass.get(cls) ?? 0,
        cls,
      );
    for (const f of families)
      for (const m of f.metrics)
        for (const v of Object.values(m.labels ?? {}))
          assert.not.match(v, /192\.0\.2|example|&warm|backoff:/, `${f.name} label "${v}"`);

    // The gauge follows the clients as they go
    first.ws.close();
    for (let i = 0; i < 50 && value(await scrape(), 'capstan_feed_clients', { plugin: 'ip-schedule' }) !== 1; i++)
      await new Promise((done) => setTimeout(done, 20));
    assert.is(value(await scrape(), 'capstan_feed_clients', { plugin: 'ip-schedule' }), 1);
  } finally {
    for (const ws of clients) ws.terminate();
    await host.close();
  }
});

const METRIC_PLUGIN = `
import { definePlugin, Type } from '@capstan';
export default definePlugin({
  id: 'counting', kind: 'store', apiVersion: '^1.2.0',
  config: Type.Object({ name: Type.String({ default: 'widgets_total' }), labels: Type.Array(Type.String(), { default: ['colour'] }) }),
  setup(ctx) {
    const widgets = ctx.metrics.counter({ name: ctx.config.name, help: 'Widgets made', labelNames: ctx.config.labels });
    widgets.inc({ colour: 'red' }, 2);
    return { service: {} };
  },
});
`;

test('instances of a plugin share a family told apart by "plugin"; a clashing declaration stops setup', async () => {
  const counting = writePlugin(dir, 'counting', { 'mod.ts': METRIC_PLUGIN });
  const host = await startHost(
    document([
      { id: 'one', path: counting },
      { id: 'two', path: counting },
    ]),
    { baseDir: dir, ephemeralPorts: true, log: quiet, env: {} },
  );
  try {
    const families = parse(await (await fetch(`${host.urls[0]}/metrics`)).text());
    assert.equal(
      family(families, 'capstan_widgets_total').metrics.map((m) => [m.labels, m.value]),
      [
        [{ colour: 'red', plugin: 'one' }, '2'],
        [{ colour: 'red', plugin: 'two' }, '2'],
      ],
    );
  } finally {
    await host.close();
  }
  const start = (plugins: unknown[]) =>
    startHost(document(plugins), { baseDir: dir, ephemeralPorts: true, log: quiet, env: {} });
  await rejects(
    start([
      { id: 'one', path: counting },
      { id: 'two', path: counting, config: { labels: ['shape'] } },
    ]),
    /Cannot declare metric "widgets_total" of "two": the name is taken by "one" with another type, help or labels/,
  );
  await rejects(
    start([{ id: 'one', path: counting, config: { name: 'http_requests_total' } }]),
    /Cannot declare metric "http_requests_total" of "one": the name is taken by "host"/,
  );
  await rejects(
    start([{ id: 'one', path: counting, config: { name: 'Widgets' } }]),
    /Cannot declare metric "Widgets" of "one": a name is lower case letters/,
  );
});

test.run();
