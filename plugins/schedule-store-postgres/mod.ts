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
    applicationName: Type.String({ default: 'capstan-schedule-store', minLength: 1, maxLength: 57, description: 'application_name of the pool\'s connections in pg_stat_activity; the listening connection adds "-watch"' }),
    connectTimeout: Type.Number({ default: 5, exclusiveMinimum: 0, maximum: 300, description: 'Seconds to open a connection, and to wait for a free one of the pool' }),
    statementTimeout: Type.Number({ default: 10, exclusiveMinimum: 0, maximum: 3600, description: 'Seconds a statement may run on the server (statement_timeout)' }),
    lockTimeout: Type.Number({ default: 5, exclusiveMinimum: 0, maximum: 3600, description: 'Seconds a statement may wait for a lock (lock_timeout)' }),
    idleInTransactionTimeout: Type.Number({ default: 30, exclusiveMinimum: 0, maximum: 3600, description: 'Seconds the server keeps a transaction left idle (idle_in_transaction_session_timeout)' }),
    queryTimeout: Type.Number({ default: 12, exclusiveMinimum: 0, maximum: 3600, description: 'Seconds the client waits for a query\'s answer, whatever the server knows (a partition)' }),
    maxWaiting: Type.Integer({ default: 1000, minimum: 1, description: 'Queries that may wait for a free connection; more are refused at once with 503' }),
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
    const { schema, poolSize, applicationName, maxWaiting } = ctx.config;
    const ms = (seconds: number) => Math.max(1, Math.round(seconds * 1000));
    const store = await PostgresStore.open({
      connectionString, schema, poolSize, applicationName, maxWaiting, log: ctx.log,
      connectTimeout: ms(ctx.config.connectTimeout),
      statementTimeout: ms(ctx.config.statementTimeout),
      lockTimeout: ms(ctx.config.lockTimeout),
      idleInTransactionTimeout: ms(ctx.config.idleInTransactionTimeout),
      queryTimeout: ms(ctx.config.queryTimeout),
      auditRetentionDays: ctx.config.audit.retentionDays,
      onAuditError: (error) => ctx.log.warn('cannot delete audit entries past their retention: trying again within the hour', { error }),
    });
    return { service: meteredStore(store, ctx.metrics), ready: () => store.ready(), close: () => store.close() };
  },
});
