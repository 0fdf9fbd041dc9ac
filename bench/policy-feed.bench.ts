/**
 * Policy feed latency at 500 connected clients, per store, the host in a process of its own and the clients in this
 * one: 200 writes one after another (`PUT /config/<ip>` changing one grouping's volume, so the feed sends one UPDATE),
 * each timed from the start of the PUT to (a) its answer, the same-run baseline, (b) the UPDATE reaching the first
 * client and (c) the UPDATE reaching all 500. Goal: p99 of (b) under 100 ms on one host. PostgreSQL figures need
 * `DATABASE_URL`.
 */
import WebSocket from 'ws';
import { row, startServers } from './_http.ts';

const STORES = ['schedule-store-file', 'schedule-store-postgres'] as const;
const CLIENTS = 500;
const WRITES = 200;
const IP = '192.0.2.1';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
/** Five 30-day ramps starting today: `&g0`'s start volume is the one each write changes */
const body = (volume: number) =>
  JSON.stringify({
    groupings: Array.from({ length: 5 }, (_, i) => ({
      grouping: `&g${i}`,
      mode: 'AUTO',
      start: { date: day(0), volume: i === 0 ? volume : 100 },
      end: { date: day(29), volume: 1_000_000 },
    })),
  });

/** In the server process: a host serving ip-schedule over the store named last in argv */
async function serve(): Promise<{ url: string }> {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { randomUUID } = await import('node:crypto');
  const { startHost } = await import('../runtime/mod.ts');
  const { createLogger } = await import('../runtime/observability/logger.ts');
  const id = process.argv.at(-1)!;
  const store =
    id === 'schedule-store-postgres'
      ? {
          id,
          config: { schema: `bench_${randomUUID().replaceAll('-', '')}`, connectionString: process.env.DATABASE_URL },
        }
      : { id };
  const host = await startHost(
    {
      version: '6.10',
      servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
      plugins: [store, { id: 'ip-schedule', config: { store: id } }],
    },
    {
      baseDir: mkdtempSync(join(tmpdir(), 'capstan-bench-feed-')),
      ephemeralPorts: true,
      log: createLogger({ service: 'bench', level: 'error' }),
    },
  );
  return { url: host.urls[0]! };
}

if (process.argv.includes('--serve')) await startServers(import.meta.filename, serve);
else await measure();

async function measure() {
  console.log(`Policy feed: write → UPDATE with ${CLIENTS} clients connected, ${WRITES} writes one after another`);
  for (const id of STORES) {
    if (id === 'schedule-store-postgres' && !process.env.DATABASE_URL) {
      console.log(`${id}: skipped (set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test)`);
      continue;
    }
    const servers = (await startServers(import.meta.filename, serve, { args: [id] }))!;
    try {
      const { url } = servers.urls;
      const put = (volume: number) =>
        fetch(`${url}/config/${IP}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: body(volume),
        });
      const created = await fetch(`${url}/config/${IP}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body(100),
      });
      if (!created.ok) throw new Error(`POST answered ${created.status}`);
      // Each client notes when a frame carrying the awaited count arrives
      let awaited = '';
      let arrivals: number[] = [];
      const clients = await Promise.all(
        Array.from({ length: CLIENTS }, () =>
          connect(`${url.replace('http', 'ws')}/v1/policies/feed`, (text) => {
            if (awaited !== '' && text.includes(awaited)) arrivals.push(performance.now());
          }),
        ),
      );
      const answers: number[] = [];
      const first: number[] = [];
      const all: number[] = [];
      for (let i = 0; i < WRITES + 20; i++) {
        const volume = 1000 + i;
        awaited = `"count":${volume},`;
        arrivals = [];
        const started = performance.now();
        const response = await put(volume);
        const answered = performance.now();
        if (!response.ok) throw new Error(`PUT answered ${response.status}`);
        await response.arrayBuffer();
        while (arrivals.length < CLIENTS) await new Promise((done) => setTimeout(done, 1));
        // The first 20 warm the JIT and the sockets
        if (i < 20) continue;
        answers.push(answered - started);
        first.push(Math.min(...arrivals) - started);
        all.push(Math.max(...arrivals) - started);
      }
      for (const ws of clients) ws.terminate();
      const p = (times: number[], q: number) =>
        [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
      const figures = (times: number[]) => `p50 ${p(times, 0.5)} ms, p99 ${p(times, 0.99)} ms`;
      console.log(`\n${id}`);
      row('PUT round trip (baseline)', figures(answers));
      row(
        'write → UPDATE at the first client',
        figures(first),
        `p99 ×${(Number(p(first, 0.99)) / Number(p(answers, 0.99))).toFixed(2)} the PUT's (goal p99 < 100 ms)`,
      );
      row(
        `write → UPDATE at all ${CLIENTS} clients`,
        figures(all),
        `p99 ×${(Number(p(all, 0.99)) / Number(p(answers, 0.99))).toFixed(2)} the PUT's`,
      );
    } finally {
      servers.stop();
    }
  }
}

/** A feed client reading every frame as text; resolves once the replay has ended */
function connect(address: string, onText: (text: string) => void): Promise<WebSocket> {
  return new Promise((done, fail) => {
    const ws = new WebSocket(address);
    ws.on('message', (data) => {
      const text = data.toString();
      if (text === '{"action":"SYNCED"}') done(ws);
      else onText(text);
    });
    ws.once('error', fail);
  });
}
