/**
 * `GET /v1/overview` (operation `getOverview`): schedules by status, what is in force, the feed's clients, the
 * reported events per provider and class over the last hour and day, and today's planned against delivered volume.
 * The event counts are kept here, in fixed rings of buckets: memory is bounded by the providers kept (MAX_PROVIDERS)
 * times the classes of the backoff model, whatever the rate of events.
 */
import type { Handler, IpRecord } from '../../runtime/mod.ts';
import type { BackoffEvent, EventAnswer } from './backoff/engine.ts';
import type { StatusCounts, Snapshot } from './feed/state.ts';
import { today } from './dates.ts';
import { scheduleDay } from './schedule.ts';

const MAX_PROVIDERS = 64;
/** Grouping names whose deliveries are counted per day; events of further names are not */
const MAX_GROUPINGS = 10_000;
const DELIVERED = 'delivered';

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

  add(ms: number, provider: string, label: string, nowMs: number): void {
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
    byLabel.set(label, (byLabel.get(label) ?? 0) + 1);
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

/** The reported events, per provider and class, and today's deliveries per grouping name */
export class EventTally {
  readonly #hour = new Ring(60, 60);
  readonly #day = new Ring(3600, 24);
  readonly #providers = new Set<string>();
  #deliveredDay = -1;
  readonly #delivered = new Map<string, number>();

  constructor(private readonly timezone: string) {}

  /** Counts one request's events with their answers (same order) */
  add(events: readonly BackoffEvent[], answers: readonly EventAnswer[], nowMs: number): void {
    const day = today(this.timezone, new Date(nowMs));
    if (day !== this.#deliveredDay) {
      this.#deliveredDay = day;
      this.#delivered.clear();
    }
    events.forEach((event, index) => {
      const answer = answers[index]!;
      let provider = answer.provider;
      if (!this.#providers.has(provider)) {
        if (this.#providers.size >= MAX_PROVIDERS) provider = 'other';
        else this.#providers.add(provider);
      }
      const label = answer.class ?? DELIVERED;
      this.#hour.add(event.time, provider, label, nowMs);
      this.#day.add(event.time, provider, label, nowMs);
      const grouping = event.grouping;
      if (
        answer.outcome === 'delivered' &&
        grouping &&
        today(this.timezone, new Date(event.time)) === day &&
        (this.#delivered.has(grouping) || this.#delivered.size < MAX_GROUPINGS)
      ) {
        this.#delivered.set(grouping, (this.#delivered.get(grouping) ?? 0) + 1);
      }
    });
  }

  bounces(nowMs: number) {
    return { hour: this.#hour.series(nowMs), day: this.#day.series(nowMs) };
  }

  /** Deliveries reported today per grouping name */
  delivered(nowMs: number): ReadonlyMap<string, number> {
    return this.#deliveredDay === today(this.timezone, new Date(nowMs)) ? this.#delivered : new Map();
  }
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

export function overviewHandlers(view: OverviewView, tally: EventTally, now: () => number): Record<string, Handler> {
  return {
    getOverview: async () => {
      await view.settled();
      const nowMs = now();
      const { day, records } = view.records();
      let ips = 0;
      let groupings = 0;
      let held = 0;
      const planned = new Map<string, number>();
      for (const record of records) {
        ips++;
        for (const grouping of record.groupings) {
          groupings++;
          if (grouping.warmup?.hold) held++;
          const { messages } = scheduleDay(grouping, day);
          // The MTA allows the day's messages per interval: a day holds SECONDS_PER_DAY / interval of them
          planned.set(
            grouping.grouping,
            (planned.get(grouping.grouping) ?? 0) + Math.round((messages * SECONDS_PER_DAY) / grouping.interval),
          );
        }
      }
      const delivered = tally.delivered(nowMs);
      const names = [...new Set([...planned.keys(), ...delivered.keys()])].sort();
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
          })),
        },
      };
    },
  };
}
