import { appendFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rejects } from '../../test/rejects.ts';
import { encodeBlock, usePlugin } from '../../runtime/mod.ts';
import type { ScheduleStore } from '../../runtime/mod.ts';
import { storeConformance, type StoreUnderTest } from 'capstan/conformance';

const folders: string[] = [];

async function open(
  baseDir?: string,
): Promise<{ dir: string; store: ScheduleStore; close(): Promise<void>; reopen(): Promise<StoreUnderTest> }> {
  const dir = baseDir ?? (await mkdtemp(join(tmpdir(), 'capstan-file-store-')));
  if (!baseDir) folders.push(dir);
  const plugin = await usePlugin<ScheduleStore>({ id: 'schedule-store-file' }, { baseDir: dir });
  return { dir, store: plugin.service, close: plugin.close, reopen: () => open(dir) };
}

// One host per file: ip-schedule counts its backoff events in its own process, so the store offers no exchange of
// counts
const SINGLE_HOST = 'one host per file: ip-schedule counts backoff events in its own process';
storeConformance('schedule-store-file', () => open(), {
  skip: {
    'exchangeCounts hands each host the batches of the others, in order, once (plugin API 1.6)': SINGLE_HOST,
    'claimCounts lets exactly one of concurrent claims from the same counts win (plugin API 1.6)': SINGLE_HOST,
  },
});

const GROUPINGS = { groupings: [] };

test('schedule-store-file keeps writes under ./var when restarted', async () => {
  const first = await open();
  const version = await first.store.put('192.0.2.1', GROUPINGS, { expected: null });
  await first.close();
  const files = (await readdir(join(first.dir, 'var', 'schedule-store-file'))).sort();
  assert.equal(files, ['schedules.audit.jsonl', 'schedules.json'], 'no temporary file left');
  const second = await open(first.dir);
  assert.equal(await second.store.get('192.0.2.1'), { ip: '192.0.2.1', record: GROUPINGS, version });
  assert.ok((await second.store.put('192.0.2.2', GROUPINGS, { expected: null }))! > version!, 'versions go on rising');
  await second.close();
});

test('schedule-store-file keeps applied policies when restarted and refuses a file with a broken one', async () => {
  const first = await open();
  const policy = {
    id: 'backoff:a',
    kind: 'suspend' as const,
    object: { id: 'backoff:a', type: 'BACKOFF', localip: '192.0.2.1' },
    expires: 1_900_000_000_000,
    level: 1,
  };
  await first.store.putPolicy!(policy);
  await first.close();
  const second = await open(first.dir);
  assert.equal(await second.store.listPolicies!(), [policy]);
  await second.close();
  const file = join(first.dir, 'var', 'schedule-store-file', 'schedules.json');
  await appendFile(
    file,
    encodeBlock('capstan-schedules/2', `${JSON.stringify({ policy: { ...policy, kind: 'other' } })}\n`),
  );
  await rejects(
    open(first.dir),
    /block at byte \d+: applied policy "backoff:a" has "kind" ""other"", not "policy" or "suspend": restore the file/,
    'opening the store',
  );
});

test('schedule-store-file uses config path when one is given', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-file-store-'));
  folders.push(dir);
  const plugin = await usePlugin<ScheduleStore>(
    { id: 'schedule-store-file', config: { path: 'data/s.json' } },
    { baseDir: dir },
  );
  await plugin.service.put('192.0.2.1', GROUPINGS, { expected: null });
  await plugin.close();
  assert.match(
    await readFile(join(dir, 'data', 's.json'), 'utf8'),
    /^B [0-9a-f]{8} \d+ capstan-schedules\/2\n[^]*"ip":"192\.0\.2\.1"/,
  );
});

test('schedule-store-file refuses to start when the file is not its format', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-file-store-'));
  folders.push(dir);
  await writeFile(join(dir, 's.json'), JSON.stringify({ format: 99 }));
  await rejects(
    () => usePlugin({ id: 'schedule-store-file', config: { path: 's.json' } }, { baseDir: dir }),
    /unknown format "99"/,
    'opening the store',
  );
});

const AUTO = {
  grouping: '&gmail',
  mode: 'AUTO',
  start: { date: '2025-01-01', volume: 1 },
  end: { date: '2025-01-30', volume: 100 },
  paused: false,
  algorithm: 'TOKENBUCKET',
  interval: 86400,
  properties: null,
};

