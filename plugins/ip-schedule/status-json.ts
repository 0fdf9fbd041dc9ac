/**
 * A grouping's status as JSON text, byte for byte what `JSON.stringify(groupingStatus(...))` gives, written directly:
 * the first `GET /status` after start encodes every grouping's expanded schedule (10,000 IPs × 5 groupings of 30
 * days: 82 MB), and building a day object per day to stringify it cost most of that request's 1.7 s. Nothing is
 * kept here: the handler keeps each IP's encoded answer.
 */
import type { GroupingRecord } from '../../runtime/mod.ts';
import { formatDate, parseDate } from './dates.ts';
import { dailyVolumes, scheduleStatus } from './schedule.ts';

/** `JSON.stringify(groupingStatus(grouping, today, { named }))`, without the intermediate objects */
export function groupingStatusJson(grouping: GroupingRecord, today: number, named: boolean): string {
  const volumes = dailyVolumes(grouping);
  const first = parseDate(grouping.start.date)!;
  // Joined, not appended: appending builds a tree of string pieces per day, which the collector then has to walk
  const days: string[] = new Array(volumes.length);
  for (let index = 0; index < volumes.length; index++) {
    days[index] = `{"date":"${formatDate(first + index)}","day":${index + 1},"messages":${volumes[index]}}`;
  }
  const last = volumes.length - 1;
  const { status, day } = scheduleStatus(grouping, today);
  const hold = grouping.warmup?.hold;
  return [
    '{', named ? `"grouping":${JSON.stringify(grouping.grouping)},` : '', `"current_day":${day},`,
    `"start":{"date":"${formatDate(first)}","volume":${volumes[0]}},"end":{"date":"${formatDate(first + last)}","volume":${volumes[last]}},`,
    `"mode":${JSON.stringify(grouping.mode)},"paused":${grouping.paused},"algorithm":${JSON.stringify(grouping.algorithm)},`,
    `"interval":${grouping.interval},"properties":${JSON.stringify(grouping.properties)},"schedule":[`, days.join(','), `],"status":"${status}"`,
    hold ? `,"hold":${JSON.stringify({ since: hold.since, reason: hold.reason })}` : '', '}',
  ].join('');
}
