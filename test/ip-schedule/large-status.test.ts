import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { autoGrouping, withScheduleHost, type ScheduleHost } from './_host.ts';

/** `count` AUTO groupings of `days` days each, from 2025-01-01 */
const groupingsOf = (count: number, days: number) =>
  Array.from({ length: count }, (_, i) =>
    autoGrouping(
      `&g${i}`,
      ['2025-01-01', 1],
      [new Date(Date.UTC(2025, 0, days)).toISOString().slice(0, 10), 1_000_000],
    ),
  );

/**
 * Fetches `path` (a large answer) and meanwhile times small requests one after another; answers the large answer's
 * size and duration and the slowest small request. The answer is counted, not kept: collecting tens of megabytes
 * would be the test's own stall
 */
async function smallLatencyDuring(host: ScheduleHost, path: string, small: string) {
  let done = false;
  let slowest = 0;
  let smalls = 0;
  const started = performance.now();
  const large = fetch(host.url + path).then(async (response) => {
    let bytes = 0;
    for await (const chunk of response.body!) bytes += chunk.byteLength;
    done = true;
    return { status: response.status, bytes, ms: performance.now() - started };
  });
  while (!done) {
    const sent = performance.now();
    const response = await fetch(host.url + small);
    await response.arrayBuffer();
    assert.is(response.status, 200);
    slowest = Math.max(slowest, performance.now() - sent);
    smalls++;
  }
  return { ...(await large), slowest, smalls };
}

/**
 * Whether no small request waited on the large one: had it blocked the event loop, a small request would wait out
 * most of its encoding. Relative to the large answer's time, since a machine busy with other work slows both
 */
const unstalled = ({ ms, slowest }: { ms: number; slowest: number }) => slowest < Math.max(250, ms / 3);

test('small requests are not stalled when GET /status sends tens of megabytes meanwhile', async () => {
  await withScheduleHost({ checkResponses: false }, async (host) => {
    await host.call('POST', '/config/192.0.2.1', { groupings: groupingsOf(1, 3) });
    for (let i = 0; i < 40; i++)
      assert.is((await host.call('POST', `/config/10.0.0.${i}`, { groupings: groupingsOf(20, 1000) })).status, 200);
    const timing = await smallLatencyDuring(host, '/status', '/status/192.0.2.1/%26g0');
    const { status, bytes, ms, slowest, smalls } = timing;
    assert.is(status, 200);
    assert.ok(bytes > 30e6, `${bytes} bytes`);
    assert.ok(
      unstalled(timing),
      `slowest small request ${slowest.toFixed(0)} ms of ${smalls} while GET /status took ${ms.toFixed(0)} ms`,
    );
  });
});

test('small requests are not stalled when GET /status/<ip> sends a record stored before the limit', async () => {
  // Files written before the per-IP limit may hold more than an IP may now be given: their status is still served
  const folder = await mkdtemp(join(tmpdir(), 'capstan-ips-'));
  const stored = (count: number, days: number) => ({
    groupings: groupingsOf(count, days).map((g) => ({
      ...g,
      paused: false,
      algorithm: 'TOKENBUCKET',
      interval: 86400,
      properties: null,
    })),
  });
  const ips = {
    '192.0.2.1': { record: stored(1, 3), version: 1 },
    '192.0.2.2': { record: stored(1000, 1000), version: 2 },
  };
  await mkdir(join(folder, 'var', 'schedule-store-file'), { recursive: true });
  await writeFile(
    join(folder, 'var', 'schedule-store-file', 'schedules.json'),
    JSON.stringify({ format: 1, sequence: 2, ips }),
  );
  try {
    await withScheduleHost({ checkResponses: false, folder }, async (host) => {
      const timing = await smallLatencyDuring(host, '/status/192.0.2.2', '/status/192.0.2.1/%26g0');
      const { status, bytes, ms, slowest, smalls } = timing;
      assert.is(status, 200);
      assert.ok(bytes > 40e6, `${bytes} bytes`);
      assert.ok(
        unstalled(timing),
        `slowest small request ${slowest.toFixed(0)} ms of ${smalls} while GET /status/<ip> took ${ms.toFixed(0)} ms`,
      );
    });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

test.run();
