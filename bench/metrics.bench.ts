/**
 * What the metrics cost a request, against the request itself measured in the same run. The baseline is the mean
 * time the host's route layer spends on one cached `POST /v2/bnac/single` (read back from its own
 * `capstan_http_request_duration_seconds` after 2,000 sequential requests: routing, body, validation, cache lookup,
 * answer). The figures are the time of what the metrics add to each such request, called in a loop of 1,000,000:
 * the route layer's observer (one counter increment and one histogram observation), the classification count and
 * the cache lookup count. Each is printed in nanoseconds and as a share of the baseline request.
 *
 * Run: `node --import tsx bench/metrics.bench.ts`
 */
import { createLogger } from '../runtime/observability/logger.ts';
import { HostMetrics } from '../runtime/observability/metrics.ts';
import { startHost } from '../runtime/mod.ts';
import { tempDir } from '../test/host/_fixtures.ts';
import { row } from './_http.ts';

const CALLS = 1_000_000;
const REQUESTS = 2_000;

function perCall(run: () => void): number {
  for (let i = 0; i < 10_000; i++) run();
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) run();
  return Number(process.hrtime.bigint() - started) / CALLS;
}

const host = await startHost(
  {
    version: '6.10',
    servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
    plugins: [{ id: 'bounce-classifier', config: { cache: { folder: tempDir('capstan-bench-') } } }],
  },
  { ephemeralPorts: true, env: {}, log: createLogger({ service: 'bench', level: 'error' }) },
);
const base = host.urls[0]!;
const body = JSON.stringify({ message: '451 4.7.1 Greylisting in effect, please come back later' });
for (let i = 0; i < REQUESTS + 1; i++) {
  const answer = await fetch(`${base}/v2/bnac/single`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  if (answer.status !== 200) throw new Error(`POST /v2/bnac/single answered ${answer.status}`);
  await answer.arrayBuffer();
}
const text = await (await fetch(`${base}/metrics`)).text();
await host.close();
const sample = (name: string) =>
  Number(
    new RegExp(`^${name}\\{api="bounce-classifier",operation="classifyBnacSingleV2"\\} (\\S+)$`, 'm').exec(text)![1],
  );
const requestNs =
  (sample('capstan_http_request_duration_seconds_sum') / sample('capstan_http_request_duration_seconds_count')) * 1e9;

const metrics = new HostMetrics({ processMetrics: false });
const observe = metrics.route('bounce-classifier', 'classifyBnacSingleV2');
const plugin = metrics.forPlugin('bounce-classifier');
const classifications = plugin.counter({ name: 'classifications_total', help: 'h', labelNames: ['model', 'class'] });
const hits = plugin.counter({ name: 'cache_hits_total', help: 'h', labelNames: ['model'] });
const byModel = { model: 'bnac' };

const figures: [string, number][] = [
  ['route observer (counter + histogram)', perCall(() => observe(200, 0.0004))],
  ['classification count (one result)', perCall(() => classifications.inc({ model: 'bnac', class: 'GRAYLISTING' }))],
  ['cache hit count', perCall(() => hits.inc(byModel, 1))],
];
console.log(
  `Cached POST /v2/bnac/single, sequential, as the route layer measured it: ${Math.round(requestNs / 1000)} µs per request (baseline)`,
);
let total = 0;
for (const [name, ns] of figures) {
  total += ns;
  row(name, `${Math.round(ns)} ns per request`, `${((ns / requestNs) * 100).toFixed(2)} % of the request`);
}
row(
  'all metrics of one cached single request',
  `${Math.round(total)} ns`,
  `${((total / requestNs) * 100).toFixed(2)} % of the request`,
);
