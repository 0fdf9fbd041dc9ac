import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** A chunk of `writeFileAtomic` asking for the chunks before it to be made durable before the next is written */
export const SYNC_POINT: unique symbol = Symbol('sync point');

type Chunk = string | Uint8Array | typeof SYNC_POINT;

/**
 * Replaces `path` with `data` so that a crash at any moment leaves either the old or the new file, never a torn one:
 * write a temporary file beside it, fsync it, rename it over `path`, then fsync the folder so the rename is durable.
 * `data` may come as chunks (any iterable, sync or async), so a large file is written without holding it whole in
 * memory; the temporary file is removed when writing or renaming fails. A `SYNC_POINT` among the chunks makes what
 * was written before it durable there (fdatasync), so that the fsync at the end has only the rest to flush: for a
 * writer that holds others up while it writes its last chunks.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array | Iterable<Chunk> | AsyncIterable<Chunk>,
): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const file = await open(temporary, 'w');
  try {
    if (typeof data === 'string' || data instanceof Uint8Array) await file.writeFile(data);
    else
      for await (const chunk of data) {
        if (chunk === SYNC_POINT) await file.datasync();
        else await file.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      }
    await file.sync();
  } catch (error) {
    await file.close();
    await rm(temporary, { force: true });
    throw error;
  }
  await file.close();
  try {
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
  const folder = await open(dirname(path), 'r');
  try {
    await folder.sync();
  } finally {
    await folder.close();
  }
}
