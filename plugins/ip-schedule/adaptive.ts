/**
 * Adaptive warm-ups: after each batch of backoff events, every adaptive AUTO grouping of the events' local IPs is held,
 * stepped back or released by the reputation share of its provider for that IP (the backoff engine's count). The state
 * lives in the stored grouping (`warmup`), written with the store's compare-and-set: of hosts sharing a store, one
 * write decides, the others re-read and find nothing left to do. Each change is audited (`warmup.hold`,
 * `warmup.release`, principal `system`) in the same commit, and the feed sends the grouping's policy again.
 */
import { PROVIDER_TABLE } from '../../generated/data/ip-schedule.ts';
import type { GroupingRecord, IpRecord, PluginAudit, ScheduleStore } from '../../runtime/mod.ts';
import { SYSTEM } from './audit.ts';
import type { BackoffEngine } from './backoff/mod.ts';
import { today } from './dates.ts';
import { scheduleStatus } from './schedule.ts';

/** Compare-and-set attempts before a decision is left to the next batch */
const MAX_ATTEMPTS = 10;
/** The class group whose share holds a warm-up */
const GROUP = 'reputation';

/** As stored: `toRecord` filled in the defaults */
export type Adaptive = Required<Omit<NonNullable<GroupingRecord['adaptive']>, 'provider'>> & { provider?: string };
type WarmupState = NonNullable<GroupingRecord['warmup']>;

/** What the warm-ups need */
export interface AdaptiveOptions {
  store: ScheduleStore;
  engine: Pick<BackoffEngine, 'share'>;
  audit: PluginAudit;
  timezone: string;
  /** Provider rows of config (`backoff.providers`), over the table's */
  providers?: Record<string, { name?: string; domains?: readonly string[] } | undefined>;
  /** Tells this host's feed of a record it wrote */
  changed(ip: string): void;
}

/** A grouping's change: the action to audit and its reason */
export interface WarmupDecision {
  action: 'warmup.hold' | 'warmup.release';
  warmup: WarmupState;
  reason: Record<string, unknown>;
}

/** Holds and releases the adaptive groupings of the IPs events came from */
export class AdaptiveWarmups {
  readonly #options: AdaptiveOptions;
  readonly #rows: ProviderRows;
  /** One decision at a time per IP on this host: a racing one would only lose the compare-and-set */
  readonly #queues = new Map<string, Promise<void>>();

  constructor(options: AdaptiveOptions) {
    this.#options = options;
    this.#rows = providerRows(options.providers);
  }

