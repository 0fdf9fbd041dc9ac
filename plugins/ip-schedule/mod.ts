/**
 * Built-in plugin `ip-schedule`: the IP warm-up schedule API (spec/openapi/ip-schedule.yaml) over a
 * swappable schedule store (`schedule-store-file` unless config `store` names another instance), and the policy
 * feed the MTA subscribes to (`/v1/policies/feed`, docs/policy-feed.md).
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
import { ipScheduleConfigSchema } from '../../generated/validators/plugins/ip-schedule.ts';
import { definePlugin } from '../../runtime/mod.ts';
import type { ReplyClassifier, ScheduleStore } from '../../runtime/mod.ts';
import { BackoffEngine, backoffHandlers, policyTable } from './backoff/mod.ts';
import { errors } from './errors.ts';
import { feedOperations, PolicyFeed } from './feed/mod.ts';
import { createHandlers } from './handlers.ts';
import { backoffMetrics, feedMetrics, scheduleMetrics } from './metrics.ts';

export default definePlugin({
  id: 'ip-schedule',
  kind: 'api',
  api: 'ip-schedule',
  apiVersion: '^1.2.0',
  description: 'Per-IP, per-grouping sending volume schedules and their status',
  // spec/schema/plugins/ip-schedule.schema.json: the time zone, the backoff classes and the rows are checked there
  config: ipScheduleConfigSchema,
  errors,
  capabilities: {
    services: {
      store: { kind: 'store', configKey: 'store', default: 'schedule-store-file' },
      classifier: { kind: 'api', configKey: 'classifier', default: 'bounce-classifier', optional: true },
    },
  },
  async setup(ctx) {
    const { timezone, authentication, feed: settings, backoff } = ctx.config;
    const store = ctx.services.store as ScheduleStore;
    const classifier = ctx.services.classifier as ReplyClassifier | undefined;
    if (classifier && typeof classifier.classifyReplies !== 'function') {
      throw errors.SCHEDULE_ERR_CLASSIFIER_SERVICE(ctx.config.classifier ?? 'bounce-classifier');
    }
    const table = policyTable(backoff);
    if (!store.watch) ctx.log.warn('the schedule store has no watch(): the policy feed sees only this host\'s writes');
    let feed: PolicyFeed | undefined;
    scheduleMetrics(ctx.metrics, () => feed);
    const counters = feedMetrics(ctx.metrics, () => feed);
    feed = await PolicyFeed.start({
      store, timezone, log: ctx.log, maxBufferedBytes: settings.maxBufferedBytes, pingIntervalMs: settings.pingInterval * 1000, counters,
    });
    const policies = feedOperations(feed);
    const engine = new BackoffEngine(table, (id) => feed.appliedPolicy(id));
    const events = backoffHandlers({ classifier, store, engine, notice: (change) => feed.notice(change), now: Date.now, received: backoffMetrics(ctx.metrics) });
    return {
      handlers: { ...createHandlers({ store, timezone, changed: (ip) => feed.notice({ ip }) }), ...policies.handlers, ...events },
      // Batches of backoff events: 10,000 replies of a few hundred bytes
      bodyLimit: 8 * 1024 * 1024,
      sockets: policies.sockets,
      auth: { header: 'x-api-key', keys: authentication?.apikeys ?? [], query: 'api_key' },
      close: () => feed.close(),
    };
  },
});
