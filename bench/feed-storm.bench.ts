/**
 * Policy feed reconnect storm: 500 clients connecting at once to a state of 50,000 policies (50 IPs × 1,000 running
 * groupings), all reading until SYNCED. The host runs in a process of its own and measures its event loop
 * (`monitorEventLoopDelay`: the longest stall) and its resident memory (sampled every 20 ms: peak, and after the
 * clients have left); the clients run in this one. Baseline, same run: one client's replay alone, and the storm's
 * time against 500 of those one after another. Goal: longest stall under 100 ms, resident memory under the
 * documented bound (docs/policy-feed.md). `BENCH_CLIENTS` and `BENCH_IPS` (× 1,000 policies) scale it down.
 *
 * The clients speak WebSocket over raw sockets and walk the frames without parsing their JSON (answering pings as
 * the MTA does; `test/ip-schedule/_raw-feed-client.ts`): 500 parsing clients would need far more CPU than the host
 * and measure themselves. Each must get the same replay (its digest), and a few MTA-like clients
 * (`test/ip-schedule/_mta-client.ts`) join the storm and must end with the state `GET /v1/policies` answers.
 */
import { availableParallelism, loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { MtaClient } from '../test/ip-schedule/_mta-client.ts';
import { rawFeedClient, type RawReplay } from '../test/ip-schedule/_raw-feed-client.ts';
import { row, startServers } from './_http.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS) || 500;
const IPS = Number(process.env.BENCH_IPS) || 50;
const PER_IP = 1000;
/** MTA-like clients among the storm's, checked for the exact state */
const CHECKED = 3;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const groupings = JSON.stringify({
  groupings: Array.from({ length: PER_IP }, (_, i) => ({
    grouping: `&g${i}`,
    mode: 'AUTO',
    start: { date: day(-1), volume: 100 + i },
    end: { date: day(10), volume: 100_000 },
  })),
});

/**
 * The host's figures since the last `reset`. On a machine shared with other work a process also waits for a CPU, which
 * `monitorEventLoopDelay` counts as a stall; a timer probe firing every millisecond also notes the CPU time the
 * process used between two firings, which is the loop's own work (plus GC threads), not the machine's
 */
interface HostFigures {
  stallMs: number;
  p99Ms: number;
  busyMs: number;
  cpuS: number;
  rssMb: number;
  peakRssMb: number;
}

const cpuSeconds = ({ user, system }: NodeJS.CpuUsage) => (user + system) / 1e6;

/** In the server process: a host serving ip-schedule, which measures its own event loop and memory */
async function serve(): Promise<{ url: string }> {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const { startHost } = await import('../runtime/mod.ts');
  const { createLogger } = await import('../runtime/observability/logger.ts');
  const host = await startHost(
    {
      version: '6.10',
      servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
      plugins: [{ id: 'ip-schedule' }],
    },
    {
      baseDir: mkdtempSync(join(tmpdir(), 'capstan-bench-storm-')),
      ephemeralPorts: true,
      log: createLogger({ service: 'bench', level: 'error' }),
    },
  );
  return { url: host.urls[0]! };
}

const delay = monitorEventLoopDelay({ resolution: 5 });
let peakRss = 0;
let busy = 0;
let cpuAtReset = process.cpuUsage();
const hostCalls = {
  async reset() {
    cpuAtReset = process.cpuUsage();
    delay.reset();
    delay.enable();
    peakRss = process.memoryUsage.rss();
    busy = 0;
    return '';
  },
  async figures() {
    const mb = (bytes: number) => bytes / 2 ** 20;
    const figures: HostFigures = {
      stallMs: delay.max / 1e6,
      p99Ms: delay.percentile(99) / 1e6,
      busyMs: busy,
      cpuS: cpuSeconds(process.cpuUsage(cpuAtReset)),
      rssMb: mb(process.memoryUsage.rss()),
      peakRssMb: mb(peakRss),
    };
    return JSON.stringify(figures);
  },
};
if (process.argv.includes('--serve')) {
  setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 20).unref();
  let cpu = process.cpuUsage();
  setInterval(() => {
    const now = process.cpuUsage();
    busy = Math.max(busy, (now.user - cpu.user + now.system - cpu.system) / 1000);
    cpu = now;
  }, 1).unref();
  await startServers(import.meta.filename, serve, { calls: hostCalls });
} else {
  await measure();
}

