/** Expands a grouping into its per-day schedule and derives its status for a given day */
import type { DateVolume, GroupingRecord } from '../../runtime/mod.ts';
import { formatDate, parseDate } from './dates.ts';

/** Longest schedule accepted, in days */
export const MAX_DAYS = 1000;

/**
 * Most schedule days one IP may hold over all its groupings: a status answer grows by about 50 bytes a day, and
 * 1,000 groupings of 1,000 days made one IP's status 49 MB
 */
export const MAX_IP_DAYS = 20_000;

/** One day of an expanded schedule */
export interface StatusDay {
  date: string;
  day: number;
  messages: number;
}

/** A grouping's state as the /status endpoints show it */
/** A rate: `count` messages per `interval` seconds */
export interface Rate {
  count: number;
  interval: number;
}

export interface GroupingStatus {
  grouping?: string;
  current_day: number;
  start: DateVolume;
  end: DateVolume;
  mode: GroupingRecord['mode'];
  paused: boolean;
  algorithm: GroupingRecord['algorithm'];
  interval: number;
  properties: Record<string, string> | null;
  schedule: StatusDay[];
  status: 'NOTSTARTED' | 'ONSCHEDULE' | 'PAUSED' | 'FINISHED';
  /** While an adaptive grouping's day holds */
  hold?: { since: string; reason: string };
}

/**
 * Daily volumes of an AUTO schedule over `days` days: `first` on day 1, `last` on the last day, geometric
 * growth (or decay) between, rounded. A one-day schedule sends `last`.
 */
export function autoVolumes(first: number, last: number, days: number): number[] {
  if (days === 1) return [last];
  const ratio = last / first;
  const volumes = [first];
  for (let index = 1; index < days - 1; index++) {
    const value = Math.round(first * ratio ** (index / (days - 1)));
    // pow's rounding error must not make the ramp wobble: keep it monotonic in the ramp's direction
    const previous = volumes[index - 1]!;
    volumes.push(last >= first ? Math.min(Math.max(value, previous), last) : Math.max(Math.min(value, previous), last));
  }
  volumes.push(last);
  return volumes;
}

/** Where a grouping stands on a day: the one answer the status endpoints, the status counts and the policy feed share */
export interface ScheduleDay {
  status: GroupingStatus['status'];
  /** Day of the schedule (`current_day`): 0 before the start, past the schedule's length after its end */
  day: number;
  /** Messages the day allows: the schedule's count while ONSCHEDULE, 0 otherwise */
  messages: number;
}

/** Length of a grouping's schedule in days, from its record alone */
export function scheduleLength(grouping: GroupingRecord): number {
  return grouping.mode === 'AUTO'
    ? parseDate(grouping.end!.date)! - parseDate(grouping.start.date)! + 1
    : grouping.schedule!.length;
}

/**
 * The status and schedule day of `scheduleDay`, from the record's dates alone: the status endpoints and counts need
 * no volumes, and an AUTO ramp costs a power per day for every record a store hands out unfrozen (uncached)
 */
export function scheduleStatus(grouping: GroupingRecord, today: number): Omit<ScheduleDay, 'messages'> {
  const day = warmupDay(grouping, Math.max(0, today - parseDate(grouping.start.date)! + 1));
  const status = grouping.paused
    ? 'PAUSED'
    : day === 0
      ? 'NOTSTARTED'
      : day > scheduleLength(grouping)
        ? 'FINISHED'
        : 'ONSCHEDULE';
  return { status, day };
}

/**
 * The day an adaptive grouping's warm-up has reached on calendar day `calendar` of its schedule: the day held while
 * held, else its dates' day less the days holds and step-backs cost (never before day 1 once started)
 */
export function warmupDay(grouping: GroupingRecord, calendar: number): number {
  const state = grouping.warmup;
  if (!state || calendar === 0) return calendar;
  return state.hold ? Math.min(state.hold.day, calendar) : Math.max(1, calendar - state.lag);
}

