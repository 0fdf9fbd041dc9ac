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

/** Expanded schedules of records that stores hand out again unchanged (frozen, shared objects) */
const expanded = new WeakMap<GroupingRecord, StatusDay[]>();

/** Every day of the grouping's schedule, day 1 being `start.date`; callers must not change the result */
export function expandSchedule(grouping: GroupingRecord): StatusDay[] {
  let days = expanded.get(grouping);
  if (!days) {
    days = expand(grouping);
    if (Object.isFrozen(grouping)) expanded.set(grouping, days);
  }
  return days;
}

function expand(grouping: GroupingRecord): StatusDay[] {
  const first = parseDate(grouping.start.date)!;
  const messages = grouping.mode === 'AUTO'
    ? autoVolumes(grouping.start.volume!, grouping.end!.volume, parseDate(grouping.end!.date)! - first + 1)
    : grouping.schedule!.map((entry) => entry.messages);
  return messages.map((count, index) => ({ date: formatDate(first + index), day: index + 1, messages: count }));
}

/** The grouping's status on day number `today` (days since 1970-01-01 in the host's time zone) */
export function groupingStatus(grouping: GroupingRecord, today: number, options?: { named?: boolean }): GroupingStatus {
  const schedule = expandSchedule(grouping);
  const first = schedule[0]!;
  const last = schedule[schedule.length - 1]!;
  const currentDay = Math.max(0, today - parseDate(first.date)! + 1);
  const status = statusOf(grouping.paused, currentDay, schedule.length);
  return {
    ...(options?.named ? { grouping: grouping.grouping } : {}),
    current_day: currentDay,
    start: { date: first.date, volume: first.messages },
    end: { date: last.date, volume: last.messages },
    mode: grouping.mode,
    paused: grouping.paused,
    algorithm: grouping.algorithm,
    interval: grouping.interval,
    properties: grouping.properties,
    schedule,
    status,
  };
}

function statusOf(paused: boolean, currentDay: number, days: number): GroupingStatus['status'] {
  return paused ? 'PAUSED' : currentDay === 0 ? 'NOTSTARTED' : currentDay > days ? 'FINISHED' : 'ONSCHEDULE';
}

/** The grouping's status on day number `today`, from its dates alone: what `groupingStatus` says, without expanding */
export function statusOn(grouping: GroupingRecord, today: number): GroupingStatus['status'] {
  const first = parseDate(grouping.start.date)!;
  const days = grouping.mode === 'AUTO' ? parseDate(grouping.end!.date)! - first + 1 : grouping.schedule!.length;
  return statusOf(grouping.paused, Math.max(0, today - first + 1), days);
}
