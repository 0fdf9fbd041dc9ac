import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

/**
 * Creates `path` and any missing folders above it, as `mkdir(path, { recursive: true })` would. Node's own recursive
 * mkdir never settles when the kernel refuses a folder under one that exists with ENOENT (a path under /proc or /sys):
 * it creates the parent again (EEXIST), then the child (ENOENT), forever, so a host configured with such a folder
 * would hang at start without a word. Here each missing folder is made once, top down, and the first refusal rejects.
 */
export async function makeFolder(path: string): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(path); ; at = dirname(at)) {
    const found = await stat(at).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT' || dirname(at) === at) throw error;
      return undefined;
    });
    if (found) break;
    missing.push(at);
  }
  for (const folder of missing.reverse()) {
    // Another process may make it meanwhile; anything but a folder there is found by the next mkdir or by the caller
    await mkdir(folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    });
  }
}
