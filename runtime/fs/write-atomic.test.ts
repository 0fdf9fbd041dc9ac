import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYNC_POINT, writeFileAtomic } from '../mod.ts';

let folder = '';
test.before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'capstan-atomic-'));
});
test.after(() => rm(folder, { recursive: true, force: true }));

test('writeFileAtomic writes every chunk in order when given an async iterable, and leaves no temporary file', async () => {
  const path = join(folder, 'chunks.log');
  await writeFile(path, 'old');
  async function* chunks() {
    yield 'one ';
    yield new TextEncoder().encode('two ');
    // Syncs what came before it, and is not written
    yield SYNC_POINT;
    yield 'three';
  }
  await writeFileAtomic(path, chunks());
  assert.is(await readFile(path, 'utf8'), 'one two three');
  assert.equal(await readdir(folder), ['chunks.log']);
});

test('writeFileAtomic keeps the old file and removes its temporary file when the chunks fail midway', async () => {
  const path = join(folder, 'failing.log');
  await writeFile(path, 'old');
  function* chunks() {
    yield 'partial';
    throw new Error('source broke');
  }
  let refused: unknown;
  await writeFileAtomic(path, chunks()).catch((error: unknown) => (refused = error));
  assert.instance(refused, Error);
  assert.is((refused as Error).message, 'source broke');
  assert.is(await readFile(path, 'utf8'), 'old');
  assert.equal((await readdir(folder)).sort(), ['chunks.log', 'failing.log']);
});

test.run();