/** Contents of a damaged store file, each with what the refusal must say beyond the file's name */
const DAMAGED: Array<[string, string, RegExp]> = [
  [
    'truncated',
    JSON.stringify({
      format: 1,
      sequence: 1,
      ips: { '192.0.2.1': { record: { groupings: [AUTO] }, version: 1 } },
    }).slice(0, 60),
    /: not valid JSON, the file may be truncated \(.+\): restore it from a backup, or move it aside to start with no schedules$/,
  ],
  ['null', 'null', /: expected an object with "format", "sequence" and "ips", found "null": restore it/],
  [
    'an entry missing its record',
    JSON.stringify({
      format: 1,
      sequence: 2,
      ips: { '192.0.2.1': { record: { groupings: [] }, version: 1 }, '192.0.2.2': { version: 2 } },
    }),
    /: entry "192\.0\.2\.2" has no "record": correct or remove that entry, or restore the file from a backup$/,
  ],
  [
    'a sequence that is not a number',
    JSON.stringify({ format: 1, sequence: 'x', ips: {} }),
    /: "sequence" must be a whole number of at least 0, found ""x"": set it to the highest "version" of its entries$/,
  ],
  [
    'a version above the sequence',
    JSON.stringify({ format: 1, sequence: 1, ips: { '192.0.2.1': { record: { groupings: [] }, version: 5 } } }),
    /: entry "192\.0\.2\.1" has "version" "5", above "sequence" "1": correct or remove/,
  ],
  [
    'a record with a field of the wrong type',
    JSON.stringify({
      format: 1,
      sequence: 1,
      ips: { '192.0.2.1': { record: { groupings: [{ ...AUTO, start: { date: 20250101, volume: 1 } }] }, version: 1 } },
    }),
    /: entry "192\.0\.2\.1" has an invalid record: "record\.groupings\.0\.start\.date" .+: correct or remove/,
  ],
  [
    '"ips" that is a list',
    JSON.stringify({ format: 1, sequence: 0, ips: [] }),
    /: "ips" must be an object, found "\[\]"/,
  ],
];

for (const [label, contents, message] of DAMAGED) {
  test(`schedule-store-file refuses to start naming the file and what to do when it holds ${label}`, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'capstan-file-store-'));
    folders.push(dir);
    const file = join(dir, 's.json');
    await writeFile(file, contents);
    const error = await rejects(
      () => usePlugin({ id: 'schedule-store-file', config: { path: 's.json' } }, { baseDir: dir }),
      message,
      'opening the store',
    );
    assert.ok(error.message.includes(`Cannot read schedule store "${file}": `), error.message);
    assert.is(await readFile(file, 'utf8'), contents, 'the file is left as it was');
  });
}

test('schedule-store-file removes temporary files a kill left when it starts', async () => {
  const first = await open();
  const version = await first.store.put('192.0.2.1', GROUPINGS, { expected: null });
  await first.close();
  const folder = join(first.dir, 'var', 'schedule-store-file');
  const kept = ['.schedules.json.tmp', '.other.json.123.tmp', 'schedules.json.456.tmp'];
  for (const name of ['.schedules.json.4242.tmp', `.schedules.json.${process.pid}.tmp`, ...kept])
    await writeFile(join(folder, name), '{"format":');
  const second = await open(first.dir);
  assert.equal((await readdir(folder)).sort(), [...kept, 'schedules.audit.jsonl', 'schedules.json'].sort());
  assert.equal(await second.store.get('192.0.2.1'), { ip: '192.0.2.1', record: GROUPINGS, version });
  await second.close();
});

test('schedule-store-file is ready while its folder exists, and counts operations by outcome', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-file-store-'));
  folders.push(dir);
  const plugin = await usePlugin<ScheduleStore>({ id: 'schedule-store-file' }, { baseDir: dir });
  try {
    await plugin.ready!();
    await plugin.service.put('192.0.2.1', GROUPINGS, { expected: null });
    assert.is(await plugin.service.put('192.0.2.1', GROUPINGS, { expected: null }), undefined);
    await plugin.service.get('192.0.2.1');
    const text = await plugin.metrics();
    assert.match(
      text,
      /^capstan_store_operations_total\{operation="put",outcome="ok",plugin="schedule-store-file"\} 1$/m,
    );
    assert.match(
      text,
      /^capstan_store_operations_total\{operation="put",outcome="conflict",plugin="schedule-store-file"\} 1$/m,
    );
    assert.match(
      text,
      /^capstan_store_operations_total\{operation="get",outcome="ok",plugin="schedule-store-file"\} 1$/m,
    );
    await rm(join(dir, 'var'), { recursive: true });
    await rejects(async () => plugin.ready!(), /^Store folder ".*schedule-store-file" is not writable: ENOENT/);
  } finally {
    await plugin.close();
  }
});

test.after(async () => {
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
});

test.run();
