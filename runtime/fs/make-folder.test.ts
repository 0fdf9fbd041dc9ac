import { mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { suite } from '../../test/_deadline.ts';
import { makeFolder } from '../mod.ts';

// A recursive mkdir that loops never settles: each test fails at its deadline rather than hang the file
const test = suite('makeFolder', 5000);

test('makeFolder makes every missing folder, and does nothing where the folder is', async () => {
  const root = await mkdtemp(join(tmpdir(), 'capstan-folder-'));
  try {
    const deep = join(root, 'a', 'b', 'c');
    await makeFolder(deep);
    assert.ok((await stat(deep)).isDirectory());
    await makeFolder(deep);
    await makeFolder(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('makeFolder rejects where a folder cannot be made, where recursive mkdir would never settle', async () => {
  const root = await mkdtemp(join(tmpdir(), 'capstan-folder-'));
  try {
    await writeFile(join(root, 'file'), '');
    await symlink(join(root, 'nowhere'), join(root, 'dangling'));
    const code = (path: string) =>
      makeFolder(path).then(
        () => 'made',
        (error: NodeJS.ErrnoException) => error.code,
      );
    assert.is(await code(join(root, 'file', 'x')), 'ENOTDIR');
    assert.is(await code(join(root, 'dangling', 'x')), 'ENOENT');
    // The kernel refuses any new entry in /proc with ENOENT
    assert.is(await code('/proc/capstan-no-such-folder/x'), 'ENOENT');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test.run();
