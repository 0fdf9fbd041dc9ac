/**
 * A filesystem that can really fill up, for tests of what a store does on a full disk: a 512 KiB tmpfs mounted on a
 * fresh folder (needs root; the caller skips, with the refusal, when it cannot be mounted).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The mounted folder, or why it could not be mounted (the folder is then a plain one) */
export function mountSmallDisk(prefix: string): { folder: string; refusal?: string } {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', folder], { stdio: 'pipe' });
    return { folder };
  } catch (error) {
    return { folder, refusal: String((error as { stderr?: Buffer }).stderr ?? error).trim() };
  }
}

/** Fills the filesystem holding `file` until it has no byte left */
export async function fill(file: string): Promise<void> {
  const handle = await open(file, 'w');
  const block = Buffer.alloc(4096, 1);
  try {
    for (;;) await handle.write(block);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    await handle.close();
  }
}