async function measure() {
  const servers = (await startServers(import.meta.filename, serve, { calls: hostCalls }))!;
  try {
    const { url } = servers.urls;
    const feed = `${url.replace('http', 'ws')}/v1/policies/feed`;
    for (let n = 0; n < IPS; n++) {
      const response = await fetch(`${url}/config/10.0.${n >> 8}.${n & 255}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: groupings,
      });
      if (!response.ok) throw new Error(`POST answered ${response.status}: ${await response.text()}`);
    }
    const expected = await (await fetch(`${url}/v1/policies`)).text();
    const host = async (): Promise<HostFigures> => JSON.parse(await servers.call('figures', ''));
    console.log(`Policy feed reconnect storm: ${CLIENTS} clients at once, ${IPS * PER_IP} policies`);

    await servers.call('reset', '');
    const first = rawFeedClient(feed);
    const single = await first.synced;
    first.close();
    const alone = await host();

    await new Promise((done) => setTimeout(done, 500));
    await servers.call('reset', '');
    const before = await host();
    const started = performance.now();
    const clientCpu = process.cpuUsage();
    const checked = Array.from({ length: CHECKED }, () => new MtaClient(feed, { keepFrames: false }));
    const raw = Array.from({ length: CLIENTS - CHECKED }, () => rawFeedClient(feed));
    const checkedSynced = checked.map(async (client): Promise<RawReplay> => {
      await client.start(600_000);
      return { ...single, ms: performance.now() - started };
    });
    // A client whose socket the host could not write to for a ping interval is cut off (as the MTA would be): on a
    // machine short of CPU this process can fall that far behind; such clients are counted, not waited for
    const settled = await Promise.allSettled(raw.map((client) => client.synced));
    const cut = settled.filter((r) => r.status === 'rejected').length;
    const replays = [
      ...settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])),
      ...(await Promise.all(checkedSynced)),
    ];
    const all = performance.now() - started;
    const clientCpuS = cpuSeconds(process.cpuUsage(clientCpu));
    const during = await host();
    for (const client of raw) client.close();
    await Promise.all(checked.map((client) => client.stop()));
    const wrong = checked.filter((c) => c.errors.length > 0 || JSON.stringify(c.state()) !== expected).length;
    if (replays.some((r) => r.digest !== single.digest)) throw new Error('a client got another replay than the first');
    await new Promise((done) => setTimeout(done, 2000));
    const after = await host();

    const times = replays.map((r) => r.ms).sort((a, b) => a - b);
    row('one client alone: replay (baseline)', `${single.ms.toFixed(0)} ms`, `${single.frames} frames`);
    row(
      `${CLIENTS} clients: all SYNCED`,
      `${(all / 1000).toFixed(1)} s`,
      `×${(all / (CLIENTS * single.ms)).toFixed(2)} the baseline × ${CLIENTS} one after another; median client ${(times[times.length >> 1]! / 1000).toFixed(1)} s`,
    );
    row(
      'host: longest event-loop stall',
      `${during.stallMs.toFixed(1)} ms`,
      `p99 ${during.p99Ms.toFixed(1)} ms (goal: longest < 100 ms; alone ${alone.stallMs.toFixed(1)} ms)`,
    );
    row(
      'host: most CPU time between two 1 ms ticks',
      `${during.busyMs.toFixed(1)} ms`,
      `alone ${alone.busyMs.toFixed(1)} ms (the loop's own work, whatever the machine's load)`,
    );
    row(
      'host: resident memory',
      `${during.peakRssMb.toFixed(0)} MiB peak`,
      `${before.rssMb.toFixed(0)} MiB before, ${after.rssMb.toFixed(0)} MiB 2 s after the clients left`,
    );
    row(
      'CPU time during the storm',
      `host ${during.cpuS.toFixed(1)} s`,
      `clients ${clientCpuS.toFixed(1)} s (load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`,
    );
    row(
      'clients cut off before SYNCED',
      `${cut} of ${CLIENTS - CHECKED}`,
      cut > 0 ? 'no answer to a ping: this process fell behind' : '',
    );
    row('MTA-like clients with the exact state', `${CHECKED - wrong} of ${CHECKED}`);
    if (wrong > 0) process.exitCode = 1;
  } finally {
    servers.stop();
  }
}
