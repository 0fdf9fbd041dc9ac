/**
 * IP schedule API per store, each store's servers in a fresh process of their own:
 * - `GET /status/<ip>/<grouping>` and create/delete cycles (`POST` then `DELETE /config/<ip>`) in requests/s at 50
 *   connections, as ratios to a raw `node:http` hello world in the same process;
 * - `GET /status` with 10,000 IPs × 5 groupings, one request at a time, in four states, because the host keeps each
 *   IP's encoded status until the IP's record changes: COLD (the first `GET /status` the process serves, right after
 *   start: nothing compiled, start encodes nothing and the idle-time encoding has barely begun, so the answer is
 *   streamed, each IP not yet encoded encoded as its turn comes), COLD ONCE IDLE (the first `GET /status` of another
 *   such host, started before the first and left idle since: the host encodes each IP's status in idle time after
 *   start, as after a restart an operator's first page comes seconds later), AFTER A WRITE (a `PUT /config/<ip>`
 *   changing one IP's record, then the `GET /status`; repeated, median and max) and WARM (repeated with nothing
 *   written in between, after one warm-up).
 *   Each is compared with raw `node:http` sending the same bytes, already encoded, from the same process, timed right
 *   after it (cold) or alternately with it (after a write, warm) so that both see the same load of a shared machine;
 *   the goal (below 250 ms, about what that raw server needs) applies to all four.
 * PostgreSQL figures need the local database (`DATABASE_URL`).
 */
import { createServer, get } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { load, rawHello, row, startServers } from './_http.ts';

const STORES = ['schedule-store-file', 'schedule-store-postgres'] as const;
const BIG_IPS = 10_000;
const GROUPINGS = ['&gmail', '&yahoo', '&outlook', '&icloud', '&other'];
const GOAL = 'goal < 250 ms';
/** Requests per repeated `GET /status` figure */
const REPEATS = 10;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** A 30-day AUTO ramp starting today, so statuses are ONSCHEDULE */
const grouping = (name: string, endVolume = 100_000) => ({
  grouping: name,
  mode: 'AUTO' as const,
  start: { date: day(0), volume: 100 },
  end: { date: day(29), volume: endVolume },
  paused: false,
  algorithm: 'TOKENBUCKET' as const,
  interval: 86400,
  properties: null,
});

/** The API's input form of a grouping (the stored form without the fields the server defaults) */
const groupingInput = (name: string, endVolume?: number) => {
  const { paused: _, algorithm: __, interval: ___, properties: ____, ...input } = grouping(name, endVolume);
  return input;
};

/** `i`-th IP of the big host: 10.0.0.0, 10.0.0.1, ... */
const bigIp = (i: number) => `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`;

type Urls = Record<string, string>;

/**
 * In the server process: a raw hello world, and for the store named last in argv a small and two 10,000-IP hosts, the
 * one measured cold once idle started first
 */
async function serve(): Promise<Urls> {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { randomUUID } = await import('node:crypto');
  const { startHost, usePlugin } = await import('../runtime/mod.ts');
  const { createLogger } = await import('../runtime/observability/logger.ts');
  type Store = import('../runtime/mod.ts').ScheduleStore;
  const id = process.argv.at(-1)!;
  const entry = () =>
    id === 'schedule-store-postgres'
      ? {
          id,
          config: { schema: `bench_${randomUUID().replaceAll('-', '')}`, connectionString: process.env.DATABASE_URL },
        }
      : { id };
  // Filled through the store, not the API, so that the host starts with no GET /status served
  const serveStore = async (ips: number) => {
    const baseDir = mkdtempSync(join(tmpdir(), 'capstan-bench-ips-'));
    const store = entry();
    const plugin = await usePlugin<Store>(store, { baseDir });
    const record = { groupings: GROUPINGS.map((name) => grouping(name)) };
    for (let i = 0; i < ips; i += 500) {
      const batch = Array.from({ length: Math.min(500, ips - i) }, (_, j) => bigIp(i + j));
      await Promise.all(batch.map((ip) => plugin.service.put(ip, record, { expected: null })));
    }
    await plugin.close();
    return (
      await startHost(
        {
          version: '6.10',
          servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
          plugins: [store, { id: 'ip-schedule', config: { store: id } }],
        },
        { baseDir, ephemeralPorts: true, log: createLogger({ service: 'bench', level: 'error' }) },
      )
    ).urls[0]!;
  };
  const raw = (await rawHello()).url;
  try {
    const idle = await serveStore(BIG_IPS);
    const idleStarted = String(Date.now());
    return { raw, small: await serveStore(1), idle, idleStarted, big: await serveStore(BIG_IPS) };
  } catch (error) {
    return { raw, skipped: (error as Error).message };
  }
}

/** In the server process, asked for after the cold request: raw node:http sending the big host's answer, already encoded */
async function rawBytes(big: string): Promise<string> {
  const bytes = Buffer.from(await (await fetch(`${big}/status`)).arrayBuffer());
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(bytes));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

if (process.argv.includes('--serve')) await startServers(import.meta.filename, serve, { calls: { rawBytes } });
else await measure();

