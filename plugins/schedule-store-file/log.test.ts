/**
 * The file store's format 2: migration of a format 1 file, a torn last block, damage, compaction, and a write cost that
 * does not grow with the store's size. Through the plugin API, on real files
 */
import { appendFile, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { suite } from '../../test/_deadline.ts';
import { rejects } from '../../test/rejects.ts';
import { usePlugin, type AuditEntry, type IpRecord, type ScheduleStore } from '../../runtime/mod.ts';

const test = suite('schedule-store-file format 2', 120_000);
const folders: string[] = [];

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-file-log-'));
  folders.push(dir);
  return dir;
}

const open = (dir: string, config: Record<string, unknown> = {}) =>
  usePlugin<ScheduleStore>({ id: 'schedule-store-file', config: { path: 's.json', ...config } }, { baseDir: dir });

/** A record of `groupings` AUTO groupings, as the API stores them */
function record(groupings: number, volume = 1): IpRecord {
  return {
    groupings: Array.from({ length: groupings }, (_, g) => ({
      grouping: `&provider-${g}`,
      mode: 'AUTO',
      start: { date: '2025-01-01', volume },
      end: { date: '2025-01-30', volume: 100_000 },
      paused: false,
      algorithm: 'TOKENBUCKET',
      interval: 86400,
      properties: null,
    })),
  } as IpRecord;
}

const ipOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/** A format 1 file (one JSON object) of `count` IPs with 5 groupings each, as Capstan before 0.2 wrote it */
function format1(count: number): string {
  const ips = Object.fromEntries(
    Array.from({ length: count }, (_, n) => [ipOf(n), { record: record(5, n + 1), version: n + 1 }]),
  );
  const policy = {
    id: 'backoff:a',
    kind: 'suspend',
    object: { id: 'backoff:a', type: 'BACKOFF' },
    expires: 1_900_000_000_000,
    level: 0,
  };
  return JSON.stringify({ format: 1, sequence: count + 3, ips, policies: { 'backoff:a': policy } });
}

test('a format 1 file is migrated when opened: same records, versions and policies, the old file kept beside it', async () => {
  const dir = await folder();
  const old = format1(300);
  await writeFile(join(dir, 's.json'), old);
  const first = await open(dir);
  const migrated = await readFile(join(dir, 's.json'), 'utf8');
  assert.match(migrated, /^B [0-9a-f]{8} \d+ capstan-schedules\/2\n/, 'the file is format 2 once opened');
  assert.is(await readFile(join(dir, 's.json.format-1'), 'utf8'), old, 'the format 1 file is kept as it was');
  const stored = await first.service.list();
  assert.is(stored.length, 300);
  assert.equal(await first.service.get(ipOf(7)), { ip: ipOf(7), record: record(5, 8), version: 8 });
  assert.is((await first.service.listPolicies!())[0]!.id, 'backoff:a');
  assert.is(await first.service.put(ipOf(7), record(1), { expected: 8 }), 304, 'versions go on from the old sequence');
  await first.close();
  const second = await open(dir);
  assert.equal(await second.service.get(ipOf(7)), { ip: ipOf(7), record: record(1), version: 304 });
  assert.equal(await second.service.get(ipOf(299)), { ip: ipOf(299), record: record(5, 300), version: 300 });
  await second.close();
  assert.is(
    await readFile(join(dir, 's.json.format-1'), 'utf8'),
    old,
    'opening a format 2 file does not migrate again',
  );
});

test('a block torn by a crash mid-append is cut off; damage before a whole block refuses the file, which is left as it was', async () => {
  const dir = await folder();
  const file = join(dir, 's.json');
  const store = await open(dir);
  for (let n = 0; n < 3; n++) await store.service.put(ipOf(n), record(2), { expected: null });
  await store.close();
  const whole = await readFile(file);
  // What a kill halfway through an append leaves: part of a block at the end
  await appendFile(file, 'B 1234abcd 900 capstan-schedules/2\n{"ip":"10.0.0.9","vers');
  const reopened = await open(dir);
  assert.is((await reopened.service.list()).length, 3);
  assert.is(
    (await stat(file)).size,
    whole.length,
    'the torn block is cut off at start, so appends follow whole blocks',
  );
  assert.ok(await reopened.service.put(ipOf(9), record(1), { expected: null }));
  await reopened.close();
  const again = await open(dir);
  assert.is((await again.service.get(ipOf(9)))?.record.groupings.length, 1);
  await again.close();

  const data = await readFile(file);
  const damaged = Buffer.from(data);
  damaged[whole.length - 5] = damaged[whole.length - 5]! ^ 0x20;
  await writeFile(file, damaged);
  await rejects(
    open(dir),
    /Cannot read schedule store ".*s\.json": damaged from byte \d+ to \d+, before whole blocks: restore it from a backup/,
    'opening the damaged store',
  );
  assert.equal(await readFile(file), damaged, 'the damaged file is left as it was');
});

