/**
 * `GET /metrics` after traffic to both APIs, read back by a Prometheus text-format parser: every family the docs list
 * is there with the values the traffic implies. (The parser merges the label sets of a labelled histogram, so
 * histograms are checked by type and request counts by the counter.)
 */
import parse, { type PrometheusFamily } from 'parse-prometheus-text-format';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../runtime/host/logger.ts';
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
  const sample = family(families, name).metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return sample === undefined ? undefined : Number(sample.value);
}

const post = (base: string, path: string, body: unknown) =>
  fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

test('every documented family is present after traffic, with the counts the traffic implies', async () => {
  const host = await startHost(document([
    { id: 'bounce-classifier', config: { cache: { folder: `${dir}/cache` } } },
    { id: 'ip-schedule' },
  ]), { baseDir: dir, ephemeralPorts: true, log: quiet, env: {} });
  try {
    const base = host.urls[0]!;
    const grey = '451 4.7.1 Greylisting in effect, please come back later';
    for (let i = 0; i < 3; i++) assert.is((await post(base, '/v2/bnac/single', { message: grey })).status, 200);
    assert.is((await post(base, '/v2/bnac/single', { nope: 1 })).status, 400);
    // More than the model's inline maximum, so that the batch runs in the worker pool
    const batch = ['550 5.1.1 User unknown', '552 5.2.2 Mailbox full', '421 4.7.0 Try again later', grey];
    assert.is((await post(base, '/v1/backoff', { messages: batch })).status, 200);
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const auto = { grouping: '&warm', mode: 'AUTO', start: { date: day(-5), volume: 10 }, end: { date: day(20), volume: 1000 } };
    assert.is((await post(base, '/config/192.0.2.1', { groupings: [auto] })).status, 200);
    assert.is((await post(base, '/config/192.0.2.2', { groupings: [{ ...auto, paused: true }] })).status, 200);
    assert.is((await post(base, '/config/192.0.2.2', { groupings: [auto] })).status, 400, 'an IP that exists');

    const answer = await fetch(`${base}/metrics`);
    assert.is(answer.status, 200);
    assert.match(answer.headers.get('content-type')!, /^text\/plain; version=0\.0\.4/);
    const families = parse(await answer.text());

    assert.is(value(families, 'capstan_http_requests_total', { api: 'bounce-classifier', operation: 'classifyBnacSingleV2', status: '200' }), 3);
    assert.is(value(families, 'capstan_http_requests_total', { api: 'bounce-classifier', operation: 'classifyBnacSingleV2', status: '400' }), 1);
    assert.is(value(families, 'capstan_http_requests_total', { api: 'ip-schedule', operation: 'createConfig', status: '400' }), 1);
    assert.is(family(families, 'capstan_http_request_duration_seconds').type, 'HISTOGRAM');

    assert.is(value(families, 'capstan_classifications_total', { plugin: 'bounce-classifier', model: 'bnac', class: 'GRAYLISTING' }), 3);
    const backoff = family(families, 'capstan_classifications_total').metrics.filter((m) => m.labels?.model === 'backoff');
    assert.is(backoff.reduce((n, m) => n + Number(m.value), 0), 4);
    assert.is(value(families, 'capstan_cache_misses_total', { plugin: 'bounce-classifier', model: 'bnac' }), 1);
    assert.is(value(families, 'capstan_cache_hits_total', { plugin: 'bounce-classifier', model: 'bnac' }), 2);
    assert.is(value(families, 'capstan_cache_entries', { plugin: 'bounce-classifier' }), 5);
    assert.ok(value(families, 'capstan_cache_bytes', { plugin: 'bounce-classifier' })! > 0);

    assert.is(value(families, 'capstan_pool_threads', { pool: 'shared' })! >= 1, true);
    assert.is(value(families, 'capstan_pool_queue_length', { pool: 'shared' }), 0);
    assert.is(value(families, 'capstan_pool_busy_workers', { pool: 'shared' }), 0);

    assert.is(value(families, 'capstan_store_operations_total', { plugin: 'schedule-store-file', operation: 'put', outcome: 'ok' }), 2);
    assert.is(value(families, 'capstan_store_operations_total', { plugin: 'schedule-store-file', operation: 'put', outcome: 'conflict' }), 1);
    assert.is(value(families, 'capstan_schedules', { plugin: 'ip-schedule', status: 'ONSCHEDULE' }), 1);
    assert.is(value(families, 'capstan_schedules', { plugin: 'ip-schedule', status: 'PAUSED' }), 1);
    assert.is(value(families, 'capstan_schedules', { plugin: 'ip-schedule', status: 'FINISHED' }), 0);

    assert.is(value(families, 'capstan_plugin_ready', { plugin: 'bounce-model' }), 1);
    assert.is(value(families, 'capstan_plugin_ready', { plugin: 'schedule-store-file' }), 1);
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) family(families, name);
    // Low cardinality: no label value is an IP or a message
    for (const f of families) for (const m of f.metrics) for (const v of Object.values(m.labels ?? {})) assert.not.match(v, /192\.0\.2|Greylisting/, `${f.name} label "${v}"`);
  } finally {
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
  const host = await startHost(document([{ id: 'one', path: counting }, { id: 'two', path: counting }]), { baseDir: dir, ephemeralPorts: true, log: quiet, env: {} });
  try {
    const families = parse(await (await fetch(`${host.urls[0]}/metrics`)).text());
    assert.equal(family(families, 'capstan_widgets_total').metrics.map((m) => [m.labels, m.value]), [
      [{ colour: 'red', plugin: 'one' }, '2'],
      [{ colour: 'red', plugin: 'two' }, '2'],
    ]);
  } finally {
    await host.close();
  }
  const start = (plugins: unknown[]) => startHost(document(plugins), { baseDir: dir, ephemeralPorts: true, log: quiet, env: {} });
  await rejects(start([{ id: 'one', path: counting }, { id: 'two', path: counting, config: { labels: ['shape'] } }]), /Cannot declare metric "widgets_total" of "two": the name is taken by "one" with another type, help or labels/);
  await rejects(start([{ id: 'one', path: counting, config: { name: 'http_requests_total' } }]), /Cannot declare metric "http_requests_total" of "one": the name is taken by "host"/);
  await rejects(start([{ id: 'one', path: counting, config: { name: 'Widgets' } }]), /Cannot declare metric "Widgets" of "one": a name is lower case letters/);
});

test.run();
