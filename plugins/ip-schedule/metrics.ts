import { BACKOFF_TABLE } from '../../generated/data/bounce-classifier.ts';
import type { AppliedPolicy, PluginMetrics } from '../../runtime/mod.ts';
import { STATUSES, type DropReason, type FeedCounters, type StatusCounts } from './feed/mod.ts';
import type { FrameAction } from './feed/protocol.ts';

/** What `capstan_schedules` reads at scrape time: the policy feed, which holds every IP's record and turns the day */
export interface ScheduleView {
  /** Resolves once the notices given so far are in the state */
  settled(): Promise<void>;
  /** Groupings by status on the feed's day */
  statusCounts(): Readonly<StatusCounts>;
}

/**
 * Declares `capstan_schedules{status}`: groupings by status, counted at scrape time from the records the policy feed
 * holds (`feed()`), not read from the store. The feed counts an IP again only when its record or the day changed
 */
export function scheduleMetrics(metrics: PluginMetrics, feed: () => ScheduleView | undefined): void {
  metrics.gauge({
    name: 'schedules',
    help: 'Groupings (warm-up schedules) by status: NOTSTARTED, ONSCHEDULE, PAUSED, FINISHED',
    labelNames: ['status'],
    async collect(gauge) {
      const view = feed();
      if (!view) return;
      // This host's answered writes are counted once their notices are applied
      await view.settled();
      const counts = view.statusCounts();
      for (const status of STATUSES) gauge.set({ status }, counts[status]);
    },
  });
}

/** What the policy feed's metrics read at scrape time */
export interface FeedView {
  /** Connected clients */
  readonly clients: number;
  /** Everything in force; the same object until the state changes */
  snapshot(): { policies: readonly { value: { type: string } }[]; suspends: readonly { value: { type: string } }[] };
}

const DROP_REASONS: readonly DropReason[] = ['slow_reader', 'missed_ping', 'malformed_frame'];
const FRAME_ACTIONS: readonly FrameAction[] = ['VERSION', 'CREATE', 'UPDATE', 'DELETE', 'SYNCED'];
/** Policy types the feed makes; others (none today) are counted as they come */
const POLICY_TYPES = ['WARMUP', 'BACKOFF'] as const;

/**
 * Declares the feed's families: `capstan_feed_clients` and `capstan_feed_policies{kind, type}` (read at scrape time
 * from
 * `feed()`), `capstan_feed_messages_total{action}` and `capstan_feed_clients_dropped_total{reason}` (the counters
 * given to the feed). Every known label value is there from the start, at 0, so that rates work from the first
 * event. Counting takes label objects made here once: nothing is allocated per frame or per client.
 */
export function feedMetrics(metrics: PluginMetrics, feed: () => FeedView | undefined): FeedCounters {
  const messages = metrics.counter({
    name: 'feed_messages_total',
    help: 'Policy feed frames sent, once per client, by action: VERSION, CREATE, UPDATE, DELETE, SYNCED',
    labelNames: ['action'],
  });
  const dropped = metrics.counter({
    name: 'feed_clients_dropped_total',
    help: 'Policy feed clients cut off, by reason: slow_reader (over maxBufferedBytes behind), missed_ping, malformed_frame',
    labelNames: ['reason'],
  });
  const byAction = Object.fromEntries(FRAME_ACTIONS.map((action) => [action, { action }])) as Record<
    FrameAction,
    { action: FrameAction }
  >;
  const byReason = Object.fromEntries(DROP_REASONS.map((reason) => [reason, { reason }])) as Record<
    DropReason,
    { reason: DropReason }
  >;
  for (const action of FRAME_ACTIONS) messages.inc(byAction[action], 0);
  for (const reason of DROP_REASONS) dropped.inc(byReason[reason], 0);

  metrics.gauge({
    name: 'feed_clients',
    help: 'Policy feed clients connected',
    collect: (gauge) => {
      const view = feed();
      if (view) gauge.set({}, view.clients);
    },
  });
  let counted: { snapshot: object; counts: Map<string, number> } | undefined;
  metrics.gauge({
    name: 'feed_policies',
    help: 'Policies and suspensions in force on the feed, by kind (policy, suspend) and type (WARMUP, BACKOFF)',
    labelNames: ['kind', 'type'],
    collect(gauge) {
      const view = feed();
      if (!view) return;
      const snapshot = view.snapshot();
      if (counted?.snapshot !== snapshot) {
        const counts = new Map<string, number>();
        for (const kind of ['policy', 'suspend'] as const) {
          for (const type of POLICY_TYPES) counts.set(`${kind} ${type}`, 0);
          for (const { value } of kind === 'policy' ? snapshot.policies : snapshot.suspends) {
            const key = `${kind} ${value.type}`;
            counts.set(key, (counts.get(key) ?? 0) + 1);
          }
        }
        counted = { snapshot, counts };
      }
      for (const [key, count] of counted.counts) {
        const [kind, type] = key.split(' ') as [string, string];
        gauge.set({ kind, type }, count);
      }
    },
  });
  return {
    sent: (action, count) => messages.inc(byAction[action], count),
    dropped: (reason) => dropped.inc(byReason[reason]),
  };
}

