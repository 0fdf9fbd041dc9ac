import { mkdtemp, readFile, rm } from 'node:fs/promises';
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
  groupings: [{ grouping: '&g', mode: 'AUTO', start: { date: '2025-01-01', volume: n + 1 }, end: { date: '2025-01-10', volume: n + 100 } }],
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
          response = await fetch(`${url}/config/${ipOf(n)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body(n)) });
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
    for (let waited = 0; acknowledged.size === before && waited < 10_000; waited += 20) await new Promise((r) => setTimeout(r, 20));
    await kill9(child);
    stop = true;
    await Promise.all(writers);
    assert.equal(refused, [], 'every write a live host answered was acknowledged');

    const file = await readFile(join(folder, 'var', 'schedule-store-file', 'schedules.json'), 'utf8');
    assert.not.throws(() => JSON.parse(file), 'the store file is whole');
    const restarted = await serve(config);
    const stored = (await (await fetch(`${restarted.url}/config`)).json()).ips as Record<string, { groupings: { start: { volume: number } }[] }>;
    for (const n of acknowledged) {
      assert.ok(stored[ipOf(n)], `acknowledged write ${n} lost after kill ${round + 1}`);
      assert.is(stored[ipOf(n)]!.groupings[0]!.start.volume, n + 1);
    }
    await kill9(restarted.child);
  }
  assert.ok(acknowledged.size > WRITERS, `only ${acknowledged.size} writes were acknowledged`);
  await rm(folder, { recursive: true, force: true });
});

test.run();
