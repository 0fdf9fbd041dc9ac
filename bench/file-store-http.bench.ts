/**
 * The embedded file store's write cost through HTTP, as the warm-up page and the API's clients see it: new IPs of 5
 * AUTO groupings each (`POST /config/<ip>`), 16 clients at once, on a host serving `ip-schedule` over the file store
 * (a process of its own), until it holds 1,000, 10,000 and 50,000 IPs. At each size: new IPs/s and per-write p99 over
 * the last 1,000 writes before it, and the server's RSS. Baseline in the same run: the same requests answered by raw
 * `node:http` that reads the body and appends it to a file with one fdatasync per group of writes waiting (the floor
 * of a durable HTTP write). Also the writes per fdatasync of the server process (every `FileHandle.datasync` counted):
 * how many concurrent HTTP writes a group commit takes in, each with its audit entry.
 * Goal (issue 24): at least 500 new IPs/s and p99 under 50 ms at 10,000 IPs, RSS bounded.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { groupCommit, groupingsOf, ipOf, SIZES, timeWrites, WINDOW } from './_file-store.ts';
import { row, startServers } from './_http.ts';

const CLIENTS = 16;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const body = (n: number) => JSON.stringify({ groupings: groupingsOf(n, day(-1), day(28)) });

type Urls = { capstan: string; raw: string };

/** fdatasyncs of the server process so far */
let syncs = 0;

async function serve(): Promise<Urls> {
  const { mkdtempSync } = await import('node:fs');
  const { open } = await import('node:fs/promises');
  const { tmpdir } = await import('node:os');
  const handle = await open(import.meta.filename, 'r');
  const prototype = Object.getPrototypeOf(handle) as { datasync: () => Promise<void> };
  await handle.close();
  const datasync = prototype.datasync;
  prototype.datasync = function (this: unknown) {
    syncs++;
    return datasync.call(this);
  };
  const { startHost } = await import('../runtime/mod.ts');
  const { createLogger } = await import('../runtime/observability/logger.ts');
  const host = await startHost(
    {
      version: '6.10',
      servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
      plugins: [{ id: 'ip-schedule' }],
    },
    {
      baseDir: mkdtempSync(join(tmpdir(), 'capstan-bench-fsh-')),
      ephemeralPorts: true,
      log: createLogger({ service: 'bench', level: 'error' }),
    },
  );
  // The floor of a durable HTTP write, for the ratio: the body appended as it is, one fdatasync for the writes waiting
  const file = await open(join(mkdtempSync(join(tmpdir(), 'capstan-bench-fsh-raw-')), 'log'), 'a');
  const append = groupCommit<Buffer>(async (group) => {
    await file.write(Buffer.concat(group));
    await file.datasync();
  });
  const raw = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req
      .on('data', (c: Buffer) => chunks.push(c))
      .on('end', () => {
        const parsed = JSON.parse(Buffer.concat(chunks).toString());
        void append(Buffer.from(`${JSON.stringify({ ip: req.url, record: parsed })}\n`)).then(() =>
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success"}'),
        );
      });
  });
  await new Promise<void>((done) => raw.listen(0, '127.0.0.1', done));
  return { capstan: host.urls[0]!, raw: `http://127.0.0.1:${(raw.address() as AddressInfo).port}` };
}

const rss = async () => String(process.memoryUsage().rss / 2 ** 20);
const calls = { rss, syncs: async () => String(syncs) };

if (process.argv.includes('--serve')) await startServers(import.meta.filename, serve, { calls });
else await measure();

/** Writes IPs `from` to `to - 1` through `POST /config/<ip>` of `url`, CLIENTS at once */
function run(url: string, from: number, to: number) {
  return timeWrites(
    CLIENTS,
    async (n) => {
      const response = await fetch(`${url}/config/${ipOf(n)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body(n),
      });
      if (!response.ok)
        throw new Error(`POST /config/${ipOf(n)} answered ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    },
    from,
    to,
  );
}

async function measure() {
  const servers = (await startServers(import.meta.filename, serve, { calls }))!;
  try {
    console.log(
      `HTTP POST /config/<ip> (5 groupings), ${CLIENTS} clients; rate and p99 over the last ${WINDOW} writes before each size,`,
    );
    console.log(`and of ${WINDOW} writes to raw node:http right before them (a shared disk's fdatasync time moves)`);
    let size = 0;
    let rawNext = 0;
    for (const target of SIZES) {
      if (target - WINDOW > size) await run(servers.urls.capstan, size, target - WINDOW);
      const floor = await run(servers.urls.raw, rawNext, (rawNext += WINDOW));
      const before = Number(await servers.call('syncs', ''));
      const figure = await run(servers.urls.capstan, target - WINDOW, target);
      const perSync = WINDOW / (Number(await servers.call('syncs', '')) - before);
      size = target;
      const mib = Number(await servers.call('rss', ''));
      row(
        `raw node:http, append + fdatasync per group`,
        `${Math.round(floor.rate)} IPs/s`,
        `p99 ${floor.p99.toFixed(1)} ms`,
      );
      row(
        `file store at ${target.toLocaleString('en')} IPs`,
        `${Math.round(figure.rate)} IPs/s`,
        `p99 ${figure.p99.toFixed(1)} ms; RSS ${Math.round(mib)} MiB; ${perSync.toFixed(1)} writes/fdatasync; ` +
          `ratio to raw ${(figure.rate / floor.rate).toFixed(2)}   (goal at 10,000: ≥ 500/s, p99 < 50 ms)`,
      );
    }
  } finally {
    servers.stop();
  }
}
