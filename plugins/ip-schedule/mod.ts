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
import { definePlugin, Type } from '../../runtime/mod.ts';
import type { ReplyClassifier, ScheduleStore } from '../../runtime/mod.ts';
import { auditHandlers, policyChange, SYSTEM } from './audit.ts';
import { BackoffConfig, BackoffEngine, backoffHandlers, policyTable } from './backoff/mod.ts';
import { isTimeZone } from './dates.ts';
import { errors } from './errors.ts';
import { feedOperations, PolicyFeed } from './feed/mod.ts';
import { createHandlers } from './handlers.ts';
import { replayCommand } from './replay/command.ts';
import { backoffMetrics, feedMetrics, scheduleMetrics } from './metrics.ts';

const Config = Type.Object({
  store: Type.Optional(Type.String({ minLength: 1, description: 'Id of the store plugin instance in plugins[]' })),
  classifier: Type.Optional(Type.String({ minLength: 1, description: 'Id of the bounce-classifier instance backoff events are classified by (default: "bounce-classifier" when it is in plugins[])' })),
  timezone: Type.String({ default: 'UTC', description: 'IANA time zone schedule days are counted in' }),
  authentication: Type.Optional(Type.Object({
    apikeys: Type.Array(Type.Union([
      Type.String({ minLength: 1 }),
      Type.Object({
        name: Type.String({ minLength: 1, description: 'Who uses the key, as requests made with it are logged' }),
        key: Type.String({ minLength: 1 }),
      }, { additionalProperties: false }),
    ]), { description: 'Keys accepted in X-Api-Key (and in the feed address\'s api_key), besides the host\'s API_KEY: a key, or {name, key}' }),
  }, { additionalProperties: false })),
  feed: Type.Object({
    pingInterval: Type.Number({ default: 30, exclusiveMinimum: 0, maximum: 3600, description: 'Seconds between pings; a client that missed the last one is dropped' }),
    maxBufferedBytes: Type.Integer({ default: 4 * 1024 * 1024, minimum: 65536, description: 'Bytes a client may fall behind before it is dropped (it reconnects and resyncs)' }),
  }, { additionalProperties: false, default: {} }),
  backoff: BackoffConfig,
}, { additionalProperties: false });

export default definePlugin({
  id: 'ip-schedule',
  kind: 'api',
  api: 'ip-schedule',
  // Named keys need a 1.4 host
  apiVersion: '^1.4.0',
  description: 'Per-IP, per-grouping sending volume schedules and their status',
  config: Config,
  errors,
  commands: { replay: replayCommand },
  capabilities: {
    services: {
      store: { kind: 'store', configKey: 'store', default: 'schedule-store-file' },
      classifier: { kind: 'api', configKey: 'classifier', default: 'bounce-classifier', optional: true },
    },
  },
  async setup(ctx) {
    const { timezone, authentication, feed: settings, backoff } = ctx.config;
    if (!isTimeZone(timezone)) throw errors.SCHEDULE_ERR_TIME_ZONE(timezone);
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
    const { audit } = ctx;
    feed = await PolicyFeed.start({
      store, timezone, log: ctx.log, maxBufferedBytes: settings.maxBufferedBytes, pingIntervalMs: settings.pingInterval * 1000, counters,
      // Whichever host deletes a lapsed policy records it: the delete is conditional, so it is recorded once
      expire: (policy) => audit.record({ action: 'policy.expire', subject: { policy: policy.id }, principal: SYSTEM, before: policy, after: null }, (entry) =>
        store.deletePolicy!(policy.id, { expires: policy.expires }, { audit: entry })),
    });
    const policies = feedOperations(feed);
    const engine = new BackoffEngine(table, (id) => feed.appliedPolicy(id));
    const events = backoffHandlers({
      classifier, store, engine, notice: (change) => feed.notice(change), now: Date.now, received: backoffMetrics(ctx.metrics),
      putPolicy: (policy, request) => audit.record(policyChange(policy, feed.appliedPolicy(policy.id), request.principal), (entry) =>
        store.putPolicy!(policy, { audit: entry }).then(() => true)).then(() => undefined),
    });
    return {
      handlers: {
        ...createHandlers({ store, timezone, audit, changed: (ip) => feed.notice({ ip }) }), ...policies.handlers, ...events, ...auditHandlers(store),
      },
      // Batches of backoff events: 10,000 replies of a few hundred bytes
      bodyLimit: 8 * 1024 * 1024,
      sockets: policies.sockets,
      auth: { header: 'x-api-key', keys: authentication?.apikeys ?? [], query: 'api_key' },
      close: () => feed.close(),
    };
  },
});
