/**
 * Warm-up plan against actual (`--schedules FILE`): for each grouping of the schedules given (the body of
 * `GET /config`), what its schedule would have allowed each hour of the log from its IP to its provider, and what
 * was sent. An hour's allowance is the day's volume spread over the day as the feed's `WARMUP` policy meters it
 * (`count` per `interval`, an hour's share of it); 0 while not started or paused (the feed holds the IP); null once
 * finished (no longer limited). An adaptive grouping is held, stepped back and released as the server would have done
 * it (`decideWarmup`, on the engine's reputation share at each attempt from its IP): each change a `hold` or `release`
 * decision with its reason, and each hour's allowance the one of the state in force when the hour began. Memory: one
 * count per grouping and hour with sendings, and each grouping's changes.
 */
import type { GroupingRecord, IpRecord } from '../../../runtime/mod.ts';
import { decideWarmup, type Adaptive } from '../adaptive.ts';
import { today } from '../dates.ts';
import { scheduleDay } from '../schedule.ts';
import type { ClassifiedAttempt, Decision } from './simulate.ts';

const HOUR = 3_600_000;
/** Hours reported at most per grouping: a quarter of a year */
export const MAX_HOURS = 24 * 92;

/** One grouping's plan and what was sent, per hour of the log */
export interface WarmupReport {
  ip: string;
  grouping: string;
  /** The provider its name (or its `adaptive.provider`) names; attempts to it from `ip` count as its sending */
  provider: string | null;
  sent: number;
  /** Sum of the hours' allowances; null when some hour had no limit */
  allowed: number | null;
  /** Hours in which more was sent than allowed */
  hoursOver: number;
  hours: Array<{ hour: string; status: string; allowed: number | null; sent: number }>;
}

/** The engine's share of a class group from an IP to a provider (`BackoffEngine.share`) */
export type ShareOf = (
  localip: string,
  provider: string,
  group: string,
  now: number,
) => { events: number; attempts: number; window: number } | undefined;

/** The class group whose share holds a warm-up, as on the server */
const GROUP = 'reputation';
/** Changes decided for one IP at one attempt at most: as the server's compare-and-set attempts */
const MAX_CHANGES = 10;

interface Planned {
  ip: string;
  /** As given */
  initial: GroupingRecord;
  /** As it stands at the replay's clock */
  record: GroupingRecord;
  /** The record as changed at each time (holds and releases), oldest first */
  changes: Array<{ time: number; record: GroupingRecord }>;
  provider: string | undefined;
  /** Sent per hour start */
  sent: Map<number, number>;
}

export class WarmupPlan {
  readonly #timezone: string;
  readonly #groupings: Planned[] = [];
  /** By `ip provider`: the groupings whose sending an attempt is */
  readonly #byKey = new Map<string, Planned[]>();
  /** By IP: its adaptive groupings */
  readonly #adaptive = new Map<string, Planned[]>();
  readonly #providerOf: (grouping: GroupingRecord) => string | undefined;

  /** `providerOf` names the provider of a grouping, as adaptive warm-ups do */
  constructor(
    schedules: ReadonlyMap<string, IpRecord>,
    providerOf: (grouping: GroupingRecord) => string | undefined,
    timezone: string,
  ) {
    this.#timezone = timezone;
    this.#providerOf = providerOf;
    for (const [ip, record] of schedules) {
      for (const grouping of record.groupings) {
        const planned: Planned = {
          ip,
          initial: grouping,
          record: grouping,
          changes: [],
          provider: providerOf(grouping),
          sent: new Map(),
        };
        this.#groupings.push(planned);
        if (grouping.adaptive && grouping.mode === 'AUTO')
          this.#adaptive.set(ip, [...(this.#adaptive.get(ip) ?? []), planned]);
        if (planned.provider === undefined) continue;
        const key = `${ip} ${planned.provider}`;
        this.#byKey.set(key, [...(this.#byKey.get(key) ?? []), planned]);
      }
    }
  }

  /** Counts an attempt that was delivered */
  sent(attempt: ClassifiedAttempt): void {
    const planned = this.#byKey.get(`${attempt.localIp} ${attempt.provider}`);
    if (!planned) return;
    const hour = attempt.time - (attempt.time % HOUR);
    for (const each of planned) each.sent.set(hour, (each.sent.get(hour) ?? 0) + 1);
  }

  /**
   * After the engine counted `attempt`: the holds, step-backs and releases of its IP's adaptive groupings, decided as
   * the server decides them after each batch of events
   */
  observe(attempt: ClassifiedAttempt, shareOf: ShareOf): Decision[] {
    const planned = this.#adaptive.get(attempt.localIp);
    if (!planned) return [];
    const out: Decision[] = [];
    const day = today(this.#timezone, new Date(attempt.time));
    for (let change = 0; change < MAX_CHANGES; change++) {
      let decided: { each: Planned; decision: NonNullable<ReturnType<typeof decideWarmup>> } | undefined;
      for (const each of planned) {
        const decision = decideWarmup(
          each.record,
          day,
          attempt.time,
          (provider) => shareOf(each.ip, provider, GROUP, attempt.time),
          (adaptive: Adaptive) => adaptive.provider ?? this.#providerOf(each.record),
        );
        if (decision) {
          decided = { each, decision };
          break;
        }
      }
      if (!decided) break;
      const { each, decision } = decided;
      each.record = { ...each.record, warmup: decision.warmup };
      each.changes.push({ time: attempt.time, record: each.record });
      const hold = decision.warmup.hold;
      out.push({
        time: attempt.time,
        kind: decision.action === 'warmup.hold' ? 'hold' : 'release',
        policyId: `warmup:${each.ip}:${each.record.grouping}`,
        localIp: each.ip,
        provider: String(decision.reason.provider),
        class: GROUP,
        reason: hold
          ? `${hold.reason}: held at day ${hold.day}`
          : `${decision.reason.provider} ${GROUP} ` +
            `${Math.round(Number(decision.reason.share) * 1000) / 10}% of ${decision.reason.attempts} ` +
            `attempts, below hold: released, ${decision.warmup.lag} days behind its dates`,
      });
    }
    return out;
  }

  /** Each grouping's hours from `from` to `to` (epoch ms; the log's first and last attempt) */
  build(from: number, to: number): WarmupReport[] {
    const first = from - (from % HOUR);
    const last = Math.min(to - (to % HOUR), first + (MAX_HOURS - 1) * HOUR);
    return this.#groupings.map(({ ip, initial, changes, provider, sent }) => {
      const hours: WarmupReport['hours'] = [];
      let change = 0;
      let record = initial;
      for (let hour = first; hour <= last; hour += HOUR) {
        while (change < changes.length && changes[change]!.time <= hour) record = changes[change++]!.record;
        const { status, messages } = scheduleDay(record, today(this.#timezone, new Date(hour)));
        const allowed =
          status === 'FINISHED'
            ? null
            : status === 'ONSCHEDULE'
              ? Math.round(((messages * HOUR) / (record.interval * 1000)) * 10) / 10
              : 0;
        hours.push({ hour: new Date(hour).toISOString(), status, allowed, sent: sent.get(hour) ?? 0 });
      }
      const limited = hours.every((h) => h.allowed !== null);
      return {
        ip,
        grouping: initial.grouping,
        provider: provider ?? null,
        sent: hours.reduce((sum, h) => sum + h.sent, 0),
        allowed: limited ? Math.round(hours.reduce((sum, h) => sum + h.allowed!, 0)) : null,
        hoursOver: hours.filter((h) => h.allowed !== null && h.sent > h.allowed).length,
        hours,
      };
    });
  }
}
