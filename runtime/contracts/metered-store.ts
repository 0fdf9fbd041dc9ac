import { storeContract } from '../../generated/contracts/store.ts';
import type { PluginMetrics } from '../core/types.ts';
import type { ScheduleStore } from './store.ts';

type Outcome = 'ok' | 'conflict' | 'error';
type Method = (...args: unknown[]) => Promise<unknown>;

// A subscription rather than store work: its notices would swamp the operation counts
const UNCOUNTED = new Set(['watch']);
// Compare-and-set writes answer undefined (put) or false when they lost, which callers retry: counted apart
const COMPARE_AND_SET = new Set(['put', 'delete', 'deletePolicy', 'replacePolicy']);
// From the contract, so that an operation added to spec/contracts/store.yaml is counted without a change here
const OPERATIONS = Object.keys(storeContract.methods).filter((name) => !UNCOUNTED.has(name));

/**
 * The store with each operation counted in `capstan_store_operations_total{plugin, operation, outcome}`: outcome
 * `ok`, `conflict` (a compare-and-set that lost, which callers retry) or `error` (the operation threw). For store
 * plugins, ours and others', so that every store reports the same family. Since plugin API 1.2
 */
export function meteredStore(store: ScheduleStore, metrics: PluginMetrics): ScheduleStore {
  const operations = metrics.counter({
    name: 'store_operations_total',
    help: 'Schedule store operations, by store instance, operation (get, list, put, delete, the applied-policy and the audit operations) and outcome (ok, conflict, error)',
    labelNames: ['operation', 'outcome'],
  });
  const members = store as unknown as Record<string, Method | undefined>;
  const metered: Record<string, Method> = {};
  for (const operation of OPERATIONS) {
    const method = members[operation];
    // Optional operations stay absent when the store lacks them: callers test for them
    if (method === undefined) continue;
    // Bound label objects: a store operation allocates nothing more for its count
    const labels: Record<Outcome, { operation: string; outcome: Outcome }> = {
      ok: { operation, outcome: 'ok' },
      conflict: { operation, outcome: 'conflict' },
      error: { operation, outcome: 'error' },
    };
    const compareAndSet = COMPARE_AND_SET.has(operation);
    metered[operation] = async (...args) => {
      let value: unknown;
      try {
        value = await method.apply(store, args);
      } catch (error) {
        operations.inc(labels.error);
        throw error;
      }
      const lost = compareAndSet && (value === undefined || value === false);
      operations.inc(lost ? labels.conflict : labels.ok);
      return value;
    };
  }
  for (const name of UNCOUNTED) {
    const method = members[name];
    if (method !== undefined) metered[name] = (...args) => method.apply(store, args);
  }
  return metered as unknown as ScheduleStore;
}
