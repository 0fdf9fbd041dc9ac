/**
 * Reconnect storms on a large state, the host (`capstan serve`) in a child process: many MTA clients connecting at
 * once all reach SYNCED with the state `GET /v1/policies` answers while `/healthz` keeps answering quickly; writes
 * made while replays are being written are answered quickly and reach every client in order; clients that never read
 * are dropped and cost the host little memory meanwhile (the replay is shared and written only as each socket drains)
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../host/_fixtures.ts';
import { kill9, rssMb, serve, writeStartupDocument } from './_child.ts';
import { MtaClient } from './_mta-client.ts';
import { rawFeedClient } from './_raw-feed-client.ts';
import { autoGrouping, utcDate } from './_host.ts';

/** Policies per IP: the most groupings an IP may have */
const PER_IP = 1000;
const grouping = (i: number, volume = 100) => autoGrouping(`&g${i}`, [utcDate(-1), volume + i], [utcDate(10), 100_000]);
const groupings = (volume?: number, count = PER_IP) => Array.from({ length: count }, (_, i) => grouping(i, volume));
const ipOf = (n: number) => `10.0.${n >> 8}.${n & 255}`;

interface Host {
  pid: number;
  url: string;
  feed: string;
  call(method: string, path: string, body?: unknown): Promise<{ status: number; ms: number; text: string }>;
  /** `capstan_feed_clients`, and `capstan_feed_clients_dropped_total` by reason */
  feedMetrics(): Promise<{ clients: number; dropped: Record<string, number> }>;
}

