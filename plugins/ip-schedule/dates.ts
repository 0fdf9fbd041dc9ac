/** Calendar dates as day numbers (days since 1970-01-01) and "today" in an IANA time zone */

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Day number of a `YYYY-MM-DD` calendar date, or undefined when the text is not a real date */
export function parseDate(text: string): number | undefined {
  // Every status and count parses each grouping's dates again: the few hundred distinct ones are kept
  let day = days.get(text);
  if (day === undefined) {
    day = parseNew(text);
    if (day !== undefined && days.size < 100_000) days.set(text, day);
  }
  return day;
}

const days = new Map<string, number>();

function parseNew(text: string): number | undefined {
  const match = DATE.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const day0 = dayNumber(year, month, day);
  // Date rolls 2025-02-30 over into March: a real date formats back to the same text
  return formatDate(day0) === text ? day0 : undefined;
}

/** Texts of the day numbers seen so far: schedules repeat the same few hundred dates many times over */
const texts = new Map<number, string>();

/** `YYYY-MM-DD` of a day number */
export function formatDate(day: number): string {
  let text = texts.get(day);
  if (text === undefined) {
    text = new Date(day * DAY_MS).toISOString().slice(0, 10);
    if (texts.size < 100_000) texts.set(day, text);
  }
  return text;
}

/** Today's day number in the time zone at the instant `now` */
export function today(zone: string, now: Date): number {
  return Math.floor((now.getTime() + offsetMinutes(zone, now) * 60_000) / DAY_MS);
}

/** The last offset worked out per zone, with the UTC minute it holds for */
const offsets = new Map<string, { minute: number; offset: number }>();

/**
 * Offset of the time zone from UTC at the instant `now`, in minutes east of UTC. Zones change offset only on a
 * whole minute, so one `Intl` call per zone and minute serves every request (the call costs more than a request).
 */
export function offsetMinutes(zone: string, now: Date): number {
  const minute = Math.floor(now.getTime() / 60_000);
  const cached = offsets.get(zone);
  if (cached?.minute === minute) return cached.offset;
  const [year, month, day, hour, minuteOfHour, second] = localParts(zone, now);
  const localAsUtc = dayNumber(year, month, day) * DAY_MS + ((hour * 60 + minuteOfHour) * 60 + second) * 1000;
  const offset = Math.round((localAsUtc - Math.floor(now.getTime() / 1000) * 1000) / 60_000);
  offsets.set(zone, { minute, offset });
  return offset;
}

function dayNumber(year: number, month: number, day: number): number {
  // setUTCFullYear, unlike Date.UTC, keeps years below 100 as they are
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return Math.floor(date.getTime() / DAY_MS);
}

/** Year, month, day, hour, minute, second of the wall clock in `zone` */
function localParts(zone: string, now: Date): number[] {
  const values: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(now)) values[part.type] = Number(part.value);
  return [values.year!, values.month!, values.day!, values.hour!, values.minute!, values.second!];
}

function formatter(zone: string): Intl.DateTimeFormat {
  let cached = formatters.get(zone);
  if (!cached) {
    cached = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, cached);
  }
  return cached;
}
