/**
 * Built-in plugin `schedule-store-postgres`: schedules in PostgreSQL, for several Capstan hosts sharing
 * one database. Connection: config `connectionString`, else env `DATABASE_URL`; with neither it refuses to
 * start (a guessed database would be someone else's). Tables live in config `schema` (default `public`),
 * migrated at start. Every wait on the database is bounded (config `*Timeout`, in seconds); an operation that cannot
 * reach it fails with `STORE_ERR_POSTGRES_UNAVAILABLE` (503 with `Retry-After`), and readiness fails until a write or
 * probe gets through (docs/operations.md, "Production: PostgreSQL").
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
  apiVersion: '^1.9.0',
  description: 'Schedule store in PostgreSQL, shared by hosts',
  config: scheduleStorePostgresConfigSchema,
  errors,
  capabilities: { env: ['DATABASE_URL'] },
  async setup(ctx) {
    const connectionString = ctx.config.connectionString ?? ctx.env.DATABASE_URL;
    if (connectionString === undefined || connectionString === '') {
      throw errors.STORE_ERR_POSTGRES_NO_DATABASE(ctx.id);
    }
    const { schema, poolSize, applicationName, maxWaiting } = ctx.config;
    const ms = (seconds: number) => Math.max(1, Math.round(seconds * 1000));
    const store = await PostgresStore.open({
      connectionString,
      schema,
      poolSize,
      applicationName,
      maxWaiting,
      log: ctx.log,
      connectTimeout: ms(ctx.config.connectTimeout),
      statementTimeout: ms(ctx.config.statementTimeout),
      lockTimeout: ms(ctx.config.lockTimeout),
      idleInTransactionTimeout: ms(ctx.config.idleInTransactionTimeout),
      queryTimeout: ms(ctx.config.queryTimeout),
      auditRetentionDays: ctx.config.audit.retentionDays,
      onAuditError: (error) =>
        ctx.log.warn('cannot delete audit entries past their retention: trying again within the hour', { error }),
    });
    return { service: meteredStore(store, ctx.metrics), ready: () => store.ready(), close: () => store.close() };
  },
});