  /** The provider of an adaptive grouping: its own, else the one its name names (`groupingProvider`) */
  providerOf(grouping: string, adaptive: Adaptive): string | undefined {
    return adaptive.provider ?? groupingProvider(grouping, this.#rows);
  }

  /** Decides the adaptive groupings of `ips` at `now` (ms since the epoch); resolves once their changes are stored */
  async check(ips: Iterable<string>, now: number): Promise<void> {
    await Promise.all(
      [...new Set(ips)].map((ip) => {
        const run = (this.#queues.get(ip) ?? Promise.resolve()).then(() => this.#checkIp(ip, now));
        const tail = run.catch(() => undefined);
        this.#queues.set(ip, tail);
        void tail.then(() => this.#queues.get(ip) === tail && this.#queues.delete(ip));
        return run;
      }),
    );
  }

  async #checkIp(ip: string, now: number): Promise<void> {
    const { store, audit } = this.#options;
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const stored = await store.get(ip);
      if (!stored?.record.groupings.some((g) => g.adaptive)) return;
      const day = today(this.#options.timezone, new Date(now));
      const index = stored.record.groupings.findIndex((g) => this.#decide(ip, g, day, now));
      if (index < 0) return;
      const before = stored.record.groupings[index]!;
      const decision = this.#decide(ip, before, day, now)!;
      const after: GroupingRecord = { ...before, warmup: decision.warmup };
      const next: IpRecord = { groupings: stored.record.groupings.map((g, i) => (i === index ? after : g)) };
      const change = {
        action: decision.action,
        subject: { ip: stored.ip, grouping: before.grouping },
        principal: SYSTEM,
        before,
        after,
        reason: decision.reason,
      };
      const version = await audit.record(change, (entry) =>
        store.put(stored.ip, next, { expected: stored.version }, { audit: entry }),
      );
      // Written or not (another host's write came first), read again: the next grouping, or this one as now stored
      if (version !== undefined) {
        this.#options.changed(stored.ip);
        attempt = -1;
      }
    }
  }

  /** What the share asks of `grouping` on day number `day`, if anything */
  #decide(ip: string, grouping: GroupingRecord, day: number, now: number): WarmupDecision | undefined {
    return decideWarmup(
      grouping,
      day,
      now,
      (provider) => this.#options.engine.share(ip, provider, GROUP, now),
      (adaptive) => this.providerOf(grouping.grouping, adaptive),
    );
  }
}

/**
 * What the reputation share asks of an adaptive AUTO `grouping` on day number `day` at `now`, if anything: hold it,
 * step it back a day (a hold again), or release it. `shareOf` reads the engine's count for a provider; `providerOf`
 * names
 * the grouping's. Pure: the server stores what it answers, `capstan replay` applies it to its simulated schedules
 */
export function decideWarmup(
  grouping: GroupingRecord,
  day: number,
  now: number,
  shareOf: (provider: string) => { events: number; attempts: number; window: number } | undefined,
  providerOf: (adaptive: Adaptive) => string | undefined,
): WarmupDecision | undefined {
  const adaptive = grouping.adaptive as Adaptive | undefined;
  if (!adaptive || grouping.mode !== 'AUTO') return undefined;
  const { status, day: reached } = scheduleStatus(grouping, day);
  if (status !== 'ONSCHEDULE') return undefined;
  const provider = providerOf(adaptive);
  const counted = provider === undefined ? undefined : shareOf(provider);
  if (!counted || counted.attempts < adaptive.minAttempts) return undefined;
  const share = counted.events / counted.attempts;
  const state: WarmupState = grouping.warmup ?? { lag: 0 };
  const reason = {
    provider,
    group: GROUP,
    share,
    events: counted.events,
    attempts: counted.attempts,
    window: counted.window,
  };
  const text = (limit: string, threshold: number) =>
    `${provider} ${GROUP} ${percent(share)} of ${counted.attempts} attempts in ${counted.window}s (${limit} >= ${percent(threshold)})`;
  const stepped = state.steppedBack === undefined ? undefined : Date.parse(state.steppedBack);
  if (share >= adaptive.stepBack && (stepped === undefined || now - stepped >= adaptive.window * 1000) && reached > 1) {
    const since = state.hold?.since ?? new Date(now).toISOString();
    return {
      action: 'warmup.hold',
      warmup: {
        ...state,
        hold: { since, reason: text('step back', adaptive.stepBack), day: reached - 1 },
        steppedBack: new Date(now).toISOString(),
      },
      reason: { ...reason, stepBack: adaptive.stepBack, day: reached - 1 },
    };
  }
  if (share >= adaptive.hold && !state.hold) {
    return {
      action: 'warmup.hold',
      warmup: {
        ...state,
        hold: { since: new Date(now).toISOString(), reason: text('hold', adaptive.hold), day: reached },
      },
      reason: { ...reason, hold: adaptive.hold, day: reached },
    };
  }
  if (share < adaptive.hold && state.hold) {
    // The days spent held (and stepped back) are the days the schedule now runs behind its dates
    const { hold: _held, ...rest } = state;
    const lag = Math.max(0, scheduleStatus({ ...grouping, warmup: undefined }, day).day - state.hold.day);
    return {
      action: 'warmup.release',
      warmup: { ...rest, lag },
      reason: { ...reason, hold: adaptive.hold, day: state.hold.day },
    };
  }
  return undefined;
}

/** Provider rows: the table's, with config's over them */
type ProviderRows = readonly [string, { name?: string; domains?: readonly string[] } | undefined][];

/** The provider a grouping's name names: the one whose id, a word of its name or a domain's first label it is (`&gmail`: google) */
export function groupingProvider(grouping: string, rows: ProviderRows): string | undefined {
  const name = grouping.slice(1).toLowerCase();
  const word = new RegExp(`\\b${name.replace(/[.-]/g, '\\$&')}\\b`, 'i');
  return rows.find(
    ([id, row]) =>
      id === name ||
      (row?.name !== undefined && word.test(row.name)) ||
      row?.domains?.some((d) => d.split('.')[0] === name),
  )?.[0];
}

/** The provider table's rows with those of config (`backoff.providers`) over them */
export function providerRows(providers: AdaptiveOptions['providers']): ProviderRows {
  return Object.entries({ ...PROVIDER_TABLE, ...providers });
}

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;
