import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../runtime/mod.ts';
import type { Correction, CorrectionStore } from './store.ts';

/**
 * Corrections in `corrections.json` of the cache folder, for a single host: read at start, replaced whole (atomically)
 * on each change, which operators make by hand, a few a day. Hosts that must share corrections use PostgreSQL
 */
export async function openFileStore(folder: string): Promise<CorrectionStore> {
  const path = join(folder, 'corrections.json');
  let corrections: Correction[] = [];
  try {
    corrections = (JSON.parse(await readFile(path, 'utf8')) as { corrections: Correction[] }).corrections;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`Cannot read corrections file "${path}": ${(error as Error).message}`);
  }
  const listeners = new Set<() => void>();
  // One write at a time, in order: a later change must not be overwritten by an earlier one finishing last
  let writing = Promise.resolve();
  const save = (next: Correction[]) => {
    corrections = next;
    const body = JSON.stringify({ corrections: next }, null, 1);
    writing = writing.then(async () => {
      await mkdir(folder, { recursive: true });
      await writeFileAtomic(path, body);
    });
    return writing.then(() => listeners.forEach((listener) => listener()));
  };
  return {
    list: async () => [...corrections],
    async put(correction) {
      const replaced = corrections.find((c) => c.normalised === correction.normalised);
      await save([...corrections.filter((c) => c !== replaced), correction]);
      return replaced;
    },
    async delete(id) {
      const removed = corrections.find((c) => c.id === id);
      if (removed) await save(corrections.filter((c) => c !== removed));
      return removed;
    },
    watch: async (listener) => void listeners.add(listener),
    close: () => writing,
  };
}
