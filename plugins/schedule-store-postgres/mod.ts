/**
 * Built-in plugin `schedule-store-postgres`: schedules in PostgreSQL, for several Capstan hosts sharing
 * one database. Connection: config `connectionString`, else env `DATABASE_URL`; with neither it refuses to
 * start (a guessed database would be someone else's). Tables live in config `schema` (default `public`),
 * migrated at start.
 *
 * @example
 * ```ts
 * import { usePlugin } from '../../runtime/mod.ts';
 * import type { ScheduleStore } from '../../runtime/mod.ts';
 * const config = { connectionString: 'postgres://postgres@127.0.0.1:5432/test', schema: 'demo' };
 * const { service: store, close } = await usePlugin<ScheduleStore>({ id: 'schedule-store-postgres', config });
 * await store.list(); // []
 * await close();
 * ```
 */
import { scheduleStorePostgresConfigSchema } from '../../generated/validators/plugins/schedule-store-postgres.ts';
import { definePlugin, meteredStore } from '../../runtime/mod.ts';
import { errors } from './errors.ts';
import { PostgresStore } from './pg-store.ts';

export default definePlugin({
  id: 'schedule-store-postgres',
  kind: 'store',
  apiVersion: '^1.2.0',
  description: 'Schedule store in PostgreSQL, shared by hosts',
  config: scheduleStorePostgresConfigSchema,
  errors,
  capabilities: { env: ['DATABASE_URL'] },
  async setup(ctx) {
    const connectionString = ctx.config.connectionString ?? ctx.env.DATABASE_URL;
    if (connectionString === undefined || connectionString === '') {
      throw errors.STORE_ERR_POSTGRES_NO_DATABASE(ctx.id);
    }
    const store = await PostgresStore.open({
      connectionString,
      schema: ctx.config.schema,
      poolSize: ctx.config.poolSize,
    });
    return { service: meteredStore(store, ctx.metrics), ready: () => store.ready(), close: () => store.close() };
  },
});
