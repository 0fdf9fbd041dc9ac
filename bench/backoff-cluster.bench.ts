/**
 * Backoff events on three hosts sharing PostgreSQL (issue 21, item 8): events/s of `POST /v1/backoff/events` in
 * batches of 1,000 (bench/_backoff-batches.ts: MX, time, one delivery for every four failures) when three hosts, each
 * in a process of its own, count together through one PostgreSQL schema, and the load is spread over them (2
 * connections each). Same-run baselines: one host on the file store (counting in its process) and one host on
 * PostgreSQL alone (4 connections each). Every reply is classified once before, so all figures are of the cache.
 * On a machine of few cores the three hosts share them with PostgreSQL and the load generator: the ratio then shows
 * what counting together costs, not what more machines would add. Needs `DATABASE_URL`.
 *
 * Run: `npm run bench backoff-cluster` (BENCH_SECONDS sets each measurement's length)
 */
import type { Request } from 'autocannon';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { BATCH, backoffBatches } from './_backoff-batches.ts';
import { load, row, startServers, type LoadResult, type Servers } from './_http.ts';

/** In the server process: a host with bounce-classifier and ip-schedule on the store (and schema) of argv */
async function serve(): Promise<{ url: string }> {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { startHost } = await import('../runtime/mod.ts');
  const { createLogger } = await import('../runtime/observability/logger.ts');
  const [id, schema] = process.argv.slice(-2) as [string, string];
  const store =
    id === 'schedule-store-postgres'
      ? [
          {
            id,
            config: { schema, connectionString: process.env.DATABASE_URL, applicationName: 'bench-backoff-cluster' },
          },
        ]
      : [];
  const host = await startHost(
    {
      version: '6.10',
      servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
      plugins: [{ id: 'bounce-classifier' }, ...store, { id: 'ip-schedule', config: { store: id } }],
    },
    {
      baseDir: mkdtempSync(join(tmpdir(), 'capstan-bench-cluster-')),
      ephemeralPorts: true,
      log: createLogger({ service: 'bench', level: 'error' }),
    },
  );
  return { url: host.urls[0]! };
}

if (process.argv.includes('--serve')) await startServers(import.meta.filename, serve);
else if (!process.env.DATABASE_URL)
  console.log('skipped: set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test');
else await measure();

async function measure() {
  const { replies, eventBodies, timedBodies } = await backoffBatches();
  const mixed = timedBodies((i) => i % 5 === 4);
  const [single, cluster] = [`bench_${randomUUID().replaceAll('-', '')}`, `bench_${randomUUID().replaceAll('-', '')}`];
  const started: Servers<{ url: string }>[] = [];
  const host = async (store: string, schema = '-') => {
    const servers = (await startServers(import.meta.filename, serve, { args: [store, schema] }))!;
    started.push(servers);
    const { url } = servers.urls;
    const warm = await fetch(`${url}/v1/backoff`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messages: replies }),
    });
    if (!warm.ok) throw new Error(`Classifying the replies answered ${warm.status}`);
    return url;
  };
  let turn = 0;
  const rotating = (bodies: string[]): Request => ({
    method: 'POST',
    path: '/v1/backoff/events',
    setupRequest: (request: Request) => ({ ...request, body: bodies[turn++ % bodies.length] }),
  });
  /** Events/s of `bodies` spread over `urls` at once, `connections` each */
  const run = async (urls: string[], bodies: string[], connections: number): Promise<LoadResult & { eps: number }> => {
    const results = await Promise.all(
      urls.map((url) => load(url, { connections, strict: true, requests: [rotating(bodies)] })),
    );
    return {
      ...results[0]!,
      eps: results.reduce((sum, r) => sum + r.rps, 0) * BATCH,
      p99: Math.max(...results.map((r) => r.p99)),
    };
  };
  try {
    const file = await host('schedule-store-file');
    const fileMixed = await run([file], mixed, 4);
    const fileFailures = await run([file], eventBodies, 4);
    started.pop()!.stop();
    const alone = await host('schedule-store-postgres', single);
    const aloneMixed = await run([alone], mixed, 4);
    const aloneFailures = await run([alone], eventBodies, 4);
    started.pop()!.stop();
    const three = [
      await host('schedule-store-postgres', cluster),
      await host('schedule-store-postgres', cluster),
      await host('schedule-store-postgres', cluster),
    ];
    const threeMixed = await run(three, mixed, 2);
    const threeFailures = await run(three, eventBodies, 2);
    const figure = (r: { eps: number; p99: number }, base: { eps: number }) =>
      [
        `${Math.round(r.eps)} events/s`,
        `per batch p99 ${r.p99} ms   ×${(r.eps / base.eps).toFixed(2)} the file store's`,
      ] as const;
    console.log(
      `HTTP, batches of ${BATCH.toLocaleString('en')}; each host in its own process, the load generator in this one`,
    );
    console.log('\nMX, time, 20 % delivered');
    row('one host, file store (baseline)', ...figure(fileMixed, fileMixed));
    row('one host, PostgreSQL', ...figure(aloneMixed, fileMixed));
    row('three hosts, one PostgreSQL schema', ...figure(threeMixed, fileMixed));
    console.log('\nevery event a failure');
    row('one host, file store (baseline)', ...figure(fileFailures, fileFailures));
    row('one host, PostgreSQL', ...figure(aloneFailures, fileFailures));
    row('three hosts, one PostgreSQL schema', ...figure(threeFailures, fileFailures));
  } finally {
    for (const servers of started) servers.stop();
    const client = new pg.Client(process.env.DATABASE_URL);
    await client.connect();
    for (const schema of [single, cluster]) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}
