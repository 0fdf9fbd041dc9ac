import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { hostErrors } from '../core/host-errors.ts';
import type { Logger, PoolHandle } from '../core/types.ts';

/** The file each pool thread starts with (why it is CommonJS: see the file) */
export const POOL_ENTRY = new URL('./worker-entry.cjs', import.meta.url).href;

/** A named pool size from `threads.scripts[]` */
export interface PoolSpec {
  id: string;
  count: number;
}

/**
 * The host's worker pools: one per `threads.scripts[]` entry, created on first use, and one shared pool sized to the
 * machine (cores − 1, at least 1) for plugins that name none.
 */
export class PoolRegistry {
  readonly #specs: Map<string, number>;
  readonly #pools = new Map<string, Piscina>();
  /** Tasks handed to each pool and not settled yet, running or queued */
  readonly #pending = new Map<string, number>();
  readonly #log: Logger;

  constructor(specs: readonly PoolSpec[], log: Logger) {
    this.#specs = new Map(specs.map((s) => [s.id, s.count]));
    this.#log = log;
  }

  #pool(scriptPool: string | undefined): Piscina {
    const key = scriptPool ?? '';
    let pool = this.#pools.get(key);
    if (pool) return pool;
    const threads = scriptPool === undefined ? Math.max(1, availableParallelism() - 1) : this.#specs.get(scriptPool);
    if (threads === undefined) throw hostErrors.POOL_ERR_UNKNOWN(scriptPool!);
    pool = new Piscina({
      filename: POOL_ENTRY,
      minThreads: threads,
      maxThreads: threads,
      maxQueue: threads * 256,
      idleTimeout: 60_000,
    });
    // Piscina reports what belongs to no task as an error event, which unheard would end the process: an answer that
    // arrives for a task given up (a client went away) after its thread was stopped, a thread failing between tasks
    pool.on('error', (error: Error) =>
      this.#log.warn('Worker pool error', {
        pool: key === '' ? 'shared' : key,
        // The first line: the rest is the orphaned answer, as long as a batch's results
        error: error.message.split('\n')[0],
      }),
    );
    this.#pools.set(key, pool);
    return pool;
  }

  /** A handle running `worker` (a module URL) with `init` in the `threads.scripts[]` pool `scriptPool`, or the shared one */
  handle(worker: string, init: unknown, scriptPool?: string): PoolHandle {
    const pool = this.#pool(scriptPool);
    const key = scriptPool ?? '';
    return {
      threads: pool.options.maxThreads,
      run: async (payload, options) => {
        if (pool.queueSize >= pool.options.maxQueue) {
          throw hostErrors.POOL_ERR_QUEUE_FULL();
        }
        this.#pending.set(key, (this.#pending.get(key) ?? 0) + 1);
        try {
          return await pool.run({ module: worker, init, payload }, { signal: options?.signal });
        } finally {
          this.#pending.set(key, this.#pending.get(key)! - 1);
        }
      },
    };
  }

  /** Each pool in use (`shared` for the machine-sized one): its threads, tasks waiting, and threads running a task */
  stats(): { pool: string; threads: number; queued: number; busy: number }[] {
    return [...this.#pools].map(([key, pool]) => {
      const threads = pool.options.maxThreads;
      const queued = pool.queueSize;
      return {
        pool: key === '' ? 'shared' : key,
        threads,
        queued,
        busy: Math.max(0, Math.min(threads, (this.#pending.get(key) ?? 0) - queued)),
      };
    });
  }

  /** Stops every pool after its queued tasks */
  async close(): Promise<void> {
    await Promise.all([...this.#pools.values()].map((p) => p.close()));
    this.#pools.clear();
  }
}
