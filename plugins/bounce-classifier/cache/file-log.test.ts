import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FileLog } from './file-log.ts';

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

async function bytesOnDisk(folder: string): Promise<number> {
  const names = (await readdir(folder)).filter((name) => name.endsWith('.log'));
  const sizes = await Promise.all(names.map(async (name) => (await stat(join(folder, name))).size));
  return sizes.reduce((sum, size) => sum + size, 0);
}

test('the log fills its segments up to max_size on disk, then refuses the append that would pass it and asks for a compaction', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'capstan-file-log-'));
  try {
    const maxBytes = 50_000;
    let asked = 0;
    const { fileLog } = await FileLog.open(
      folder,
      { log: quiet, version: 'v1', maxBytes, onFull: () => asked++ },
      () => {},
    );
    let stored = 0;
    // Records of uneven sizes and scripts, so the limit is met between two records, not on a round number
    while (fileLog.append(['bnac', `${stored} ${'邮箱已满'.repeat(stored % 7)} mailbox full`, 'RECIPIENT_ERROR', 0.9]))
      stored++;
    assert.is(asked, 1, 'asked for a compaction when the segments were full');
    await fileLog.flush();
    const bytes = await bytesOnDisk(folder);
    assert.ok(bytes <= maxBytes, `${bytes} bytes on disk for a max_size of ${maxBytes}`);
    assert.ok(bytes > 0.95 * maxBytes, `${bytes} bytes on disk: the log stopped well short of max_size`);
    assert.ok(stored > 500, `${stored} records`);
    await fileLog.close();
    assert.is(await bytesOnDisk(folder), bytes, 'closing a full log writes nothing more');
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

test.run();
