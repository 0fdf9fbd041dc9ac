import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Bytes of the file cache's segments (`*.log`) in `folder`. A compaction drops old segments while a test reads the
 * folder: a segment gone between the listing and its stat is no longer on disk, so it counts as nothing.
 */
export async function cacheBytesOnDisk(folder: string): Promise<number> {
  const names = (await readdir(folder)).filter((name) => name.endsWith('.log'));
  const sizes = await Promise.all(
    names.map((name) =>
      stat(join(folder, name)).then(
        (info) => info.size,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return 0;
          throw error;
        },
      ),
    ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}
