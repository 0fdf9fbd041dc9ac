/**
 * Built-in plugin `schedule-store-postgres`: schedules in PostgreSQL, for several Capstan hosts sharing
 * one database. Connection: config `connectionString`, else env `DATABASE_URL`, else
 * `postgres://postgres@127.0.0.1:5432/test`. Tables live in config `schema` (default `public`), migrated
 * at start.
 *
 * @example
 * ```ts
 * import { usePlugin } from '../../runtime/mod.ts';
 * import type { ScheduleStore } from '../../runtime/mod.ts';
 * const { service: store, close } = await usePlugin<ScheduleStore>({ id: 'schedule-store-postgres', config: { schema: 'demo' } });
 * await store.list(); // []
 * await close();
 * ```
 */
import { definePlugin, Type } from '../../runtime/mod.ts';
import { PostgresStore } from './pg-store.ts';

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/test';

export default definePlugin({
  id: 'schedule-store-postgres',
  kind: 'store',
  apiVersion: '^1.0.0',
  description: 'Schedule store in PostgreSQL, shared by hosts',
  config: Type.Object({
    connectionString: Type.Optional(Type.String({ minLength: 1, description: 'postgres:// URL; else env DATABASE_URL' })),
    schema: Type.String({ default: 'public', pattern: '^[a-z_][a-z0-9_]{0,62}$', description: 'Schema holding the tables' }),
    poolSize: Type.Integer({ default: 10, minimum: 1, maximum: 100, description: 'Most connections at once' }),
  }, { additionalProperties: false }),
  capabilities: { env: ['DATABASE_URL'] },
  async setup(ctx) {
    const store = await PostgresStore.open({
      connectionString: ctx.config.connectionString ?? ctx.env.DATABASE_URL ?? DEFAULT_URL,
      schema: ctx.config.schema,
      poolSize: ctx.config.poolSize,
    });
    return { service: store, close: () => store.close() };
  },
});