async function measure() {
  console.log('HTTP, servers of each store in a fresh process, load generator in another');
  for (const id of STORES) {
    // The store refuses to guess a database, and so does the bench
    if (id === 'schedule-store-postgres' && !process.env.DATABASE_URL) {
      console.log(`${id}: skipped (set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test)`);
      continue;
    }
    const servers = (await startServers(import.meta.filename, serve, { args: [id] }))!;
    const { urls } = servers;
    try {
      if (urls.skipped) {
        console.log(`${id}: skipped (${urls.skipped})`);
        continue;
      }
      const cold = await timeStatus(urls.big!);
      const rawBig = await servers.call('rawBytes', urls.big!);
      const coldFloor = await timeStatus(rawBig);
      const idleFor = (Date.now() - Number(urls.idleStarted)) / 1000;
      const idleCold = await timeStatus(urls.idle!);
      const idleFloor = await timeStatus(rawBig);
      const warm = await paired(urls.big!, rawBig, async () => {}, 1);
      const afterWrite = await paired(urls.big!, rawBig, async (i) => {
        const response = await fetch(`${urls.big}/config/${bigIp(i)}`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ groupings: GROUPINGS.map((name) => groupingInput(name, 100_001 + i)) }),
        });
        if (!response.ok)
          throw new Error(`PUT /config/${bigIp(i)} answered ${response.status}: ${await response.text()}`);
      });

      await load(urls.raw!, { seconds: 1 });
      const raw = await load(urls.raw!);
      const status = await load(`${urls.small}/status/10.0.0.0/%26gmail`, { strict: true });
      const cycles = await createDeleteCycles(urls.small!);

      console.log(`\n${id}`);
      row('raw node:http hello world', `${Math.round(raw.rps)} req/s`);
      row(
        'GET /status/<ip>/<grouping>',
        `${Math.round(status.rps)} req/s`,
        `ratio ${(status.rps / raw.rps).toFixed(2)}`,
      );
      row('create/delete cycle', `${Math.round(cycles.rps)} req/s`, `ratio ${(cycles.rps / raw.rps).toFixed(2)}`);
      const mb = `${Math.round(cold.bytes / 1e6)} MB`;
      const vs = (ms: number, raw: number) => `raw node:http ${raw} ms, ×${(ms / raw).toFixed(1)}   (${GOAL})`;
      row('GET /status 10k×5, cold (first after start)', `${cold.ms} ms`, `${mb}; ${vs(cold.ms, coldFloor.ms)}`);
      row(
        `GET /status 10k×5, cold once idle (${idleFor.toFixed(0)} s)`,
        `${idleCold.ms} ms`,
        `${mb}; ${vs(idleCold.ms, idleFloor.ms)}`,
      );
      row(
        'GET /status 10k×5, right after a write',
        `median ${afterWrite.capstan.median} ms`,
        `max ${afterWrite.capstan.max}; ${vs(afterWrite.capstan.median, afterWrite.raw.median)}`,
      );
      row(
        'GET /status 10k×5, warm (no write between)',
        `median ${warm.capstan.median} ms`,
        `max ${warm.capstan.max}; ${vs(warm.capstan.median, warm.raw.median)}`,
      );
    } finally {
      servers.stop();
    }
  }
}

/** Each connection creates and deletes its own IP in a loop; a cycle is two requests */
async function createDeleteCycles(url: string) {
  let next = 0;
  const body = JSON.stringify({ groupings: [groupingInput('&gmail')] });
  return load(url, {
    strict: true,
    requests: [
      {
        method: 'POST',
        setupRequest: (request: any, context: any) => {
          context.ip ??= `172.16.${(next >> 8) & 255}.${next++ & 255}`;
          return { ...request, path: `/config/${context.ip}`, body };
        },
      },
      {
        method: 'DELETE',
        setupRequest: (request: any, context: any) => ({ ...request, path: `/config/${context.ip}` }),
      },
    ],
  });
}

/**
 * Milliseconds of one `GET /status`, the whole answer read and counted, not kept: fetch's arrayBuffer() of 82 MB cost
 * the client more than either server took to send it, and hid the difference between them
 */
function timeStatus(url: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  return new Promise((done, failed) => {
    get(`${url}/status`, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('error', failed);
      response.on('end', () => {
        if (response.statusCode !== 200) failed(new Error(`GET ${url}/status answered ${response.statusCode}`));
        else done({ ms: Math.round(performance.now() - started), bytes });
      });
    }).on('error', failed);
  });
}

/**
 * REPEATS rounds of `before` (not timed), then `GET /status` of capstan and of the raw server back to back, in turns
 * first, since the garbage of an 82 MB answer is collected during whichever request comes next
 */
async function paired(big: string, raw: string, before: (i: number) => Promise<void>, warmUp = 0) {
  const capstan: number[] = [];
  const floor: number[] = [];
  for (let i = 0; i < warmUp + REPEATS; i++) {
    await before(i);
    let ms: number;
    let rawMs: number;
    if (i % 2 === 0) {
      ms = (await timeStatus(big)).ms;
      rawMs = (await timeStatus(raw)).ms;
    } else {
      rawMs = (await timeStatus(raw)).ms;
      ms = (await timeStatus(big)).ms;
    }
    if (i < warmUp) continue;
    capstan.push(ms);
    floor.push(rawMs);
  }
  return { capstan: spread(capstan), raw: spread(floor) };
}

function spread(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[sorted.length >> 1]!, max: sorted[sorted.length - 1]! };
}
