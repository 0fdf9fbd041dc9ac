/** The next local midnight of a time zone: the instant the schedules' day number turns */
import { offsetMinutes, today } from '../dates.ts';

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * The first whole minute after `now` (ms since the epoch) at which `today(zone)` is past its value at `now`. Offsets
 * change on daylight-saving days, so the guess from one offset is checked and corrected; a zone whose clocks skip
 * midnight starts its day at the first minute that exists
 */
export function nextMidnight(zone: string, now: number): number {
  const day = today(zone, new Date(now));
  // Local midnight is UTC midnight of the next day minus the offset in force then: two rounds settle a DST change
  let at = (day + 1) * DAY_MS;
  for (let round = 0; round < 2; round++) at = (day + 1) * DAY_MS - offsetMinutes(zone, new Date(at)) * MINUTE_MS;
  // A skipped midnight, or a guess on the far side of an offset change: walk forward by hours, back by minutes
  while (today(zone, new Date(at)) <= day) at += HOUR_MS;
  while (at - MINUTE_MS > now && today(zone, new Date(at - MINUTE_MS)) > day) at -= MINUTE_MS;
  return at;
}
