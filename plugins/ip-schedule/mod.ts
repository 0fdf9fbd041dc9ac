/**
 * Built-in plugin `ip-schedule`: the IP warm-up schedule API (spec/openapi/ip-schedule.yaml) over a
 * swappable schedule store (`schedule-store-file` unless config `store` names another instance).
 *
 * @example
 * ```ts
 * import { startHost } from '../../runtime/mod.ts';
 * const host = await startHost({
 *   version: '6.10',
 *   servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
 *   plugins: [{ id: 'ip-schedule', config: { timezone: 'Europe/Stockholm' } }],
 * }, { ephemeralPorts: true });
 * await fetch(`${host.urls[0]}/status`); // {"ips":{}}
 * await host.close();
 * ```
 */
import { definePlugin, Type } from '../../runtime/mod.ts';
import { errors } from './errors.ts';
import type { ScheduleStore } from '../../runtime/mod.ts';
import { isTimeZone, today } from './dates.ts';
import { createHandlers } from './handlers.ts';
import { scheduleMetrics } from './metrics.ts';

const Config = Type.Object({
  store: Type.Optional(Type.String({ minLength: 1, description: 'Id of the store plugin instance in plugins[]' })),
  timezone: Type.String({ default: 'UTC', description: 'IANA time zone schedule days are counted in' }),
  authentication: Type.Optional(Type.Object({
    apikeys: Type.Array(Type.String({ minLength: 1 }), { description: 'Keys accepted in X-Api-Key' }),
  }, { additionalProperties: false })),
}, { additionalProperties: false });

export default definePlugin({
  id: 'ip-schedule',
  kind: 'api',
  api: 'ip-schedule',
  apiVersion: '^1.2.0',
  description: 'Per-IP, per-grouping sending volume schedules and their status',
  config: Config,
  errors,
  capabilities: {
    services: { store: { kind: 'store', configKey: 'store', default: 'schedule-store-file' } },
  },
  setup(ctx) {
    const { timezone, authentication } = ctx.config;
    if (!isTimeZone(timezone)) throw errors.SCHEDULE_ERR_TIME_ZONE(timezone);
    const store = ctx.services.store as ScheduleStore;
    scheduleMetrics(ctx.metrics, store, () => today(timezone, new Date()));
    return {
      handlers: createHandlers({ store, timezone }),
      auth: { header: 'x-api-key', keys: authentication?.apikeys ?? [] },
    };
  },
});