/**
 * Where the grouping stands on day number `today` (days since 1970-01-01 in the host's time zone). Day numbers and
 * volumes only, no dates: the feed asks this of every grouping at each midnight
 */
export function scheduleDay(grouping: GroupingRecord, today: number): ScheduleDay {
  const { status, day } = scheduleStatus(grouping, today);
  return { status, day, messages: status === 'ONSCHEDULE' ? dailyVolumes(grouping)[day - 1]! : 0 };
}

/** Daily volumes of MANUAL schedules and expanded schedules of records that stores hand out again unchanged (frozen) */
const volumes = new WeakMap<GroupingRecord, number[]>();
const expanded = new WeakMap<GroupingRecord, StatusDay[]>();
/**
 * AUTO ramps by `first/last/days`, kept once however many groupings follow them: the groupings of an IP, and IPs
 * created from one plan, share a ramp, where a copy per grouping cost about 300 bytes each (1.5 KB an IP of 5)
 */
const ramps = new Map<string, number[]>();
/** Most ramps kept (a few megabytes): past it, a ramp is worked out again when asked for, a power per day */
const MAX_RAMPS = 10_000;

/**
 * The volumes arrays kept above, each by a number of its own: whoever caches by them (the encoded schedules of
 * GET /status) sees the same array again
 */
const kept = new WeakMap<readonly number[], number>();
let nextKept = 0;

/** Messages of every day of the grouping's schedule, day 1 first; callers must not change the result */
export function dailyVolumes(grouping: GroupingRecord): number[] {
  if (grouping.mode === 'AUTO') {
    const days = scheduleLength(grouping);
    const key = `${grouping.start.volume}/${grouping.end!.volume}/${days}`;
    let ramp = ramps.get(key);
    if (!ramp) {
      ramp = autoVolumes(grouping.start.volume!, grouping.end!.volume, days);
      if (ramps.size < MAX_RAMPS) {
        ramps.set(key, ramp);
        kept.set(ramp, nextKept++);
      }
    }
    return ramp;
  }
  let messages = volumes.get(grouping);
  if (!messages) {
    messages = grouping.schedule!.map((entry) => entry.messages);
    if (Object.isFrozen(grouping)) {
      volumes.set(grouping, messages);
      kept.set(messages, nextKept++);
    }
  }
  return messages;
}

/** The number of an array `dailyVolumes` keeps; undefined for one it made for that call alone */
export function keptVolumesId(array: readonly number[]): number | undefined {
  return kept.get(array);
}

/** Every day of the grouping's schedule, day 1 being `start.date`; callers must not change the result */
export function expandSchedule(grouping: GroupingRecord): StatusDay[] {
  let days = expanded.get(grouping);
  if (!days) {
    const first = parseDate(grouping.start.date)!;
    days = dailyVolumes(grouping).map((count, index) => ({
      date: formatDate(first + index),
      day: index + 1,
      messages: count,
    }));
    if (Object.isFrozen(grouping)) expanded.set(grouping, days);
  }
  return days;
}

/** The grouping's status on day number `today` (days since 1970-01-01 in the host's time zone) */
export function groupingStatus(grouping: GroupingRecord, today: number, options?: { named?: boolean }): GroupingStatus {
  const schedule = expandSchedule(grouping);
  const first = schedule[0]!;
  const last = schedule[schedule.length - 1]!;
  const { status, day } = scheduleStatus(grouping, today);
  return {
    ...(options?.named ? { grouping: grouping.grouping } : {}),
    current_day: day,
    start: { date: first.date, volume: first.messages },
    end: { date: last.date, volume: last.messages },
    mode: grouping.mode,
    paused: grouping.paused,
    algorithm: grouping.algorithm,
    interval: grouping.interval,
    properties: grouping.properties,
    schedule,
    status,
    ...(grouping.warmup?.hold
      ? { hold: { since: grouping.warmup.hold.since, reason: grouping.warmup.hold.reason } }
      : {}),
  };
}
