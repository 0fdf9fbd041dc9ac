/**
 * `GET /v1/overview` (operation `getOverview`): schedules by status, what is in force, the feed's clients, the
 * reported events per provider and class over the last hour and day, and today's planned against delivered volume.
 * The event counts are kept here, in fixed rings of buckets: memory is bounded by the providers kept (MAX_PROVIDERS)
 * times the classes of the backoff model, whatever the rate of events. Hosts sharing a store that counts across
 * hosts hand each other what they tallied (`takeDeltas`, `merge`) with their backoff counts, so each host's overview
 * counts every host's events.
 */
import type { Handler, IpRecord } from '../../runtime/mod.ts';
import type { BackoffEvent, EventAnswer } from './backoff/engine.ts';
import { today } from './dates.ts';
import { nextMidnight } from './feed/midnight.ts';
import type { StatusCounts, Snapshot } from './feed/state.ts';
import { scheduleDay } from './schedule.ts';

const MAX_PROVIDERS = 64;
/** Grouping names whose last day is given hour by hour (`volume[].hours`): those planning the most today */
const MAX_HOURLY = 50;
const HOUR_MS = 3_600_000;
/** Grouping names whose deliveries are counted per day; events of further names are not */
const MAX_GROUPINGS = 10_000;
const DELIVERED = 'delivered';
const DAY_MS = 86_400_000;

/** One window: `size` buckets of `step` seconds, as a ring indexed by the bucket's number since the epoch */
class Ring {
  readonly #numbers: number[];
  readonly #counts: Map<string, Map<string, number>>[];

  constructor(
    readonly step: number,
    readonly size: number,
  ) {
    this.#numbers = new Array<number>(size).fill(-1);
    this.#counts = Array.from({ length: size }, () => new Map());
  }

  add(ms: number, provider: string, label: string, nowMs: number, n = 1): void {
    const number = Math.floor(ms / 1000 / this.step);
    const current = Math.floor(nowMs / 1000 / this.step);
    if (number <= current - this.size || number > current) return;
    const slot = number % this.size;
    if (this.#numbers[slot] !== number) {
      this.#numbers[slot] = number;
      this.#counts[slot]!.clear();
    }
    const byLabel = this.#counts[slot]!.get(provider) ?? new Map<string, number>();
    this.#counts[slot]!.set(provider, byLabel);
    byLabel.set(label, (byLabel.get(label) ?? 0) + n);
  }

  /** The buckets ending with the one holding `nowMs`, oldest first, per provider and label */
  series(nowMs: number) {
    const current = Math.floor(nowMs / 1000 / this.step);
    const providers = new Map<string, Record<string, number[]>>();
    for (let k = 0; k < this.size; k++) {
      const number = current - this.size + 1 + k;
      const slot = ((number % this.size) + this.size) % this.size;
      if (this.#numbers[slot] !== number) continue;
      for (const [provider, byLabel] of this.#counts[slot]!) {
        let counts = providers.get(provider);
        if (!counts) providers.set(provider, (counts = {}));
        for (const [label, n] of byLabel) (counts[label] ??= new Array<number>(this.size).fill(0))[k] = n;
      }
    }
    return {
      step: this.step,
      end: new Date((current + 1) * this.step * 1000).toISOString(),
      providers: [...providers]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([provider, counts]) => ({ provider, counts })),
    };
  }
}

/**
 * What one host tallied since it last handed its tally to the others: events per minute (since the epoch), provider
 * and label, and deliveries per local day (its first instant) and grouping name
 */
export interface TallyDeltas {
  b: [minute: number, provider: string, label: string, n: number][];
  d: [day: number, grouping: string, n: number][];
  /** Deliveries per hour (since the epoch) and grouping name; absent from hosts of an earlier version */
  h?: [hour: number, grouping: string, n: number][];
}

