/**
 * The file store on a filesystem that is really full: a small tmpfs mounted for the test (needs root; skipped with a
 * message otherwise). Writes answer 503 with Retry-After, readiness fails, nothing stored is lost, and the store
 * recovers without a restart once space is freed.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fill, mountSmallDisk } from '../_small-disk.ts';
import { autoGrouping, startScheduleHost } from './_host.ts';

const { folder, refusal } = mountSmallDisk('capstan-full-');
const mounted = refusal === undefined;

const grouping = (name: string) => autoGrouping(name, ['2025-01-01', 10], ['2025-01-30', 1000]);
/**
 * Records of more than a page (4 KiB): the store appends, and an append that fits in the slack of the file's last
 * page succeeds even on a full disk
 */
const groupings = () => [grouping('&gmail'), ...Array.from({ length: 40 }, (_, g) => grouping(`&provider-${g}`))];

if (!mounted) {
  console.log(`skipping the full-disk test: cannot mount a tmpfs on ${folder} (needs root): ${refusal}`);
  test.skip('file store on a full disk answers 503 with Retry-After, is not ready, loses nothing, and recovers', () => {});
} else {
  test('file store on a full disk answers 503 with Retry-After, is not ready, loses nothing, and recovers', async () => {
    const logs: string[] = [];
    const host = await startScheduleHost({ folder, log: (line) => logs.push(line) });
    const filler = join(folder, 'filler');
    try {
      for (let i = 1; i <= 5; i++)
        assert.is((await host.call('POST', `/config/192.0.2.${i}`, { groupings: groupings() })).status, 200);
      const [instance] = await readdir(join(folder, 'var'));
      const file = join(folder, 'var', instance!, 'schedules.json');
      const before = await readFile(file, 'utf8');
      assert.is((await host.call('GET', '/readyz')).status, 200, 'ready before the disk fills');

      await fill(filler);
      const created = await host.call('POST', '/config/192.0.2.99', { groupings: groupings() });
      assert.is(created.status, 503, created.text);
      assert.equal(created.json, { error: 'Cannot write the schedule store, nothing was changed: ENOSPC' });
      const paused = await fetch(`${host.url}/config/192.0.2.1/%26gmail/pause`, { method: 'PUT' });
      assert.is(paused.status, 503);
      assert.is(paused.headers.get('retry-after'), '30');
      assert.ok(
        logs.some((line) => line.includes('schedule store cannot be written') && line.includes('ENOSPC')),
        'the cause is logged',
      );

      const ready = await host.call('GET', '/readyz');
      assert.is(ready.status, 503, 'not ready while the disk is full');
      assert.match(ready.json.failing[0].error, /cannot be written: ENOSPC/);

      // Nothing lost: the file is the one before the failed writes (their torn blocks cut off), and reads serve the
      // same
      assert.is(await readFile(file, 'utf8'), before);
      assert.equal(Object.keys((await host.call('GET', '/config')).json.ips).sort(), [
        '192.0.2.1',
        '192.0.2.2',
        '192.0.2.3',
        '192.0.2.4',
        '192.0.2.5',
      ]);
      assert.is((await host.call('GET', '/config/192.0.2.1/%26gmail')).json.paused, false);
      assert.is((await host.call('GET', '/config/192.0.2.99')).status, 404);
      assert.equal(
        (await readdir(join(folder, 'var', instance!))).filter((name) => !name.endsWith('.audit.jsonl')),
        ['schedules.json'],
        'no temporary file left behind',
      );

      await rm(filler);
      // Readiness retries a write at most once a second while failing: the first check after freeing may be early
      const deadline = Date.now() + 5000;
      while ((await host.call('GET', '/readyz')).status !== 200) {
        assert.ok(Date.now() < deadline, 'ready again within 5 s of freeing space');
        await new Promise((done) => setTimeout(done, 100));
      }
      assert.is((await host.call('POST', '/config/192.0.2.99', { groupings: groupings() })).status, 200);
      assert.is((await host.call('PUT', '/config/192.0.2.1/%26gmail/pause')).status, 200);
    } finally {
      await host.close();
      await rm(filler, { force: true });
    }
    // What was written after the recovery is in the file: a host started on it serves it
    const restarted = await startScheduleHost({ folder });
    try {
      assert.equal(Object.keys((await restarted.call('GET', '/config')).json.ips).length, 6);
      assert.is((await restarted.call('GET', '/config/192.0.2.1/%26gmail')).json.paused, true);
    } finally {
      await restarted.close();
    }
  });

  test.after(() => {
    execFileSync('umount', [folder]);
    rmSync(folder, { recursive: true, force: true });
  });
}

if (!mounted) rmSync(folder, { recursive: true, force: true });

test.run();
