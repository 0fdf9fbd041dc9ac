import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { cacheBytesOnDisk } from '../../../test/_cache-files.ts';
import { test } from '../../../test/_deadline.ts';
import * as assert from 'uvu/assert';
import type { Logger } from '../../../runtime/mod.ts';
import { ResultCache } from './result-cache.ts';
import type { CacheSettings } from './result-cache.ts';

interface Captured {
  log: Logger;
  warnings: string[];
}

function capture(): Captured {
  const warnings: string[] = [];
  const keep = (message: string, fields?: Record<string, unknown>) =>
    warnings.push(`${message} ${JSON.stringify(fields)}`);
  return { warnings, log: { debug: () => {}, info: () => {}, warn: keep, error: keep } };
}

async function withFolder(run: (settings: CacheSettings) => Promise<void>): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), 'capstan-cache-'));
  try {
    await run({ enabled: true, folder, maxSize: 1 << 20 });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

const GREY = { label: 'GRAYLISTING', probability: 0.93 };
const FULL = { label: 'RECIPIENT_ERROR', probability: 0.88 };

test('cache answers stored results and misses when text is new', () =>
  withFolder(async (settings) => {
    const cache = await ResultCache.open(settings, { version: 'v1', log: capture().log });
    cache.store('bnac', ['451 greylisted'], [GREY]);
    assert.equal(cache.lookup('bnac', ['451 greylisted', 'other']), [GREY, undefined]);
    assert.equal(cache.lookup('backoff', ['451 greylisted']), [undefined]);
    const stats = cache.stats();
    assert.is(stats.hit_requests, 1);
    assert.is(stats.miss_requests, 2);
    assert.is(stats.number_of_elements, 1);
    assert.ok(stats.size_in_bytes > 0);
    assert.ok(stats.avg_get_time_ms > 0 && stats.avg_set_time_ms > 0);
    await cache.close();
  }));

test('cache keeps entries across restarts when version is unchanged', () =>
  withFolder(async (settings) => {
    const first = await ResultCache.open(settings, { version: 'v1', log: capture().log });
    first.store('backoff', ['mailbox full', 'greylisted'], [FULL, GREY]);
    await first.close();
    const second = await ResultCache.open(settings, { version: 'v1', log: capture().log });
    assert.equal(second.lookup('backoff', ['greylisted', 'mailbox full']), [GREY, FULL]);
    await second.close();
    const third = await ResultCache.open(settings, { version: 'v2', log: capture().log });
    assert.equal(third.lookup('backoff', ['greylisted']), [undefined]);
    await third.close();
  }));

test('cache skips and logs blocks when file is torn or corrupt', () =>
  withFolder(async (settings) => {
    const first = await ResultCache.open(settings, { version: 'v1', log: capture().log });
    first.store('bnac', ['a', 'b'], [GREY, GREY]);
    await first.close();
    const second = await ResultCache.open(settings, { version: 'v1', log: capture().log });
    second.store('bnac', ['c'], [FULL]);
    await second.close();
    const [name] = (await readdir(settings.folder)).filter((file) => file.endsWith('.log'));
    const path = join(settings.folder, name!);
    // Flip the class of the first block without fixing its checksum, then leave a torn block at the end
    const content = (await readFile(path, 'utf8')).replace('GRAYLISTING', 'VIRUSXXXXXX');
    await writeFile(path, `${content}B 00000000 40 "v1"\nbnac\tSPF\t0.5\t"d`);
    const captured = capture();
    const third = await ResultCache.open(settings, { version: 'v1', log: captured.log });
    assert.equal(third.lookup('bnac', ['a', 'b', 'c', 'd']), [undefined, undefined, FULL, undefined]);
    assert.is(captured.warnings.length, 1);
    assert.match(captured.warnings[0]!, /"count":2/);
    third.store('bnac', ['e'], [GREY]);
    await third.close();
    const fourth = await ResultCache.open(settings, { version: 'v1', log: capture().log });
    assert.equal(fourth.lookup('bnac', ['c', 'e']), [FULL, GREY]);
    await fourth.close();
  }));

test('cache starts empty when file holds garbage', () =>
  withFolder(async (settings) => {
    await writeFile(join(settings.folder, 'cache-00000001.log'), Buffer.from([0, 255, 10, 13, 0x20, 10, 0x7b]));
    const captured = capture();
    const cache = await ResultCache.open(settings, { version: 'v1', log: captured.log });
    assert.is(cache.stats().number_of_elements, 0);
    assert.is(captured.warnings.length, 1);
    cache.store('bnac', ['x'], [GREY]);
    await cache.close();
    const again = await ResultCache.open(settings, { version: 'v1', log: capture().log });
    assert.equal(again.lookup('bnac', ['x']), [GREY]);
    await again.close();
  }));

test('cache stays within max size in memory and on disk when filled past it', () =>
  withFolder(async (settings) => {
    const small = { ...settings, maxSize: 20_000 };
    const cache = await ResultCache.open(small, { version: 'v1', log: capture().log });
    for (let i = 0; i < 2_000; i++)
      cache.store('bnac', [`message number ${i}`], [i % 3 ? GREY : { ...FULL, probability: 0.2 }]);
    await cache.close();
    assert.ok(cache.stats().size_in_bytes <= small.maxSize);
    assert.ok((await cacheBytesOnDisk(small.folder)) <= small.maxSize);
    const again = await ResultCache.open(small, { version: 'v1', log: capture().log });
    assert.equal(again.lookup('bnac', ['message number 1999']), [GREY]);
    assert.ok(again.stats().number_of_elements > 10);
    await again.close();
  }));

test('cache keeps confident results when far more unsure ones than it holds are stored', () =>
  withFolder(async (settings) => {
    const small = { ...settings, maxSize: 40_000 };
    const cache = await ResultCache.open(small, { version: 'v1', log: capture().log });
    const confident = Array.from({ length: 20 }, (_, i) => `550 confident reply ${i}`);
    cache.store(
      'bnac',
      confident,
      confident.map(() => GREY),
    );
    // Ten times the whole cache in unsure results: they may evict one another, never a confident one
    for (let i = 0; i < 1_500; i++)
      cache.store('bnac', [`451 unsure reply number ${i}`], [{ ...FULL, probability: 0.2 }]);
    assert.equal(
      cache.lookup('bnac', confident),
      confident.map(() => GREY),
    );
    assert.ok(cache.stats().size_in_bytes <= small.maxSize);
    await cache.close();
  }));

/** A block with a valid checksum, as the log writes one */
function block(version: string, lines: string[]): string {
  const payload = lines.map((line) => `${line}\n`).join('');
  return `B ${crc32(payload).toString(16).padStart(8, '0')} ${Buffer.byteLength(payload)} ${JSON.stringify(version)}\n${payload}`;
}

test("cache skips and logs records when their model or class is not the classifier's", () =>
  withFolder(async (settings) => {
    const lines = [
      'bnac\tNOT_A_CLASS\t0.9\t"a"',
      'backoff\tVIRUS\t0.9\t"b"',
      'spam\tGRAYLISTING\t0.9\t"c"',
      'bnac\tGRAYLISTING\t0.93\t"d"',
    ];
    await writeFile(join(settings.folder, 'cache-00000001.log'), block('v1', lines));
    const captured = capture();
    const cache = await ResultCache.open(settings, { version: 'v1', log: captured.log });
    assert.equal(cache.lookup('bnac', ['a', 'd']), [undefined, GREY]);
    assert.equal(cache.lookup('backoff', ['b']), [undefined]);
    assert.is(cache.stats().number_of_elements, 1);
    assert.equal(captured.warnings.length, 1, captured.warnings.join('\n'));
    assert.match(captured.warnings[0]!, /model or class.*"count":3/);
    await cache.close();
  }));

test('cache skips a segment and keeps the disk when a segment is a folder', () =>
  withFolder(async (settings) => {
    await writeFile(join(settings.folder, 'cache-00000001.log'), block('v1', ['bnac\tGRAYLISTING\t0.93\t"a"']));
    await mkdir(join(settings.folder, 'cache-00000002.log'));
    const captured = capture();
    const cache = await ResultCache.open({ ...settings, maxSize: 20_000 }, { version: 'v1', log: captured.log });
    assert.equal(cache.lookup('bnac', ['a']), [GREY]);
    assert.match(captured.warnings.join('\n'), /Skipped unreadable cache segment.*cache-00000002\.log/);
    // Enough to compact: the compaction must neither write into nor remove the folder
    for (let i = 0; i < 500; i++) cache.store('bnac', [`message number ${i}`], [GREY]);
    await cache.close();
    assert.equal(captured.warnings.length, 1, captured.warnings.join('\n'));
    assert.ok((await stat(join(settings.folder, 'cache-00000002.log'))).isDirectory());
    const again = await ResultCache.open(settings, { version: 'v1', log: capture().log });
    assert.equal(again.lookup('bnac', ['message number 499']), [GREY]);
    await again.close();
  }));

test('cache works in memory and leaves the file alone when the cache folder is a file', () =>
  withFolder(async (settings) => {
    const folder = join(settings.folder, 'not-a-folder');
    await writeFile(folder, 'operator data');
    const captured = capture();
    const cache = await ResultCache.open({ ...settings, folder }, { version: 'v1', log: captured.log });
    cache.store('bnac', ['a'], [GREY]);
    assert.equal(cache.lookup('bnac', ['a']), [GREY]);
    await cache.close();
    assert.match(captured.warnings.join('\n'), /Cannot use cache folder.*not-a-folder/);
    assert.is(await readFile(folder, 'utf8'), 'operator data');
  }));

test('cache files stay within max size when texts are CJK, emoji, lone surrogates or long', async () => {
  const kinds: Record<string, (i: number) => string> = {
    cjk: (i) => `${i}${'邮箱已满请稍后再试'.repeat(11)}`,
    emoji: (i) => `${i}${'📬🚫'.repeat(25)}`,
    'lone surrogates': (i) => `${i}${'\ud800'.repeat(200)}`,
    long: (i) => `${i}${'mailbox unavailable '.repeat(200)}`,
  };
  for (const [kind, text] of Object.entries(kinds)) {
    await withFolder(async (settings) => {
      const small = { ...settings, maxSize: 50_000 };
      const captured = capture();
      const cache = await ResultCache.open(small, { version: 'v1', log: captured.log });
      // Checked while running too: closing compacts, which would hide a log that outgrew its limit. A compaction
      // under way writes its new segment (at most half of max_size) beside the old ones it then drops
      for (let i = 0; i < 2_000; i++) {
        cache.store('bnac', [text(i)], [GREY]);
        if (i % 400 !== 399) continue;
        await new Promise((resolve) => setTimeout(resolve, 60));
        const bytes = await cacheBytesOnDisk(small.folder);
        assert.ok(bytes <= 1.5 * small.maxSize, `${kind}: ${bytes} bytes on disk after ${i + 1} texts`);
      }
      await cache.close();
      const bytes = await cacheBytesOnDisk(small.folder);
      assert.ok(bytes <= small.maxSize && bytes > small.maxSize / 8, `${kind}: ${bytes} bytes on disk`);
      assert.ok(cache.stats().size_in_bytes <= small.maxSize, kind);
      assert.equal(captured.warnings, [], kind);
      const again = await ResultCache.open(small, { version: 'v1', log: capture().log });
      assert.equal(again.lookup('bnac', [text(1_999)]), [GREY], kind);
      await again.close();
    });
  }
});

test('cache neither counts nor stores when disabled', () =>
  withFolder(async (settings) => {
    const cache = await ResultCache.open({ ...settings, enabled: false }, { version: 'v1', log: capture().log });
    cache.store('bnac', ['a'], [GREY]);
    assert.equal(cache.lookup('bnac', ['a']), [undefined]);
    assert.equal(cache.stats(), {
      cache_enabled: false,
      stats_enabled: false,
      timer_enabled: false,
      hit_requests: 0,
      miss_requests: 0,
      size_in_bytes: 0,
      number_of_elements: 0,
      avg_get_time_ms: 0,
      avg_set_time_ms: 0,
    });
    assert.equal(cache.info(), { cache_enabled: false, folder: settings.folder, max_size: String(settings.maxSize) });
    await cache.close();
    assert.equal(await readdir(settings.folder), []);
  }));

test.run();
