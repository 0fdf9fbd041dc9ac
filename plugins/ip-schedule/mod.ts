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
import type { AppliedPolicy, ReplyClassifier, ScheduleStore } from '../../runtime/mod.ts';
import { AdaptiveWarmups } from './adaptive.ts';
import { auditHandlers, policyChange, SYSTEM } from './audit.ts';
import {
  BackoffEngine,
  backoffHandlers,
  CountSync,
  liftHandlers,
  policyHandlers,
  policyTable,
  Providers,
  recoveryStep,
  shareTriggers,
} from './backoff/mod.ts';
import { CLOCK_ENV, pluginClock } from './clock.ts';
import { errors } from './errors.ts';
import { feedOperations, PolicyFeed } from './feed/mod.ts';
import { createHandlers } from './handlers.ts';
import { appliedMetrics, backoffMetrics, feedMetrics, scheduleMetrics } from './metrics.ts';
import { EventTally, overviewHandlers, warmPlans } from './overview.ts';
import { replayCommand } from './replay/command.ts';
import { ScheduleTable } from './table.ts';
import { today } from './dates.ts';

export default definePlugin({
  id: 'ip-schedule',
  kind: 'api',
  api: 'ip-schedule',
  // Named keys need a 1.4 host; GET /status streams its answer (1.7)
  apiVersion: '^1.8.0',
  description: 'Per-IP, per-grouping sending volume schedules and their status',
  // spec/schema/plugins/ip-schedule.schema.json: the time zone, the backoff classes and the rows are checked there
  config: ipScheduleConfigSchema,
  errors,
  commands: { replay: replayCommand },
  capabilities: {
    env: CLOCK_ENV,
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
    const shares = shareTriggers(backoff);
    const providers = new Providers(backoff.providers);
    const clock = pluginClock(ctx.env);
    if (!store.watch) ctx.log.warn("the schedule store has no watch(): the policy feed sees only this host's writes");
    let feed: PolicyFeed | undefined;
    scheduleMetrics(ctx.metrics, () => feed);
    const counters = feedMetrics(ctx.metrics, () => feed);
    const { audit } = ctx;
    let engine: BackoffEngine | undefined;
    // The warm-up table is built before the host listens, so that the first page an operator opens after a restart
    // answers as fast as the next, and from the listing the feed starts from: a start lists the store once
    const rows = new ScheduleTable(store, () => today(timezone, new Date()));
    feed = await PolicyFeed.start({
      store,
      list: () => rows.fill(),
      timezone,
      log: ctx.log,
      maxBufferedBytes: settings.maxBufferedBytes,
      pingIntervalMs: settings.pingInterval * 1000,
      counters,
      clock,
      // Whichever host deletes a lapsed policy, or replaces it with its next recovery step, records it: the write is
      // conditional, so it is recorded once
      expire: (policy) => {
        const scope = policy.object.if as { localip?: string; grouping?: string } | undefined;
        const scheduled =
          scope?.localip && scope.grouping ? feed?.scheduledRate(scope.localip, scope.grouping) : undefined;
        const step = store.replacePolicy
          ? recoveryStep(policy, table, backoff.recovery, clock.now(), scheduled)
          : undefined;
        if (step) {
          return audit.record(
            {
              action: 'policy.recover',
              subject: { policy: policy.id },
              principal: SYSTEM,
              before: policy,
              after: step,
              reason: { kind: step.kind, level: step.level },
            },
            (entry) => store.replacePolicy!(step, { expires: policy.expires }, { audit: entry }),
          );
        }
        return audit.record(
          { action: 'policy.expire', subject: { policy: policy.id }, principal: SYSTEM, before: policy, after: null },
          (entry) => store.deletePolicy!(policy.id, { expires: policy.expires }, { audit: entry }),
        );
      },
      // Lifted on any host: the events counted toward it here must not apply it again
      lifted: (policy) => engine?.lift(policy, clock.now()),
    });
    const policies = feedOperations(feed);
    // A store shared by hosts counts their events together; alone, this host counts its own
    const shared = CountSync.supports(store);
    engine = new BackoffEngine(table, {
      providers,
      shares,
      inForce: (id) => feed.appliedPolicy(id),
      explain: classifier?.explainReply && ((message) => classifier.explainReply!('backoff', message)),
      cluster: shared,
    });
    // Hosts sharing the store count every host's events in their overview too
    const tally = new EventTally(timezone, shared);
    const cluster = shared
      ? new CountSync({
          store,
          engine,
          tally,
          now: () => clock.now(),
          retainMs: engine.retainMs,
          log: ctx.log,
        })
      : undefined;
    const warmups = new AdaptiveWarmups({
      store,
      engine,
      audit,
      timezone,
      providers: backoff.providers,
      changed: (ip) => feed.notice({ ip }),
    });
    // Shadow mode marks what it applies in the reason, which the store keeps: every host's feed then shows it unsent
    const marked = (policy: AppliedPolicy): AppliedPolicy =>
      backoff.shadow ? { ...policy, reason: { ...policy.reason, shadow: true } } : policy;
    const countApplied = appliedMetrics(ctx.metrics, providers.ids);
    const events = backoffHandlers({
      classifier,
      store,
      engine,
      cluster,
      notice: (change) => feed.notice(change),
      now: () => clock.now(),
      received: backoffMetrics(ctx.metrics),
      observed: (reported, answers, now) => tally.add(reported, answers, now),
      // Shadow mode holds no warm-up: a hold would change what the feed sends
      counted: backoff.shadow
        ? undefined
        : (counted, now) =>
            warmups.check(
              counted.flatMap((event) => (event.localip ? [event.localip] : [])),
              now,
            ),
      applied: (policies) => countApplied(policies.map(marked)),
      putPolicy: (applied, request) => {
        const policy = marked(applied);
        return audit
          .record(policyChange(policy, feed.appliedPolicy(policy.id), request.principal), (entry) =>
            store.putPolicy!(policy, { audit: entry }).then(() => true),
          )
          .then(() => undefined);
      },
    });
    // The overview's plans, worked out once the host is up rather than by the first overview an operator opens
    setTimeout(() => {
      try {
        warmPlans(feed, timezone, clock.now());
      } catch (error) {
        // Only a head start: the first overview works the plans out itself
        ctx.log.warn('cannot work out the overview plans ahead', { error: (error as Error).message });
      }
    }, 0).unref();
    return {
      handlers: {
        ...createHandlers({
          store,
          timezone,
          audit,
          table: rows,
          changed: (ip) => feed.notice({ ip }),
        }),
        ...policies.handlers,
        ...events,
        ...policyHandlers(feed),
        ...auditHandlers(store),
        ...overviewHandlers(feed, tally, () => clock.now(), timezone),
        ...liftHandlers({ view: feed, store, audit, notice: (change) => feed.notice(change), now: () => clock.now() }),
      },
      // Batches of backoff events: 10,000 replies of a few hundred bytes
      bodyLimit: 8 * 1024 * 1024,
      sockets: policies.sockets,
      auth: { header: 'x-api-key', keys: authentication?.apikeys ?? [], query: 'api_key' },
      close: () => {
        cluster?.close();
        rows.close();
        return feed.close();
      },
    };
  },
});
