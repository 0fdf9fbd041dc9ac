/**
 * Built-in plugin `schedule-store-file`: the default schedule store, one append-only file compacted off the hot path
 * (`<startup document folder>/var/<instance id>/schedules.json` unless config `path` says otherwise; the name is
 * kept from format 1, which was one JSON object).
 * Meant for one host: hosts sharing schedules use `schedule-store-postgres`.
 *
 * @example
 * ```ts
 * import { usePlugin } from '../../runtime/mod.ts';
 * import type { ScheduleStore } from '../../runtime/mod.ts';
 * const { service: store, close } = await usePlugin<ScheduleStore>({ id: 'schedule-store-file' }, { baseDir:
 * '/tmp/demo' });
 * await store.put('192.0.2.1', { groupings: [] }, { expected: null }); // 1
 * await close();
 * ```
 */
import { resolve } from 'node:path';
import { scheduleStoreFileConfigSchema } from '../../generated/validators/plugins/schedule-store-file.ts';
import { definePlugin, meteredStore } from '../../runtime/mod.ts';
import { errors } from './errors.ts';
import { LogFileStore } from './log-file.ts';

export default definePlugin({
  id: 'schedule-store-file',
  kind: 'store',
  apiVersion: '^1.9.0',
  description: 'Schedule store in one append-only file with group commit and compaction',
  config: scheduleStoreFileConfigSchema,
  errors,
  capabilities: { paths: ['./var'] },
  async setup(ctx) {
    const { retentionDays, maxEntries } = ctx.config.audit;
    const store = await LogFileStore.open(
      resolve(ctx.baseDir, ctx.config.path ?? `${ctx.dataDir}/schedules.json`),
      ctx.log,
      {
        days: retentionDays,
        entries: maxEntries,
        onError: (error) =>
          ctx.log.error('cannot write the audit file: its entries are kept and written with the next commit', {
            error,
          }),
      },
      ctx.config.compaction,
    );
    return { service: meteredStore(store, ctx.metrics), ready: () => store.ready(), close: () => store.close() };
  },
});
