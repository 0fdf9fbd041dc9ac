import { watch } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { freePort } from '../host/_fixtures.ts';
import { kill9, serve, writeStartupDocument } from './_child.ts';

const WRITERS = 16;
const ROUNDS = 2;

/** What a write stored: an IP created with a grouping whose start volume encodes the write */
const body = (n: number) => ({
  groupings: [
    {
      grouping: '&g',
      mode: 'AUTO',
      start: { date: '2025-01-01', volume: n + 1 },
      end: { date: '2025-01-10', volume: n + 100 },
    },
  ],
});
const ipOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

test('every acknowledged write survives when the host is killed with SIGKILL during a stream of writes', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'capstan-crash-'));
  const config = await writeStartupDocument(folder, await freePort());
  const acknowledged = new Set<number>();
  const refused: string[] = [];
  let next = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const { child, url } = await serve(config);
    let stop = false;
    const writer = async () => {
      while (!stop) {
        const n = next++;
        let response: Response;
        try {
          response = await fetch(`${url}/config/${ipOf(n)}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body(n)),
          });
        } catch {
          return; // the host died mid-request: not acknowledged
        }
        // Outside the try, so it cannot pass for a dead host: a live host must acknowledge every write
        if (response.status === 200) acknowledged.add(n);
        else refused.push(`write ${n} answered ${response.status}`);
      }
    };
    const writers = Array.from({ length: WRITERS }, writer);
    const before = acknowledged.size;
    await new Promise((r) => setTimeout(r, 150 + Math.random() * 250));
    // On a loaded machine the first write may not be in yet: kill only once the store file exists
    for (let waited = 0; acknowledged.size === before && waited < 10_000; waited += 20)
      await new Promise((r) => setTimeout(r, 20));
    await kill9(child);
    stop = true;
    await Promise.all(writers);
    assert.equal(refused, [], 'every write a live host answered was acknowledged');

    const restarted = await serve(config);
    const stored = (await (await fetch(`${restarted.url}/config`)).json()).ips as Record<
      string,
      { groupings: { start: { volume: number } }[] }
    >;
    for (const n of acknowledged) {
      assert.ok(stored[ipOf(n)], `acknowledged write ${n} lost after kill ${round + 1}`);
      assert.is(stored[ipOf(n)]!.groupings[0]!.start.volume, n + 1);
    }
    await kill9(restarted.child);
  }
  assert.ok(acknowledged.size > WRITERS, `only ${acknowledged.size} writes were acknowledged`);
  await rm(folder, { recursive: true, force: true });
});

/** Sends `method` to `url`: its status, or undefined when the host died mid-request */
async function send(method: string, url: string, body?: unknown): Promise<number | undefined> {
  try {
    const response = await fetch(url, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return undefined;
  }
}

test('every acknowledged write survives when the host is killed with SIGKILL while it compacts the store file', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'capstan-crash-compact-'));
  // Compacted as soon as the file holds twice its live data, so compactions come every second or two of writes
  const config = await writeStartupDocument(folder, await freePort(), [
    { id: 'schedule-store-file', config: { compaction: { minBytes: 4096 } } },
  ]);
  const store = join(folder, 'var', 'schedule-store-file');
  const IPS = 1500;
  let { child, url } = await serve(config);
  for (let n = 0; n < IPS; n += WRITERS) {
    const statuses = await Promise.all(
      Array.from({ length: WRITERS }, (_, w) => send('POST', `${url}/config/${ipOf(n + w)}`, body(n + w))),
    );
    assert.ok(
      statuses.every((status) => status === 200),
      `prefill answered ${statuses}`,
    );
  }
  /** Per IP: the paused state last acknowledged, and the one a request in flight when the host died may have stored */
  const acknowledged = new Map<number, boolean>();
  const maybe = new Map<number, boolean>();
  const refused: string[] = [];
  let midCompaction = 0;
  for (let round = 0; round < 4 && midCompaction < 1; round++) {
    let stop = false;
    // Each writer owns the IPs congruent to it, so the last acknowledged toggle of an IP is its stored state
    const writer = async (w: number) => {
      for (let n = w; !stop; n = (n + WRITERS) % IPS) {
        const paused = !(acknowledged.get(n) ?? false);
        maybe.set(n, paused);
        const status = await send('PUT', `${url}/config/${ipOf(n)}/%26g/${paused ? 'pause' : 'resume'}`);
        if (status === undefined) return;
        if (status === 200) acknowledged.set(n, paused);
        else refused.push(`toggle of ${n} answered ${status}`);
        maybe.delete(n);
      }
    };
    const compacting = new Promise<void>((started) => {
      const watcher = watch(store, (_, name) => {
        if (!name?.startsWith('.schedules.json.') || !name.endsWith('.tmp')) return;
        watcher.close();
        started();
      });
    });
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    const landed = await Promise.race([
      compacting.then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), 20_000)),
    ]);
    await kill9(child);
    stop = true;
    await Promise.all(writers);
    assert.ok(landed, 'a compaction started within 20 s of writes');
    assert.equal(refused, [], 'every write a live host answered was acknowledged');
    // The compaction's temporary file is still there when the kill came before its rename
    if ((await readdir(store)).some((name) => name.endsWith('.tmp'))) midCompaction++;
    ({ child, url } = await serve(config));
    const stored = (await (await fetch(`${url}/config`)).json()).ips as Record<
      string,
      { groupings: { paused: boolean; start: { volume: number } }[] }
    >;
    for (let n = 0; n < IPS; n++) {
      const grouping = stored[ipOf(n)]?.groupings[0];
      assert.is(grouping?.start.volume, n + 1, `IP ${n} lost after kill ${round + 1}`);
      const expected = acknowledged.get(n) ?? false;
      if (grouping!.paused !== expected)
        assert.is(grouping!.paused, maybe.get(n), `acknowledged toggle of IP ${n} lost after kill ${round + 1}`);
      acknowledged.set(n, grouping!.paused);
    }
    maybe.clear();
  }
  await kill9(child);
  assert.ok(midCompaction > 0, 'no kill landed while a compaction was under way');
  await rm(folder, { recursive: true, force: true });
});

test.run();
