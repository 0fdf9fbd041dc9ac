/**
 * Writes during a PostgreSQL partition: one host whose store reaches the database through a TCP relay, paused to
 * cut it off (nothing passes either way, as in a partition) and resumed to heal it.
 * - baseline: a healthy `PUT /config/<ip>/<grouping>/pause` (median of 50, one at a time);
 * - time to 503: writes sent during the partition, 20 at once, three rounds; each must answer 503 with Retry-After
 *   within the configured bound (`connectTimeout` + `queryTimeout`), printed as a ratio to that bound;
 * - /readyz: time until it says not ready once the partition starts;
 * - recovery: from the relay's resume to the first write answered 200 (one every 20 ms) and to /readyz 200.
 * Timeouts are set short (1 s each) so the run stays short; production defaults are 5 s and 12 s.
 * Needs the local database (`DATABASE_URL`).
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startScheduleHost, utcDate, autoGrouping } from '../test/ip-schedule/_host.ts';
import { startTcpProxy } from '../test/ip-schedule/_tcp-proxy.ts';
import { row } from './_http.ts';

const URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CONNECT_S = 1;
const QUERY_S = 1;
const BOUND_MS = (CONNECT_S + QUERY_S) * 1000;

const admin = new pg.Client(URL);
try {
  await admin.connect();
} catch (error) {
  console.log(`skipped: no database at ${URL} (${(error as Error).message})`);
  process.exit(0);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const target = new globalThis.URL(URL);
const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
const schema = `bench_${randomUUID().replaceAll('-', '')}`;
const host = await startScheduleHost({
  plugins: [
    {
      id: 'schedule-store-postgres',
      config: {
        connectionString: proxy.via(URL),
        schema,
        connectTimeout: CONNECT_S,
        queryTimeout: QUERY_S,
        statementTimeout: QUERY_S,
      },
    },
  ],
  config: { store: 'schedule-store-postgres' },
  checkResponses: false,
});

async function timed(method: string, path: string, body?: unknown) {
  const started = performance.now();
  const response = await fetch(host.url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  await response.arrayBuffer();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), ms: performance.now() - started };
}

try {
  const ips = Array.from({ length: 20 }, (_, i) => `192.0.2.${i + 1}`);
  for (const ip of ips)
    await timed('POST', `/config/${ip}`, {
      groupings: [autoGrouping('&gmail', [utcDate(0), 100], [utcDate(9), 1000])],
    });
  const pause = (ip: string, i: number) => timed('PUT', `/config/${ip}/%26gmail/${i % 2 ? 'resume' : 'pause'}`);

  const healthy: number[] = [];
  for (let i = 0; i < 50; i++) healthy.push((await pause(ips[i % ips.length]!, i)).ms);
  const baseline = median(healthy);
  row('healthy write (median of 50)', `${baseline.toFixed(2)} ms`, 'x1.0 (baseline)');

  proxy.pause();
  const partitionStarted = performance.now();
  let notReadyMs = NaN;
  while (Number.isNaN(notReadyMs)) {
    if ((await timed('GET', '/readyz')).status === 503) notReadyMs = performance.now() - partitionStarted;
  }
  const answers = [];
  for (let round = 0; round < 3; round++) answers.push(...(await Promise.all(ips.map(pause))));
  const refused = answers.filter((a) => a.status === 503 && a.retryAfter !== null);
  const times = answers.map((a) => a.ms);
  row(
    '/readyz not ready after the cut',
    `${notReadyMs.toFixed(0)} ms`,
    `x${(notReadyMs / baseline).toFixed(0)} baseline`,
  );
  row('writes during the partition: 503 + Retry-After', `${refused.length} of ${answers.length}`);
  row(
    'time to 503, median',
    `${median(times).toFixed(0)} ms`,
    `${(median(times) / BOUND_MS).toFixed(2)} of the ${BOUND_MS} ms bound`,
  );
  row(
    'time to 503, max',
    `${Math.max(...times).toFixed(0)} ms`,
    `${(Math.max(...times) / BOUND_MS).toFixed(2)} of the ${BOUND_MS} ms bound`,
  );

  proxy.resume();
  const healed = performance.now();
  let writeMs = NaN;
  for (let i = 0; Number.isNaN(writeMs); i++) {
    if ((await pause(ips[0]!, i)).status === 200) writeMs = performance.now() - healed;
    else await new Promise((done) => setTimeout(done, 20));
  }
  let readyMs = NaN;
  while (Number.isNaN(readyMs)) {
    if ((await timed('GET', '/readyz')).status === 200) readyMs = performance.now() - healed;
    else await new Promise((done) => setTimeout(done, 20));
  }
  row(
    'recovery: first write 200 after the heal',
    `${writeMs.toFixed(0)} ms`,
    `x${(writeMs / baseline).toFixed(0)} baseline`,
  );
  row(
    'recovery: /readyz 200 after the heal',
    `${readyMs.toFixed(0)} ms`,
    `x${(readyMs / baseline).toFixed(0)} baseline`,
  );
} finally {
  proxy.resume();
  await host.close();
  await proxy.close();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
}
