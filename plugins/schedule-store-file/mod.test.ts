import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rejects } from '../../test/rejects.ts';
import { usePlugin } from '../../runtime/mod.ts';
import type { ScheduleStore } from '../../runtime/mod.ts';
import { storeConformance } from '../../test/conformance/store.ts';

const folders: string[] = [];

async function open(baseDir?: string) {
  const dir = baseDir ?? await mkdtemp(join(tmpdir(), 'capstan-file-store-'));
  if (!baseDir) folders.push(dir);
  const plugin = await usePlugin<ScheduleStore>({ id: 'schedule-store-file' }, { baseDir: dir });
  return { dir, store: plugin.service, close: plugin.close };
}

storeConformance('schedule-store-file', () => open());

const GROUPINGS = { groupings: [] };

test('schedule-store-file keeps writes under ./var when restarted', async () => {
  const first = await open();
  const version = await first.store.put('192.0.2.1', GROUPINGS, { expected: null });
  await first.close();
  const files = await readdir(join(first.dir, 'var', 'schedule-store-file'));
  assert.equal(files, ['schedules.json'], 'no temporary file left');
  const second = await open(first.dir);
  assert.equal(await second.store.get('192.0.2.1'), { ip: '192.0.2.1', record: GROUPINGS, version });
  assert.ok((await second.store.put('192.0.2.2', GROUPINGS, { expected: null }))! > version!, 'versions go on rising');
  await second.close();
});

test('schedule-store-file uses config path when one is given', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-file-store-'));
  folders.push(dir);
  const plugin = await usePlugin<ScheduleStore>({ id: 'schedule-store-file', config: { path: 'data/s.json' } }, { baseDir: dir });
  await plugin.service.put('192.0.2.1', GROUPINGS, { expected: null });
  await plugin.close();
  assert.ok(JSON.parse(await readFile(join(dir, 'data', 's.json'), 'utf8')).ips['192.0.2.1']);
});

test('schedule-store-file refuses to start when the file is not its format', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-file-store-'));
  folders.push(dir);
  await writeFile(join(dir, 's.json'), JSON.stringify({ format: 99 }));
  await rejects(() => usePlugin({ id: 'schedule-store-file', config: { path: 's.json' } }, { baseDir: dir }), /unknown format "99"/, 'opening the store');
});

test.after(async () => {
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
});

test.run();
