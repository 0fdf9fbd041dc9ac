import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces `path` with `data` so that a crash at any moment leaves either the old or the new file, never a torn one:
 * write a temporary file beside it, fsync it, rename it over `path`, then fsync the folder so the rename is durable.
 * `data` may come as chunks (any iterable, sync or async), so a large file is written without holding it whole in
 * memory; the temporary file is removed when writing or renaming fails.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array | Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  const file = await open(temporary, 'w');
  try {
    if (typeof data === 'string' || data instanceof Uint8Array) await file.writeFile(data);
    else for await (const chunk of data) await file.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
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
