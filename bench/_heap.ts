/**
 * Heap and external memory after two forced collections: what a bench measures a structure by. `gc` is exposed at run
 * time when node was started without `--expose-gc`, so `npm run bench` needs no flag.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

const gc: () => void =
  (globalThis as { gc?: () => void }).gc ??
  (() => {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  })();

export function heapBytes(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}
