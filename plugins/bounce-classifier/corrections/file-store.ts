import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeFolder, writeFileAtomic } from '../../../runtime/mod.ts';
import { CorrectionsFull, type Correction, type CorrectionStore } from './store.ts';

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
    // None yet, or no folder to hold it (the cache then runs in memory, and a correction's write fails, answered 500);
    // a file that cannot be read stops start-up: writing over it would lose the operators' corrections
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      throw new Error(`Cannot read corrections file "${path}": ${(error as Error).message}`);
  }
  const listeners = new Set<() => void>();
  // One change at a time, each computed from the last one written: a later change must not be lost to an earlier one
  // finishing last, and a failed write changes nothing (its caller gets the error, the next change runs)
  let queue: Promise<unknown> = Promise.resolve();
  const change = <T>(next: (current: Correction[]) => { list: Correction[]; answer: T }): Promise<T> => {
    const run = queue
      .catch(() => undefined)
      .then(async () => {
        const { list, answer } = next(corrections);
        if (list !== corrections) {
          await makeFolder(folder);
          await writeFileAtomic(path, JSON.stringify({ corrections: list }, null, 1));
          corrections = list;
          listeners.forEach((listener) => listener());
        }
        return answer;
      });
    queue = run;
    return run;
  };
  return {
    list: async () => [...corrections],
    newest: async (limit) => ({ corrections: corrections.slice(-limit), total: corrections.length }),
    put: (correction, { replacing, maxCount }) =>
      change((current) => {
        const replaced = current.filter((c) => c.normalised === correction.normalised || c.id === replacing);
        const kept = current.filter((c) => !replaced.includes(c));
        if (kept.length >= maxCount) throw new CorrectionsFull(kept.length, maxCount);
        return { list: [...kept, correction], answer: replaced[0] };
      }),
    delete: (id) =>
      change((current) => {
        const removed = current.find((c) => c.id === id);
        return { list: removed ? current.filter((c) => c !== removed) : current, answer: removed };
      }),
    watch: async (listener) => void listeners.add(listener),
    close: () =>
      queue.then(
        () => undefined,
        () => undefined,
      ),
  };
}
