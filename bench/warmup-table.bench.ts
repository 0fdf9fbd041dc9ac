/**
 * The warm-up table's requests at 10,000 IPs × 5 groupings (file store), one at a time as the page sends them, each
 * the median and max of REPEATS: a page of `GET /status` (first after start, then the first sort by volume, warm,
 * sorted by volume right after a write, filtered) and page actions (a bulk pause of one row, of a 50-row page and of
 * a filter's 256 rows, each with the page reload the page does after it, and the undo). Baselines from the same run and process: raw `node:http` sending the same page
 * bytes already encoded, timed alternately with capstan, and the whole `GET /status` the page loaded before for every
 * action. Goal: every page and page action under 100 ms. The overview's one request (`GET /v1/overview`), first
 * after start and warm, against the same baselines.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { row, startServers } from './_http.ts';

const IPS = 10_000;
const GROUPINGS = ['&gmail', '&yahoo', '&outlook', '&icloud', '&other'];
const REPEATS = Number(process.env.BENCH_REPEATS) || 15;
const PAGE = 'limit=50';
const GOAL = 'goal < 100 ms';

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const ipOf = (i: number) => `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`;

/** In the server process: a host whose file store holds 10,000 IPs, filled through the store before start */
async function serve(): Promise<{ url: string }> {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { startHost, usePlugin } = await import('../runtime/mod.ts');
  const { createLogger } = await import('../runtime/observability/logger.ts');
  type Store = import('../runtime/mod.ts').ScheduleStore;
  const baseDir = mkdtempSync(join(tmpdir(), 'capstan-bench-table-'));
  const plugin = await usePlugin<Store>({ id: 'schedule-store-file' }, { baseDir });
  for (let i = 0; i < IPS; i += 500) {
    await Promise.all(
      Array.from({ length: Math.min(500, IPS - i) }, (_, j) => {
        const n = i + j;
        // Varied starts, volumes and intervals, so that sorting by day or volume has work to do
        const groupings = GROUPINGS.map((grouping, k) => ({
          grouping,
          mode: 'AUTO' as const,
          start: { date: day(-(n % 20)), volume: 100 + ((n * 7 + k) % 900) },
          end: { date: day(30 - (n % 20)), volume: 100_000 },
          paused: false,
          algorithm: 'TOKENBUCKET' as const,
          interval: k === 0 ? 3600 : 86400,
          properties: null,
        }));
        return plugin.service.put(ipOf(n), { groupings }, { expected: null });
      }),
    );
  }
  await plugin.close();
  const host = await startHost(
    {
      version: '6.10',
      servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
      plugins: [{ id: 'ip-schedule' }],
    },
    { baseDir, ephemeralPorts: true, log: createLogger({ service: 'bench', level: 'error' }) },
  );
  return { url: host.urls[0]! };
}

/** In the server process: raw node:http answering the given page's bytes, fetched once from capstan */
async function rawPage(address: string): Promise<string> {
  const bytes = Buffer.from(await (await fetch(address)).arrayBuffer());
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(bytes));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

if (process.argv.includes('--serve')) await startServers(import.meta.filename, serve, { calls: { rawPage } });
else await measure();

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function get(url: string): Promise<unknown> {
  const response = await fetch(url);
  const body = await response.text();
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}: ${body}`);
  return JSON.parse(body);
}

async function bulk(url: string, body: unknown): Promise<any> {
  const response = await fetch(`${url}/v1/schedules/bulk`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`POST /v1/schedules/bulk answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

function spread(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: Math.round(sorted[sorted.length >> 1]! * 10) / 10, max: Math.round(sorted[sorted.length - 1]!) };
}