/** A host with `ips` × 1000 running schedules (as many policies), serving `config` as the ip-schedule config */
async function withHost(
  ips: number,
  config: Record<string, unknown>,
  body: (host: Host) => Promise<void>,
): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'capstan-storm-'));
  const { child, url } = await serve(await writeStartupDocument(folder, await freePort(), [], config));
  try {
    const call = async (method: string, path: string, json?: unknown) => {
      const started = performance.now();
      const response = await fetch(url + path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: json === undefined ? undefined : JSON.stringify(json),
      });
      const text = await response.text();
      return { status: response.status, ms: performance.now() - started, text };
    };
    for (let n = 0; n < ips; n++)
      assert.is((await call('POST', `/config/${ipOf(n)}`, { groupings: groupings() })).status, 200);
    const feedMetrics = async () => {
      const text = (await call('GET', '/metrics')).text;
      const dropped: Record<string, number> = {};
      for (const [, reason, count] of text.matchAll(
        /^capstan_feed_clients_dropped_total\{reason="(\w+)",plugin="ip-schedule"\} (\d+)$/gm,
      ))
        dropped[reason!] = Number(count);
      return { clients: Number(/^capstan_feed_clients\{plugin="ip-schedule"\} (\d+)$/m.exec(text)![1]), dropped };
    };
    await body({ pid: child.pid!, url, feed: `${url.replace('http', 'ws')}/v1/policies/feed`, call, feedMetrics });
  } finally {
    await kill9(child);
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * Times `/healthz` one request after another, from a process of its own (this one is busy with what the clients
 * receive), until `stop()` is called; answers the slowest. Resolves once the probe has made a first request (fetch's
 * first use costs it hundreds of milliseconds on a busy machine, which is not the host's)
 */
async function probeHealth(host: Host): Promise<{ stop(): Promise<number> }> {
  const probe = spawn(
    process.execPath,
    [
      '-e',
      `
    let slowest = 0, stopping = false;
    process.on('message', () => (stopping = true));
    const healthz = async () => {
      const started = performance.now();
      const response = await fetch(${JSON.stringify(host.url)} + '/healthz');
      await response.text();
      if (response.status !== 200) throw new Error('/healthz answered ' + response.status);
      return performance.now() - started;
    };
    (async () => {
      await healthz();
      process.send('ready');
      while (!stopping) {
        slowest = Math.max(slowest, await healthz());
        await new Promise((next) => setTimeout(next, 10));
      }
      process.send(slowest, () => process.exit(0));
    })();`,
    ],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const answers: unknown[] = [];
  const waiting: ((answer: unknown) => void)[] = [];
  probe.on('message', (answer) => (waiting.shift() ?? ((a) => answers.push(a)))(answer));
  const exited = new Promise<never>((_, fail) =>
    probe.once('exit', (code) => fail(new Error(`the /healthz probe exited with "${code}"`))),
  );
  exited.catch(() => {});
  const next = () =>
    Promise.race([
      answers.length > 0 ? Promise.resolve(answers.shift()) : new Promise((done) => waiting.push(done)),
      exited,
    ]);
  await next();
  let stopped: Promise<number> | undefined;
  return {
    stop() {
      if (!stopped) {
        if (probe.connected) probe.send('stop');
        stopped = next() as Promise<number>;
      }
      return stopped;
    },
  };
}

/**
 * Every client holds exactly the state the host answers, and saw nothing the real client would reject. A last write
 * (a new IP) marks the end: changes arrive in order, so a client holding it has every change before it
 */
async function assertConverged(host: Host, clients: MtaClient[]): Promise<void> {
  const marker = '10.0.255.255';
  assert.is((await host.call('POST', `/config/${marker}`, { groupings: [grouping(0)] })).status, 200);
  const expected = (await host.call('GET', '/v1/policies')).text;
  for (const [index, client] of clients.entries()) {
    await client.until(() => client.policies.has(`warmup:${marker}:&g0`), 60_000, 'the last write');
    assert.equal(client.errors, [], `client ${index}`);
    assert.ok(
      JSON.stringify(client.state()) === expected,
      `client ${index} holds the host's state (${client.policies.size} policies)`,
    );
  }
}

test('200 clients reconnecting at once to 10,000 policies all get the same state while /healthz answers within 1 s', async () => {
  await withHost(10, {}, async (host) => {
    // Most clients only walk the frames (this process could not parse for 200 MTAs); a few check the state exactly
    const checked = Array.from({ length: 5 }, () => new MtaClient(host.feed, { keepFrames: false }));
    const probe = await probeHealth(host);
    const raw = Array.from({ length: 195 }, () => rawFeedClient(host.feed));
    try {
      const [replays] = await Promise.all([
        Promise.all(raw.map((c) => c.synced)),
        ...checked.map((c) => c.start(60_000)),
      ]);
      const slowest = await probe.stop();
      assert.equal(
        new Set(replays.map((r) => `${r.frames} frames, ${r.digest}`)),
        new Set([`${10_000 + 2} frames, ${replays[0]!.digest}`]),
      );
      await assertConverged(host, checked);
      assert.ok(slowest < 1000, `slowest /healthz during the storm: ${slowest.toFixed(0)} ms`);
    } finally {
      await probe.stop().catch(() => {});
      for (const client of raw) client.close();
      await Promise.all(checked.map((c) => c.stop()));
    }
  });
});

test('writes during replays reach every client in order, those connecting after them too, while /healthz answers within 1 s', async () => {
  await withHost(5, {}, async (host) => {
    const first = Array.from({ length: 50 }, () => new MtaClient(host.feed, { keepFrames: false }));
    const second = Array.from({ length: 50 }, () => new MtaClient(host.feed, { keepFrames: false }));
    const write = async (method: string, path: string, body?: unknown) =>
      assert.is((await host.call(method, path, body)).status, 200, `${method} ${path}`);
    // The writes change IPs of 20 groupings: a write of 1,000 takes the host long enough to be seen at /healthz
    const small = (n: number) => ipOf(100 + n);
    for (let n = 0; n < 5; n++) await write('POST', `/config/${small(n)}`, { groupings: groupings(100, 20) });
    const probe = await probeHealth(host);
    try {
      // Whether they get there is asserted at the end
      for (const client of first) client.start(60_000).catch(() => {});
      // Each kind of change: UPDATEs of a whole IP, a grouping's DELETE, a hold's CREATE before its IP's DELETEs, an IP
      // gone, a new one
      await write('PUT', `/config/${small(0)}`, { groupings: groupings(200, 20) });
      assert.ok(
        first.some((c) => c.syncs === 0),
        'the first write came while replays were being written',
      );
      await write('PUT', `/config/${small(1)}/%26g1/pause`);
      await write('PUT', `/config/${small(2)}/pause`);
      for (const client of second) client.start(60_000).catch(() => {});
      await write('DELETE', `/config/${small(3)}`);
      await write('POST', `/config/${small(5)}`, { groupings: [grouping(0)] });
      assert.ok(
        second.some((c) => c.syncs === 0),
        'the last write came while the second replays were being written',
      );
      await write('PUT', `/config/${small(4)}`, { groupings: groupings(300, 20) });
      await write('PUT', `/config/${small(2)}/resume`);
      await assertConverged(host, [...first, ...second]);
      const slowest = await probe.stop();
      assert.ok(slowest < 1000, `slowest /healthz during the replays and writes: ${slowest.toFixed(0)} ms`);
    } finally {
      await probe.stop().catch(() => {});
      await Promise.all([...first, ...second].map((c) => c.stop()));
    }
  });
});

test('clients that never read are dropped during their replay, holding little memory meanwhile', async () => {
  // 20,000 policies are a 5 MB replay, more than the kernel takes into a socket nobody reads. Pings are rare so that
  // only the byte bound can drop a deaf client here (a loaded machine once dropped 33 of 40 for a missed ping first)
  await withHost(20, { feed: { maxBufferedBytes: 65536, pingInterval: 60 } }, async (host) => {
    const reader = new MtaClient(host.feed, { keepFrames: false });
    const deaf: ReturnType<typeof rawFeedClient>[] = [];
    try {
      await reader.start(30_000);
      const before = await rssMb(host.pid);
      for (let i = 0; i < 40; i++) deaf.push(rawFeedClient(host.feed, { read: false }));
      let peak = before;
      const sample = setInterval(() => void rssMb(host.pid).then((mb) => (peak = Math.max(peak, mb))), 20);
      try {
        await new Promise((next) => setTimeout(next, 1000));
        // Changes of 250 KB each: the deaf clients queue the first (a change is never split) and are dropped at the
        // second
        assert.is((await host.call('PUT', `/config/${ipOf(0)}`, { groupings: groupings(200) })).status, 200);
        assert.is((await host.call('PUT', `/config/${ipOf(0)}`, { groupings: groupings(300) })).status, 200);
        const deadline = Date.now() + 10_000;
        while ((await host.feedMetrics()).clients > 1 && Date.now() < deadline)
          await new Promise((next) => setTimeout(next, 100));
      } finally {
        clearInterval(sample);
      }
      const { clients, dropped } = await host.feedMetrics();
      assert.is(clients, 1, 'only the reader is left');
      assert.is(dropped.slow_reader, 40, 'each deaf client was dropped for being too far behind');
      const after = await rssMb(host.pid);
      assert.ok(
        peak - before < 40,
        `40 deaf clients on a 5 MB replay: rss ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB (bound +40 MB)`,
      );
      assert.ok(
        after - before < 40,
        `rss after they were dropped: ${after.toFixed(0)} MB (before ${before.toFixed(0)} MB)`,
      );
      await assertConverged(host, [reader]);
    } finally {
      for (const client of deaf) client.close();
      await reader.stop();
    }
  });
});

test.run();
