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
import { definePlugin, meteredStore, Type } from '../../runtime/mod.ts';
import { errors } from './errors.ts';
import { PostgresStore } from './pg-store.ts';

export default definePlugin({
  id: 'schedule-store-postgres',
  kind: 'store',
  apiVersion: '^1.2.0',
  description: 'Schedule store in PostgreSQL, shared by hosts',
  config: Type.Object({
    connectionString: Type.Optional(Type.String({ minLength: 1, description: 'postgres:// URL; else env DATABASE_URL' })),
    schema: Type.String({ default: 'public', pattern: '^[a-z_][a-z0-9_]{0,62}$', description: 'Schema holding the tables' }),
    poolSize: Type.Integer({ default: 10, minimum: 1, maximum: 100, description: 'Most connections at once' }),
    audit: Type.Object({
      retentionDays: Type.Integer({ default: 90, minimum: 1, maximum: 36500, description: 'Days audit entries are kept; older ones are deleted hourly' }),
    }, { additionalProperties: false, default: {} }),
  }, { additionalProperties: false }),
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
      auditRetentionDays: ctx.config.audit.retentionDays,
      onAuditError: (error) => ctx.log.warn('cannot delete audit entries past their retention: trying again within the hour', { error }),
    });
    return { service: meteredStore(store, ctx.metrics), ready: () => store.ready(), close: () => store.close() };
  },
});