/**
 * Declares `capstan_backoff_events_total{class}`: events of `POST /v1/backoff/events` by the class their reply got.
 * Answers the function the handler calls once per request with the events' classes: one increment per class present
 */
export function backoffMetrics(metrics: PluginMetrics): (classes: readonly string[]) => void {
  const events = metrics.counter({
    name: 'backoff_events_total',
    help: 'Backoff events reported (POST /v1/backoff/events), by the backoff class of their reply',
    labelNames: ['class'],
  });
  // The model's classes; a tally per class, reused by every request
  const tallies = new Map<string, { labels: { class: string }; count: number }>();
  for (const cls of Object.keys(BACKOFF_TABLE)) {
    tallies.set(cls, { labels: { class: cls }, count: 0 });
    events.inc({ class: cls }, 0);
  }
  return (classes) => {
    if (classes.length === 1) {
      const cls = classes[0]!;
      events.inc(tallies.get(cls)?.labels ?? { class: cls });
      return;
    }
    for (const cls of classes) {
      let tally = tallies.get(cls);
      // A class the table does not list (a newer model): counted too, the model's classes are a closed list
      if (!tally) tallies.set(cls, (tally = { labels: { class: cls }, count: 0 }));
      tally.count++;
    }
    for (const tally of tallies.values()) {
      if (tally.count === 0) continue;
      events.inc(tally.labels, tally.count);
      tally.count = 0;
    }
  };
}

/**
 * Declares `capstan_backoff_applied_total{class, provider}`: backoff policies and suspensions applied or escalated, by
 * class and provider. The provider label is a row of the provider table or `other` (a provider named by its domain),
 * so that ever-new domains cannot grow the label set. Answers the function the handler calls with each request's
 * policies
 */
export function appliedMetrics(
  metrics: PluginMetrics,
  providers: ReadonlySet<string>,
): (policies: readonly AppliedPolicy[]) => void {
  const applied = metrics.counter({
    name: 'backoff_applied_total',
    help: 'Backoff policies and suspensions applied or escalated, by backoff class and provider (a row of the provider table, or other)',
    labelNames: ['class', 'provider'],
  });
  // Apart: a dashboard of what the MTA was told stays true while a team watches shadow mode
  const shadow = metrics.counter({
    name: 'backoff_shadow_applied_total',
    help: 'Backoff policies and suspensions applied or escalated in shadow mode (recorded, never sent), by backoff class and provider',
    labelNames: ['class', 'provider'],
  });
  return (policies) => {
    for (const { reason } of policies) {
      if (!reason) continue;
      const provider = String(reason.provider);
      (reason.shadow === true ? shadow : applied).inc({
        class: String(reason.class),
        provider: providers.has(provider) ? provider : 'other',
      });
    }
  };
}
