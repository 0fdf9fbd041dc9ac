/**
 * Soak, bounded: 500 feed clients on one host (`capstan serve` in a child process), a schedule change every second for
 * 8 seconds, 10 clients dropping and reconnecting every other second. Every client holds every change within a second
 * of it, all end with what `GET /v1/policies` answers, and the host's resident memory grows by less than 48 MiB from
 * the moment the clients are connected to the end (it holds 500 sockets' buffers; growth without bound would show)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '../_deadline.ts';
import * as assert from 'uvu/assert';
import { freePort } from '../host/_fixtures.ts';
import { kill9, rssMb, serve, writeStartupDocument } from './_child.ts';
import { MtaClient } from './_mta-client.ts';
import { autoGrouping, utcDate } from './_host.ts';

const CLIENTS = 500;
const CHANGES = 8;
const RSS_BOUND_MB = 48;

test(`${CLIENTS} clients converge on every change and the host's memory stays flat`, async () => {
  const folder = await mkdtemp(join(tmpdir(), 'capstan-soak-'));
  const { child, url } = await serve(await writeStartupDocument(folder, await freePort()));
  const clients: MtaClient[] = [];
  try {
    const call = (method: string, path: string, body?: unknown) =>
      fetch(url + path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    // 20 groupings to replay; a change moves the first one's volume only: one UPDATE per client
    const groupings = (volume: number) =>
      Array.from({ length: 20 }, (_, i) =>
        autoGrouping(`&g${i}`, [utcDate(0), i === 0 ? volume : 100 + i], [utcDate(29), 100_000]),
      );
    assert.is((await call('POST', '/config/192.0.2.1', { groupings: groupings(100) })).status, 200);
    const feed = `${url.replace('http', 'ws')}/v1/policies/feed`;
    for (let i = 0; i < CLIENTS; i++) clients.push(new MtaClient(feed, { keepFrames: false, reconnectMs: 200 }));
    await Promise.all(clients.map((c) => c.start(20_000)));
    const before = await rssMb(child.pid!);
    const latencies: number[] = [];
    let peak = before;
    for (let change = 1; change <= CHANGES; change++) {
      const started = performance.now();
      const volume = 100 + change;
      assert.is((await call('PUT', '/config/192.0.2.1', { groupings: groupings(volume) })).status, 200);
      const count = (c: MtaClient) =>
        (c.policies.get('warmup:192.0.2.1:&g0')?.then.rate as { count: number } | undefined)?.count;
      if (change % 2 === 0) for (const client of clients.slice(change * 10, change * 10 + 10)) client.drop();
      await Promise.all(clients.map((c) => c.until(() => count(c) === volume, 3000, `change ${change}`)));
      latencies.push(performance.now() - started);
      peak = Math.max(peak, await rssMb(child.pid!));
      await new Promise((done) => setTimeout(done, Math.max(0, 1000 - (performance.now() - started))));
    }
    const expected = await (await call('GET', '/v1/policies')).json();
    await Promise.all(
      clients.map((c) =>
        c.until(() => JSON.stringify(c.state()) === JSON.stringify(expected), 3000, 'the final state'),
      ),
    );
    const after = await rssMb(child.pid!);
    console.log(
      `soak: rss ${before.toFixed(1)} MB after connecting, peak ${peak.toFixed(1)}, end ${after.toFixed(1)}; change → all ${CLIENTS} clients: ${latencies.map((l) => l.toFixed(0)).join(', ')} ms`,
    );
    assert.ok(
      Math.max(...latencies) < 1000,
      `every change reached every client within a second (${latencies.map((l) => l.toFixed(0)).join(', ')} ms)`,
    );
    assert.ok(peak - before < RSS_BOUND_MB, `rss grew ${(peak - before).toFixed(1)} MB (bound ${RSS_BOUND_MB} MB)`);
    assert.equal(
      clients.flatMap((c) => c.errors),
      [],
    );
    assert.ok(clients.filter((c) => c.syncs > 1).length >= 30, 'the dropped clients resynced');
  } finally {
    await Promise.all(clients.map((c) => c.stop()));
    await kill9(child);
    await rm(folder, { recursive: true, force: true });
  }
});

test.run();
