/**
 * IP schedule API throughput per store, as ratios to a raw `node:http` hello world measured in the same run:
 * `GET /status/<ip>/<grouping>` and create/delete cycles (`POST` then `DELETE /config/<ip>`), and the latency of
 * `GET /status` with 10,000 IPs × 5 groupings (goal: under 250 ms). Servers run in a child process so the load
 * generator does not share their event loop. PostgreSQL figures need the local database (`DATABASE_URL`).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { load, rawHello, row, startServers } from './_http.ts';

const STORES = ['schedule-store-file', 'schedule-store-postgres'] as const;
const BIG_IPS = 10_000;
const GROUPINGS = ['&gmail', '&yahoo', '&outlook', '&icloud', '&other'];

/** A 30-day AUTO ramp starting today, so statuses are ONSCHEDULE */
const grouping = (name: string) => {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return {
    grouping: name, mode: 'AUTO' as const, start: { date: day(0), volume: 100 }, end: { date: day(29), volume: 100_000 },
    paused: false, algorithm: 'TOKENBUCKET' as const, interval: 86400, properties: null,
  };
};

type Urls = Record<string, string>;

/** In the server process: a raw hello world, and per store a small and a 10,000-IP host, filled through the store */
async function serve(): Promise<Urls> {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { randomUUID } = await import('node:crypto');
  const { startHost, usePlugin } = await import('../runtime/mod.ts');
  const { createLogger } = await import('../runtime/host/logger.ts');
  type Store = import('../runtime/mod.ts').ScheduleStore;
  const storeEntry = (id: string) => id === 'schedule-store-postgres'
    ? { id, config: { schema: `bench_${randomUUID().replaceAll('-', '')}`, ...(process.env.DATABASE_URL ? { connectionString: process.env.DATABASE_URL } : {}) } }
    : { id };
  const serveStore = async (id: string, ips: number) => {
    const baseDir = mkdtempSync(join(tmpdir(), 'capstan-bench-ips-'));
    const entry = storeEntry(id);
    const plugin = await usePlugin<Store>(entry, { baseDir });
    const record = { groupings: GROUPINGS.map(grouping) };
    for (let i = 0; i < ips; i += 500) {
      const batch = Array.from({ length: Math.min(500, ips - i) }, (_, j) => `10.${(i + j) >> 16}.${((i + j) >> 8) & 255}.${(i + j) & 255}`);
      await Promise.all(batch.map((ip) => plugin.service.put(ip, record, { expected: null })));
    }
    await plugin.close();
    const host = await startHost(
      { version: '6.10', servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }], plugins: [entry, { id: 'ip-schedule', config: { store: id } }] },
      { baseDir, ephemeralPorts: true, log: createLogger({ service: 'bench', level: 'error' }) },
    );
    return host.urls[0]!;
  };
  const urls: Urls = { raw: (await rawHello()).url };
  for (const id of STORES) {
    try {
      urls[id] = await serveStore(id, 1);
      urls[`${id} big`] = await serveStore(id, BIG_IPS);
    } catch (error) {
      urls[`${id} skipped`] = (error as Error).message;
    }
  }
  // The floor for the big answer: raw node:http sending the very same bytes, already encoded
  const big = urls[`${STORES[0]} big`];
  if (big) {
    const bytes = Buffer.from(await (await fetch(`${big}/status`)).arrayBuffer());
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(bytes));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    urls['raw big'] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  return urls;
}

const servers = await startServers(import.meta.filename, serve);
if (servers) {
  const { urls } = servers;
  try {
    await load(urls.raw!, { seconds: 1 });
    const raw = await load(urls.raw!);
    console.log('HTTP, 50 connections, servers in one process, load generator in another');
    row('raw node:http hello world', `${Math.round(raw.rps)} req/s`);
    for (const id of STORES) {
      if (!urls[id]) {
        console.log(`${id}: skipped (${urls[`${id} skipped`]})`);
        continue;
      }
      const status = await load(`${urls[id]}/status/10.0.0.0/%26gmail`);
      row(`GET /status/<ip>/<grouping> (${id})`, `${Math.round(status.rps)} req/s`, `ratio ${(status.rps / raw.rps).toFixed(2)}`);
      const cycles = await createDeleteCycles(urls[id]!);
      row(`create/delete cycle (${id})`, `${Math.round(cycles.rps)} req/s`, `ratio ${(cycles.rps / raw.rps).toFixed(2)}`);
      if (status.non2xx + cycles.non2xx > 0) console.log(`warning: ${status.non2xx + cycles.non2xx} non-2xx responses`);
    }
    if (urls['raw big']) {
      const times = await statusLatency(urls['raw big']);
      row('raw node:http sending the same GET /status bytes', `median ${times.median} ms`, `max ${times.max} ms, ${times.megabytes} MB`);
    }
    for (const id of STORES) {
      if (!urls[`${id} big`]) continue;
      const times = await statusLatency(urls[`${id} big`]!);
      row(`GET /status, 10k IPs × 5 groupings (${id})`, `median ${times.median} ms`, `max ${times.max} ms, ${times.megabytes} MB (goal < 250 ms)`);
    }
  } finally {
    servers.stop();
  }
}

/** Each connection creates and deletes its own IP in a loop; a cycle is two requests */
async function createDeleteCycles(url: string) {
  let next = 0;
  const body = JSON.stringify({ groupings: [grouping('&gmail')].map(({ paused: _, algorithm: __, interval: ___, properties: ____, ...input }) => input) });
  const result = await load(url, {
    requests: [
      {
        method: 'POST',
        setupRequest: (request: any, context: any) => {
          context.ip ??= `172.16.${(next >> 8) & 255}.${next++ & 255}`;
          return { ...request, path: `/config/${context.ip}`, body };
        },
      },
      { method: 'DELETE', setupRequest: (request: any, context: any) => ({ ...request, path: `/config/${context.ip}` }) },
    ],
  });
  return result;
}

/** Milliseconds of sequential `GET /status` calls, after one warm-up */
async function statusLatency(url: string) {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < 11; i++) {
    const started = performance.now();
    const text = await (await fetch(`${url}/status`)).text();
    if (i > 0) times.push(performance.now() - started);
    bytes = text.length;
  }
  times.sort((a, b) => a - b);
  return { median: Math.round(times[times.length >> 1]!), max: Math.round(times[times.length - 1]!), megabytes: Math.round(bytes / 1e6) };
}
