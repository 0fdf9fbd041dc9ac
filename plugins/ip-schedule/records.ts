/**
 * Turns a request body (already checked against the OpenAPI schema by the host) into the record the store
 * keeps, enforcing the rules a schema cannot express. Every failure is a 400 naming the field.
 */
import { errors } from './errors.ts';
import type { components } from '../../generated/types/ip-schedule.ts';
import type { GroupingRecord, IpRecord } from '../../runtime/mod.ts';
import { parseDate } from './dates.ts';
import { MAX_DAYS, MAX_IP_DAYS, scheduleLength } from './schedule.ts';

/** The last calendar day a schedule may reach: later dates have no YYYY-MM-DD form */
const LAST_DAY = parseDate('9999-12-31')!;

/** A grouping as POST and PUT take it */
export type GroupingInput = components['schemas']['GroupingInput'];

/** Body of POST and PUT /config/{ip} */
export type IpConfigInput = components['schemas']['IpConfigInput'];

/** The record to store for `input`; `previous` (PUT) supplies `paused` for groupings the body leaves unset */
export function toRecord(input: IpConfigInput, previous?: IpRecord): IpRecord {
  const seen = new Set<string>();
  let days = 0;
  const groupings = input.groupings.map((grouping, index) => {
    if (seen.has(grouping.grouping)) throw errors.SCHEDULE_ERR_GROUPING_DUPLICATE(grouping.grouping);
    seen.add(grouping.grouping);
    const old = previous?.groupings.find((g) => g.grouping === grouping.grouping);
    const record = toGroupingRecord(grouping, `groupings[${index}]`, grouping.paused ?? old?.paused ?? false);
    // The warm-up state is the host's (readOnly): kept across a PUT while the grouping stays adaptive, never taken from
    // a body
    if (record.adaptive && old?.warmup) record.warmup = old.warmup;
    days += scheduleLength(record);
    return record;
  });
  if (days > MAX_IP_DAYS) {
    throw errors.SCHEDULE_ERR_TOO_MANY_DAYS(days, MAX_IP_DAYS);
  }
  return { groupings };
}

function toGroupingRecord(input: GroupingInput, path: string, paused: boolean): GroupingRecord {
  const rules =
    input.mode === 'AUTO'
      ? { required: ['start', 'start.volume', 'end'], forbidden: ['schedule'] }
      : { required: ['start', 'schedule'], forbidden: ['end', 'start.volume', 'adaptive'] };
  for (const field of rules.required) {
    if (lookup(input, field) === undefined) throw errors.SCHEDULE_ERR_FIELD_MISSING(`${path}.${field}`, input.mode);
  }
  for (const field of rules.forbidden) {
    if (lookup(input, field) !== undefined) throw errors.SCHEDULE_ERR_FIELD_UNEXPECTED(`${path}.${field}`, input.mode);
  }
  const start = calendarDate(input.start!.date, `${path}.start.date`);
  const common = { grouping: input.grouping, mode: input.mode };
  const settings = {
    paused,
    algorithm: input.algorithm ?? 'TOKENBUCKET',
    interval: input.interval ?? 86400,
    properties: input.properties ?? null,
  };
  if (input.mode === 'AUTO') {
    const end = input.end!;
    const days = calendarDate(end.date, `${path}.end.date`) - start + 1;
    if (days < 1) throw errors.SCHEDULE_ERR_END_BEFORE_START(`${path}.end.date`, end.date, input.start!.date);
    if (days > MAX_DAYS) throw errors.SCHEDULE_ERR_TOO_LONG(`${path}.end.date`, MAX_DAYS);
    const record: GroupingRecord = {
      ...common,
      start: { date: input.start!.date, volume: input.start!.volume! },
      end: { date: end.date, volume: end.volume },
      ...settings,
    };
    if (input.adaptive) record.adaptive = adaptiveSettings(input.adaptive, `${path}.adaptive`);
    return record;
  }
  const schedule = manualDays(input.schedule!, `${path}.schedule`);
  // Dates past year 9999 have no YYYY-MM-DD form: the status of such a schedule could not be written
  if (start + schedule.length - 1 > LAST_DAY) throw errors.SCHEDULE_ERR_AFTER_9999(`${path}.schedule`);
  return { ...common, start: { date: input.start!.date }, ...settings, schedule };
}

/** An `adaptive` object with its defaults filled in (spec/openapi/ip-schedule.yaml, `Adaptive`) */
function adaptiveSettings(
  input: NonNullable<GroupingInput['adaptive']>,
  path: string,
): NonNullable<GroupingRecord['adaptive']> {
  const settings = {
    hold: input.hold ?? 0.02,
    stepBack: input.stepBack ?? 0.05,
    window: input.window ?? 3600,
    minAttempts: input.minAttempts ?? 100,
  };
  if (settings.stepBack < settings.hold)
    throw errors.SCHEDULE_ERR_STEP_BACK_BELOW_HOLD(path, String(settings.stepBack), String(settings.hold));
  return { ...(input.provider ? { provider: input.provider } : {}), ...settings };
}

/** The MANUAL schedule sorted by day, after checking it holds days 1..N each once */
function manualDays(
  schedule: NonNullable<GroupingInput['schedule']>,
  path: string,
): NonNullable<GroupingRecord['schedule']> {
  const sorted = [...schedule].sort((a, b) => a.day - b.day);
  for (const [index, entry] of sorted.entries()) {
    if (entry.day === index) throw errors.SCHEDULE_ERR_DAY_DUPLICATE(entry.day, path);
    if (entry.day !== index + 1) throw errors.SCHEDULE_ERR_DAY_MISSING(index + 1, path);
  }
  return sorted.map(({ day, messages }) => ({ day, messages }));
}

function calendarDate(text: string, path: string): number {
  const day = parseDate(text);
  if (day === undefined) throw errors.SCHEDULE_ERR_DATE_INVALID(text, path);
  return day;
}

function lookup(input: GroupingInput, field: string): unknown {
  return field.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], input);
}
