import type { PluginMetrics } from '../core/types.ts';
import type { ScheduleStore } from './store.ts';

type Operation =
  | 'get'
  | 'list'
  | 'put'
  | 'delete'
  | 'listPolicies'
  | 'putPolicy'
  | 'deletePolicy'
  | 'replacePolicy'
  | 'appendAudit'
  | 'queryAudit'
  | 'exchangeCounts'
  | 'claimCounts';
const OPERATIONS: readonly Operation[] = [
  'get',
  'list',
  'put',
  'delete',
  'listPolicies',
  'putPolicy',
  'deletePolicy',
  'replacePolicy',
  'appendAudit',
  'queryAudit',
  'exchangeCounts',
  'claimCounts',
];

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
  // Bound label objects: a store operation allocates nothing more for its count
  const labels = Object.fromEntries(
    OPERATIONS.map((operation) => [
      operation,
      {
        ok: { operation, outcome: 'ok' },
        conflict: { operation, outcome: 'conflict' },
        error: { operation, outcome: 'error' },
      },
    ]),
  ) as Record<Operation, Record<'ok' | 'conflict' | 'error', { operation: Operation; outcome: string }>>;
  const counted = async <T>(
    operation: Operation,
    run: () => Promise<T>,
    lost: (value: T) => boolean = () => false,
  ): Promise<T> => {
    let value: T;
    try {
      value = await run();
    } catch (error) {
      operations.inc(labels[operation].error);
      throw error;
    }
    operations.inc(lost(value) ? labels[operation].conflict : labels[operation].ok);
    return value;
  };
  // The optional methods stay absent when the store lacks them: callers test for them
  const {
    watch,
    listPolicies,
    putPolicy,
    deletePolicy,
    replacePolicy,
    appendAudit,
    queryAudit,
    exchangeCounts,
    claimCounts,
  } = store;
  return {
    get: (ip) => counted('get', () => store.get(ip)),
    list: () => counted('list', () => store.list()),
    put: (ip, record, condition, options) =>
      counted(
        'put',
        () => store.put(ip, record, condition, options),
        (version) => version === undefined,
      ),
    delete: (ip, condition, options) =>
      counted(
        'delete',
        () => store.delete(ip, condition, options),
        (deleted) => !deleted,
      ),
    ...(watch ? { watch: (listener) => watch.call(store, listener) } : {}),
    ...(listPolicies ? { listPolicies: () => counted('listPolicies', () => listPolicies.call(store)) } : {}),
    ...(putPolicy
      ? { putPolicy: (policy, options) => counted('putPolicy', () => putPolicy.call(store, policy, options)) }
      : {}),
    ...(deletePolicy
      ? {
          deletePolicy: (id, condition, options) =>
            counted(
              'deletePolicy',
              () => deletePolicy.call(store, id, condition, options),
              (deleted) => !deleted,
            ),
        }
      : {}),
    ...(replacePolicy
      ? {
          replacePolicy: (policy, condition, options) =>
            counted(
              'replacePolicy',
              () => replacePolicy.call(store, policy, condition, options),
              (replaced) => !replaced,
            ),
        }
      : {}),
    ...(appendAudit
      ? { appendAudit: (entries) => counted('appendAudit', () => appendAudit.call(store, entries)) }
      : {}),
    ...(queryAudit ? { queryAudit: (query) => counted('queryAudit', () => queryAudit.call(store, query)) } : {}),
    ...(exchangeCounts
      ? {
          exchangeCounts: (host, batch, after) =>
            counted('exchangeCounts', () => exchangeCounts.call(store, host, batch, after)),
        }
      : {}),
    ...(claimCounts ? { claimCounts: (claims) => counted('claimCounts', () => claimCounts.call(store, claims)) } : {}),
  };
}