async function measure() {
  console.log(
    `Warm-up table, ${IPS.toLocaleString('en')} IPs × ${GROUPINGS.length} groupings, file store; server in its own process; load average ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  const servers = (await startServers(import.meta.filename, serve))!;
  const { url } = servers.urls;
  try {
    const page = `${url}/status?${PAGE}&offset=25000`;
    // This process's first fetch loads undici (tens of ms): paid on /healthz, which reads no schedule, so that "first
    // after start" times the server
    await get(`${url}/healthz`);
    const cold = await timed(() => get(page));
    // The first sort by volume after start: every row's volume is worked out for it
    const coldSort = await timed(() => get(`${url}/status?${PAGE}&sort=volume&order=desc`));
    // The overview page's one request: today's and yesterday's plan of every record, for the last day hour by hour
    const coldOverview = await timed(() => get(`${url}/v1/overview`));
    const raw = await servers.call('rawPage', page);
    const warm: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      // Alternated, so that both see the same load of a shared machine
      if (i % 2 === 0) {
        warm.push(await timed(() => get(page)));
        floor.push(await timed(() => get(raw)));
      } else {
        floor.push(await timed(() => get(raw)));
        warm.push(await timed(() => get(page)));
      }
    }
    const whole: number[] = [];
    for (let i = 0; i < 3; i++) whole.push(await timed(() => get(`${url}/status`)));
    const overview: number[] = [];
    for (let i = 0; i < REPEATS; i++) overview.push(await timed(() => get(`${url}/v1/overview`)));

    const sortedAfterWrite: number[] = [];
    const filtered: number[] = [];
    const onePause: number[] = [];
    const pageAction: number[] = [];
    const undo: number[] = [];
    const filterPause: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      const ip = ipOf(i * 97);
      await bulk(url, { action: i % 2 === 0 ? 'pause' : 'resume', targets: [{ ip, grouping: '&gmail' }] });
      sortedAfterWrite.push(await timed(() => get(`${url}/status?${PAGE}&sort=volume&order=desc`)));
      filtered.push(await timed(() => get(`${url}/status?${PAGE}&q=${encodeURIComponent(`10.0.${i}.`)}%20gmail`)));
      // What the page does for a row's Pause: the bulk write, then its current page again
      onePause.push(
        await timed(async () => {
          await bulk(url, { action: 'pause', targets: [{ ip: ipOf(5000 + i), grouping: '&yahoo' }] });
          await get(`${url}/status?${PAGE}&offset=100`);
        }),
      );
      const rows = (
        (await get(`${url}/status?${PAGE}&offset=${1000 + i * 50}`)) as { rows: { ip: string; grouping: string }[] }
      ).rows;
      let answer: any;
      pageAction.push(
        await timed(async () => {
          answer = await bulk(url, { action: 'pause', targets: rows.map(({ ip, grouping }) => ({ ip, grouping })) });
          await get(`${url}/status?${PAGE}&offset=${1000 + i * 50}`);
        }),
      );
      if (answer.changed.length !== 50) throw new Error(`the page's pause changed ${answer.changed.length} rows`);
      undo.push(
        await timed(async () => {
          await bulk(url, answer.undo);
          await get(`${url}/status?${PAGE}&offset=${1000 + i * 50}`);
        }),
      );
      // "Select all matching" on a /24 and one grouping, then Pause: the page sends the filter, not the rows
      const range = { q: `10.0.${20 + i}.0/24`, grouping: '&outlook' };
      const query = `${PAGE}&q=${encodeURIComponent(range.q)}&grouping=${encodeURIComponent(range.grouping)}`;
      filterPause.push(
        await timed(async () => {
          answer = await bulk(url, { action: 'pause', filter: range });
          await get(`${url}/status?${query}`);
        }),
      );
      if (answer.changed.length !== 256) throw new Error(`the filter's pause changed ${answer.changed.length} rows`);
      await bulk(url, answer.undo);
    }
    const w = spread(warm);
    const f = spread(floor);
    const all = spread(whole);
    const show = (name: string, times: number[]) => {
      const s = spread(times);
      row(
        name,
        `median ${s.median} ms`,
        `max ${s.max}; ×${(s.median / f.median).toFixed(1)} raw page, ${((s.median / all.median) * 100).toFixed(1)} % of whole /status   (${GOAL})`,
      );
    };
    row('raw node:http, the same page bytes', `median ${f.median} ms`, `max ${f.max}`);
    row('whole GET /status (the old page, per action)', `median ${all.median} ms`, `max ${all.max}`);
    row('page of GET /status, first after start', `${Math.round(cold)} ms`, `(${GOAL})`);
    row('page sorted by volume, first sort after start', `${Math.round(coldSort)} ms`, `(${GOAL})`);
    row(
      'page of GET /status, warm',
      `median ${w.median} ms`,
      `max ${w.max}; ×${(w.median / f.median).toFixed(1)} raw page   (${GOAL})`,
    );
    row('GET /v1/overview, first after start', `${Math.round(coldOverview)} ms`, `(${GOAL})`);
    show('GET /v1/overview (the overview page), warm', overview);
    show('page sorted by volume, after a write', sortedAfterWrite);
    show('page filtered (q)', filtered);
    show('action: pause one row + page reload', onePause);
    show('action: pause a 50-row page + reload', pageAction);
    show('action: undo of that + reload', undo);
    show("action: pause a filter's 256 rows + reload", filterPause);
  } finally {
    servers.stop();
  }
}