/** The reported events, per provider and class, and today's deliveries per grouping name */
export class EventTally {
  readonly #hour = new Ring(60, 60);
  readonly #day = new Ring(3600, 24);
  readonly #providers = new Set<string>();
  /**
   * Today in the time zone, as the instants it spans (`start` inclusive, `end` not): worked out when the clock passes
   * a midnight, so that an event is placed in today by two comparisons, not by a time-zone conversion of its time
   */
  #today = { start: 0, end: 0 };
  readonly #delivered = new Map<string, number>();
  /** Deliveries of the last day per hour and grouping name (the name in place of a provider) */
  readonly #deliveredHours = new Ring(3600, 24);
  /** The grouping names counted per hour: past MAX_GROUPINGS, further names are not */
  readonly #hourNames = new Set<string>();
  /**
   * With `shared`: what was tallied here since `takeDeltas`, by `minute provider label`, `day grouping` and
   * `hour grouping`
   */
  readonly #unsent: { b: Map<string, number>; d: Map<string, number>; h: Map<string, number> } | undefined;

  constructor(
    private readonly timezone: string,
    shared = false,
  ) {
    this.#unsent = shared ? { b: new Map(), d: new Map(), h: new Map() } : undefined;
  }

  /** Counts one request's events with their answers (same order) */
  add(events: readonly BackoffEvent[], answers: readonly EventAnswer[], nowMs: number): void {
    this.#turnDay(nowMs);
    events.forEach((event, index) => {
      const answer = answers[index]!;
      const provider = this.#kept(answer.provider);
      const label = answer.class ?? DELIVERED;
      this.#count(event.time, provider, label, 1, nowMs);
      if (this.#unsent) bump(this.#unsent.b, `${Math.floor(event.time / 60_000)}\u0000${provider}\u0000${label}`, 1);
      const grouping = event.grouping;
      if (answer.outcome !== 'delivered' || !grouping) return;
      if (this.#isToday(event.time) && this.#deliver(grouping, 1))
        if (this.#unsent) bump(this.#unsent.d, `${this.#today.start}\u0000${grouping}`, 1);
      if (this.#deliverHour(event.time, grouping, 1, nowMs))
        if (this.#unsent) bump(this.#unsent.h, `${Math.floor(event.time / 3_600_000)}\u0000${grouping}`, 1);
    });
  }

  /** What was tallied here since the last call (with `shared`), undefined when nothing; then it starts again */
  takeDeltas(): TallyDeltas | undefined {
    if (!this.#unsent || (this.#unsent.b.size === 0 && this.#unsent.d.size === 0 && this.#unsent.h.size === 0))
      return undefined;
    const deltas: TallyDeltas = { b: [], d: [], h: [] };
    for (const [key, n] of this.#unsent.b) {
      const [minute, provider, label] = key.split('\u0000');
      deltas.b.push([Number(minute), provider!, label!, n]);
    }
    for (const [key, n] of this.#unsent.d) {
      const [day, grouping] = key.split('\u0000');
      deltas.d.push([Number(day), grouping!, n]);
    }
    for (const [key, n] of this.#unsent.h) {
      const [hour, grouping] = key.split('\u0000');
      deltas.h!.push([Number(hour), grouping!, n]);
    }
    this.#unsent.b.clear();
    this.#unsent.d.clear();
    this.#unsent.h.clear();
    return deltas;
  }

  /** Adds what another host tallied: its events where their minutes still fall, its deliveries if of today */
  merge(deltas: TallyDeltas, nowMs: number): void {
    this.#turnDay(nowMs);
    for (const [minute, provider, label, n] of deltas.b)
      this.#count(minute * 60_000, this.#kept(provider), label, n, nowMs);
    for (const [day, grouping, n] of deltas.d) if (day === this.#today.start) this.#deliver(grouping, n);
    for (const [hour, grouping, n] of deltas.h ?? []) this.#deliverHour(hour * 3_600_000, grouping, n, nowMs);
  }

  /** Deliveries of the last day per hour (the buckets of `bounces().day`, oldest first), per grouping name */
  deliveredHours(nowMs: number): ReadonlyMap<string, readonly number[]> {
    const { providers } = this.#deliveredHours.series(nowMs);
    return new Map(providers.map(({ provider, counts }) => [provider, counts[DELIVERED]!]));
  }

  bounces(nowMs: number) {
    return { hour: this.#hour.series(nowMs), day: this.#day.series(nowMs) };
  }

  /** Deliveries reported today per grouping name */
  delivered(nowMs: number): ReadonlyMap<string, number> {
    return this.#isToday(nowMs) ? this.#delivered : new Map();
  }

  #count(ms: number, provider: string, label: string, n: number, nowMs: number): void {
    this.#hour.add(ms, provider, label, nowMs, n);
    this.#day.add(ms, provider, label, nowMs, n);
  }

  /** The provider as counted: past MAX_PROVIDERS, a new one counts as `other` */
  #kept(provider: string): string {
    if (this.#providers.has(provider)) return provider;
    if (this.#providers.size >= MAX_PROVIDERS) return 'other';
    this.#providers.add(provider);
    return provider;
  }

  /** Counts deliveries of today for a grouping name; false past MAX_GROUPINGS names */
  #deliver(grouping: string, n: number): boolean {
    if (!this.#delivered.has(grouping) && this.#delivered.size >= MAX_GROUPINGS) return false;
    this.#delivered.set(grouping, (this.#delivered.get(grouping) ?? 0) + n);
    return true;
  }

  /** Counts deliveries of an hour for a grouping name; false past MAX_GROUPINGS names */
  #deliverHour(ms: number, grouping: string, n: number, nowMs: number): boolean {
    if (!this.#hourNames.has(grouping)) {
      // Full: the names whose hours have all passed make room
      if (this.#hourNames.size >= MAX_GROUPINGS) {
        this.#hourNames.clear();
        for (const { provider } of this.#deliveredHours.series(nowMs).providers) this.#hourNames.add(provider);
        if (this.#hourNames.size >= MAX_GROUPINGS) return false;
      }
      this.#hourNames.add(grouping);
    }
    this.#deliveredHours.add(ms, grouping, DELIVERED, nowMs, n);
    return true;
  }

  #turnDay(nowMs: number): void {
    if (this.#isToday(nowMs)) return;
    this.#today = dayAround(this.timezone, nowMs);
    this.#delivered.clear();
  }

  #isToday(ms: number): boolean {
    return ms >= this.#today.start && ms < this.#today.end;
  }
}

function bump(counts: Map<string, number>, key: string, n: number): void {
  counts.set(key, (counts.get(key) ?? 0) + n);
}

/** The local day of `zone` holding the instant `ms`, as the instants it spans */
function dayAround(zone: string, ms: number): { start: number; end: number } {
  // A midnight one to three days back (a day lasts 23 to 25 hours), then on from midnight to midnight
  let start = nextMidnight(zone, ms - 2 * DAY_MS);
  let end = nextMidnight(zone, start);
  while (end <= ms) [start, end] = [end, nextMidnight(zone, end)];
  return { start, end };
}

/** What the overview reads: the policy feed's state */
export interface OverviewView {
  settled(): Promise<void>;
  snapshot(): Snapshot;
  statusCounts(): Readonly<StatusCounts>;
  records(): { day: number; records: Iterable<IpRecord> };
  readonly clients: number;
}

const SECONDS_PER_DAY = 86_400;

/**
 * Each record's planned messages per grouping name on a day. The feed replaces a record that changes and never
 * alters one (as its status counts rely on), so a schedule's day is worked out once per record and day, not at
 * every request; the last day's hours span two days, so two are kept
 */
const plans = new WeakMap<IpRecord, { day: number; planned: [string, number][] }[]>();

function plannedOf(record: IpRecord, day: number): readonly [string, number][] {
  const kept = plans.get(record) ?? [];
  let plan = kept.find((p) => p.day === day);
  if (!plan) {
    // The MTA allows the day's messages per interval: a day holds SECONDS_PER_DAY / interval of them
    const planned = record.groupings.map((grouping): [string, number] => [
      grouping.grouping,
      Math.round((scheduleDay(grouping, day).messages * SECONDS_PER_DAY) / grouping.interval),
    ]);
    plans.set(record, [(plan = { day, planned }), ...kept.slice(0, 1)]);
  }
  return plan.planned;
}

/** The local day of each of the day ring's 24 hourly buckets (hours since the epoch, the last holding now) */
function hourDays(zone: string, nowMs: number): number[] {
  const first = Math.floor(nowMs / HOUR_MS) - 23;
  return Array.from({ length: 24 }, (_, k) => today(zone, new Date((first + k) * HOUR_MS)));
}

/**
 * Works out every record's plan for the days of the last day's hours, so that the first overview after a start answers
 * as fast as the next (the plans are kept per record until it changes): called once, in idle time after start
 */
export function warmPlans(view: Pick<OverviewView, 'records'>, timezone: string, nowMs: number): void {
  const { day, records } = view.records();
  const days = new Set([day, ...hourDays(timezone, nowMs)]);
  for (const record of records) for (const other of days) plannedOf(record, other);
}

export function overviewHandlers(
  view: OverviewView,
  tally: EventTally,
  now: () => number,
  timezone: string,
): Record<string, Handler> {
  return {
    getOverview: async () => {
      await view.settled();
      const nowMs = now();
      const { day, records } = view.records();
      let ips = 0;
      let groupings = 0;
      let held = 0;
      const planned = new Map<string, number>();
      // The last day's hours fall on today and, before the last local midnight, on the day before: each day's plan is
      // summed per name in the same pass over the records
      const days = hourDays(timezone, nowMs);
      const plannedOn = new Map<number, Map<string, number>>([[day, planned]]);
      for (const other of days) if (!plannedOn.has(other)) plannedOn.set(other, new Map());
      const earlier = [...plannedOn].filter(([other]) => other !== day);
      const add = (sums: Map<string, number>, plan: readonly [string, number][]) => {
        for (const [name, messages] of plan) sums.set(name, (sums.get(name) ?? 0) + messages);
      };
      for (const record of records) {
        ips++;
        groupings += record.groupings.length;
        for (const grouping of record.groupings) if (grouping.warmup?.hold) held++;
        add(planned, plannedOf(record, day));
        for (const [other, sums] of earlier) add(sums, plannedOf(record, other));
      }
      const delivered = tally.delivered(nowMs);
      const names = [...new Set([...planned.keys(), ...delivered.keys()])].sort();
      const busiest = [...names]
        .sort(
          (a, b) => (planned.get(b) ?? 0) - (planned.get(a) ?? 0) || (delivered.get(b) ?? 0) - (delivered.get(a) ?? 0),
        )
        .slice(0, MAX_HOURLY);
      // A day's plan spread evenly over its hours, as the MTA meters a day's volume per interval
      const deliveredHours = tally.deliveredHours(nowMs);
      const hours = new Map(
        busiest.map((name) => [
          name,
          {
            planned: days.map((d) => Math.round((plannedOn.get(d)!.get(name) ?? 0) / 24)),
            delivered: [...(deliveredHours.get(name) ?? new Array<number>(24).fill(0))],
          },
        ]),
      );
      const { policies, suspends } = view.snapshot();
      const byType = (objects: Snapshot['policies']) => {
        const counts: Record<string, number> = {};
        for (const object of objects) counts[object.type] = (counts[object.type] ?? 0) + 1;
        return counts;
      };
      return {
        body: {
          time: new Date(nowMs).toISOString(),
          schedules: { ips, groupings, statuses: { ...view.statusCounts() }, held },
          policies: { policies: byType(policies), suspends: byType(suspends) },
          feed: { clients: view.clients },
          bounces: tally.bounces(nowMs),
          volume: names.map((grouping) => ({
            grouping,
            planned: planned.get(grouping) ?? 0,
            delivered: delivered.get(grouping) ?? null,
            ...(hours.has(grouping) ? { hours: hours.get(grouping) } : {}),
          })),
        },
      };
    },
  };
}