test('the file is compacted once it holds twice its live data, writes go on meanwhile, and every write is read back after reopening', async () => {
  const dir = await folder();
  const file = join(dir, 's.json');
  const store = await open(dir, { compaction: { minBytes: 4096 } });
  const versions = new Map<string, number>();
  // 200 IPs rewritten over and over: all but the last write of each is garbage for the compaction to drop
  for (let round = 0; round < 30; round++) {
    await Promise.all(
      Array.from({ length: 200 }, async (_, n) => {
        const ip = ipOf(n);
        const version = await store.service.put(ip, record(5, round + 1), { expected: versions.get(ip) ?? null });
        assert.ok(version, `write ${round} of ${ip} conflicted`);
        versions.set(ip, version!);
      }),
    );
  }
  await store.close();
  const size = (await stat(file)).size;
  const live = Buffer.byteLength(JSON.stringify(record(5))) * 200;
  assert.ok(size < 4 * live, `${size} bytes on disk for about ${live} bytes live: the file was not compacted`);
  assert.ok(size > live, `${size} bytes on disk for about ${live} bytes live`);
  assert.equal((await readdir(dir)).sort(), ['s.audit.jsonl', 's.json'], 'no temporary file left');
  const reopened = await open(dir);
  for (let n = 0; n < 200; n++)
    assert.equal(await reopened.service.get(ipOf(n)), {
      ip: ipOf(n),
      record: record(5, 30),
      version: versions.get(ipOf(n)),
    });
  await reopened.close();
});

/** The audit entry of write `n`: ids rise with `n`, as the host's UUIDv7 ids do */
function auditEntry(n: number): AuditEntry {
  return {
    id: `0190a000-0000-7000-8000-${String(n).padStart(12, '0')}`,
    time: new Date(Date.UTC(2026, 0, 1) + n).toISOString(),
    action: 'schedule.create',
    subject: { ip: ipOf(n) },
    principal: 'test',
    before: null,
    after: null,
    host: 'test',
  };
}

test('audit entries are durable with their write: those the audit file lost in a crash are written again at open', async () => {
  const dir = await folder();
  const auditFile = join(dir, 's.audit.jsonl');
  const store = await open(dir);
  for (let n = 0; n < 40; n += 8)
    await Promise.all(
      Array.from({ length: 8 }, (_, w) =>
        store.service.put(ipOf(n + w), record(1), { expected: null }, { audit: auditEntry(n + w) }),
      ),
    );
  await store.close();
  // A machine crash loses what the page cache held of the file: here its last 25 entries, the last one torn
  const lines = (await readFile(auditFile, 'utf8')).split('\n');
  await writeFile(auditFile, `${lines.slice(0, 15).join('\n')}\n${lines[15]!.slice(0, 30)}`);
  const reopened = await open(dir);
  const ids = (await reopened.service.queryAudit!({ limit: 100 })).map((entry) => entry.id);
  assert.equal(
    ids,
    Array.from({ length: 40 }, (_, n) => auditEntry(39 - n).id),
    'every entry once, newest first',
  );
  await reopened.close();
  const again = await open(dir);
  assert.is((await again.service.queryAudit!({ limit: 100 })).length, 40, 'entries written again are not doubled');
  await again.close();
});

/** Median ms of `count` writes of new IPs, one after another, each acknowledged before the next */
async function medianWrite(store: ScheduleStore, from: number, count: number): Promise<number> {
  const times: number[] = [];
  for (let n = from; n < from + count; n++) {
    const started = performance.now();
    assert.ok(await store.put(ipOf(n), record(5), { expected: null }));
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(count / 2)]!;
}

test('a write costs about as much with 10,000 IPs stored as with 1,000', async () => {
  const costs: number[] = [];
  for (const size of [1000, 10_000]) {
    const dir = await folder();
    await writeFile(join(dir, 's.json'), format1(size));
    const store = await open(dir);
    await medianWrite(store.service, size, 20); // warm-up
    costs.push(await medianWrite(store.service, size + 20, 150));
    await store.close();
    await truncate(join(dir, 's.json.format-1'));
  }
  const [small, large] = costs as [number, number];
  // A whole-file rewrite makes the 10k write about 10 times dearer; noise on a shared disk stays well below 3 times
  assert.ok(
    large < 3 * small + 2,
    `median write ${large.toFixed(2)} ms at 10,000 IPs against ${small.toFixed(2)} ms at 1,000`,
  );
});

test.after(async () => {
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
});

test.run();
