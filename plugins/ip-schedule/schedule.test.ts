import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { GroupingRecord } from '../../runtime/mod.ts';
import { parseDate } from './dates.ts';
import {
  autoVolumes,
  expandSchedule,
  groupingStatus,
  scheduleDay,
  scheduleStatus,
  type ScheduleDay,
} from './schedule.ts';

const auto = (start: string, startVolume: number, end: string, endVolume: number): GroupingRecord => ({
  grouping: '&gmail',
  mode: 'AUTO',
  start: { date: start, volume: startVolume },
  end: { date: end, volume: endVolume },
  paused: false,
  algorithm: 'TOKENBUCKET',
  interval: 86400,
  properties: null,
});

test('autoVolumes grows geometrically from the start volume to the end volume when ramping up', () => {
  assert.equal(autoVolumes(100, 400, 3), [100, 200, 400]);
  assert.equal(autoVolumes(1, 1000, 4), [1, 10, 100, 1000]);
  assert.equal(autoVolumes(5, 5, 4), [5, 5, 5, 5]);
});

test('autoVolumes never decreases when the end volume is at least the start volume', () => {
  for (const [first, last, days] of [
    [1, 2, 1000],
    [7, 8, 30],
    [100, 1_000_000_000, 1000],
    [1, 3, 17],
    [999, 1000, 500],
  ] as const) {
    const volumes = autoVolumes(first, last, days);
    assert.is(volumes.length, days);
    assert.is(volumes[0], first);
    assert.is(volumes[days - 1], last);
    for (let i = 1; i < days; i++) assert.ok(volumes[i]! >= volumes[i - 1]!, `${first}→${last} day ${i + 1}`);
    for (const v of volumes) assert.ok(Number.isInteger(v));
  }
});

test('autoVolumes decreases monotonically when the end volume is below the start volume', () => {
  const volumes = autoVolumes(1000, 10, 3);
  assert.equal(volumes, [1000, 100, 10]);
});

test('autoVolumes sends the end volume when the schedule is one day long', () => {
  assert.equal(autoVolumes(100, 500, 1), [500]);
});

test('expandSchedule dates each day from the start date when crossing month, year and leap-day boundaries', () => {
  const days = expandSchedule(auto('2023-12-30', 1, '2024-03-01', 64));
  assert.is(days.length, 63);
  assert.equal(days[0], { date: '2023-12-30', day: 1, messages: 1 });
  assert.equal(days[2], { date: '2024-01-01', day: 3, messages: days[2]!.messages });
  assert.is(days[32]!.date, '2024-01-31');
  assert.is(days[33]!.date, '2024-02-01');
  assert.is(days[61]!.date, '2024-02-29');
  assert.equal(days[62], { date: '2024-03-01', day: 63, messages: 64 });
});

test('expandSchedule follows the day table when the mode is MANUAL', () => {
  const manual: GroupingRecord = {
    grouping: '&yahoo',
    mode: 'MANUAL',
    start: { date: '2025-02-27' },
    paused: false,
    algorithm: 'FIXEDWINDOW',
    interval: 3600,
    properties: null,
    schedule: [
      { day: 1, messages: 10 },
      { day: 2, messages: 0 },
      { day: 3, messages: 30 },
    ],
  };
  assert.equal(expandSchedule(manual), [
    { date: '2025-02-27', day: 1, messages: 10 },
    { date: '2025-02-28', day: 2, messages: 0 },
    { date: '2025-03-01', day: 3, messages: 30 },
  ]);
  const status = groupingStatus(manual, parseDate('2025-02-28')!);
  assert.equal(status.start, { date: '2025-02-27', volume: 10 });
  assert.equal(status.end, { date: '2025-03-01', volume: 30 });
  assert.is(status.current_day, 2);
});

test('expandSchedule and scheduleDay reuse the days of a frozen record and follow a record that was changed in place', () => {
  // Stores hand out frozen records again and again (the file store's cache), so their days are kept; a record that is
  // not frozen may be changed by its owner, so a kept copy would answer its old schedule
  const frozen = Object.freeze(auto('2024-01-01', 10, '2024-01-03', 1000));
  assert.ok(expandSchedule(frozen) === expandSchedule(frozen), 'a frozen record is expanded once');
  const open = auto('2024-01-01', 10, '2024-01-03', 1000);
  const today = parseDate('2024-01-03')!;
  assert.is(expandSchedule(open)[2]!.messages, 1000);
  assert.is(scheduleDay(open, today).messages, 1000);
  open.end = { date: '2024-01-04', volume: 10_000 };
  assert.equal(
    expandSchedule(open).map((day) => day.messages),
    [10, 100, 1000, 10_000],
  );
  assert.is(scheduleDay(open, today + 1).messages, 10_000);
  assert.is(scheduleDay(open, today + 1).status, 'ONSCHEDULE');
});

test('groupingStatus moves through NOTSTARTED, ONSCHEDULE and FINISHED when the days pass', () => {
  const grouping = auto('2024-12-31', 100, '2025-01-02', 400);
  const on = (date: string) => groupingStatus(grouping, parseDate(date)!);
  assert.equal([on('2024-12-30').status, on('2024-12-30').current_day], ['NOTSTARTED', 0]);
  assert.equal([on('2024-12-31').status, on('2024-12-31').current_day], ['ONSCHEDULE', 1]);
  assert.equal([on('2025-01-02').status, on('2025-01-02').current_day], ['ONSCHEDULE', 3]);
  assert.equal([on('2025-01-03').status, on('2025-01-03').current_day], ['FINISHED', 4]);
});

test('groupingStatus reports PAUSED whatever the dates when the grouping is paused', () => {
  const paused = { ...auto('2024-12-31', 100, '2025-01-02', 400), paused: true };
  for (const date of ['2024-01-01', '2025-01-01', '2026-01-01'])
    assert.is(groupingStatus(paused, parseDate(date)!).status, 'PAUSED');
});

test('groupingStatus names the grouping only when asked to', () => {
  const grouping = auto('2025-01-01', 1, '2025-01-01', 1);
  assert.not.ok('grouping' in groupingStatus(grouping, 0));
  assert.is(groupingStatus(grouping, 0, { named: true }).grouping, '&gmail');
  assert.is(groupingStatus(grouping, 0).properties, null);
});

const manual = (start: string, messages: number[], paused = false): GroupingRecord => ({
  grouping: '&yahoo',
  mode: 'MANUAL',
  start: { date: start },
  paused,
  algorithm: 'TOKENBUCKET',
  interval: 86400,
  properties: null,
  schedule: messages.map((count, index) => ({ day: index + 1, messages: count })),
});
const ramp = auto('2025-03-08', 100, '2025-03-10', 400);
/** A copy frozen all through, as the file store hands records out: the cached path */
const frozen = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null)
    for (const child of Object.values(Object.freeze(value))) frozen(child);
  return value;
};

/** Where a grouping stands on a date: [name, grouping, date, want] */
const positions: [string, GroupingRecord, string, ScheduleDay][] = [
  ['long before the first day', ramp, '2025-01-01', { status: 'NOTSTARTED', day: 0, messages: 0 }],
  ['the day before the first', ramp, '2025-03-07', { status: 'NOTSTARTED', day: 0, messages: 0 }],
  ['the first day', ramp, '2025-03-08', { status: 'ONSCHEDULE', day: 1, messages: 100 }],
  ['a middle day', ramp, '2025-03-09', { status: 'ONSCHEDULE', day: 2, messages: 200 }],
  ['the last day', ramp, '2025-03-10', { status: 'ONSCHEDULE', day: 3, messages: 400 }],
  ['the day after the last', ramp, '2025-03-11', { status: 'FINISHED', day: 4, messages: 0 }],
  ['long after the last day', ramp, '2025-04-10', { status: 'FINISHED', day: 34, messages: 0 }],
  ['paused before the first day', { ...ramp, paused: true }, '2025-03-07', { status: 'PAUSED', day: 0, messages: 0 }],
  [
    'paused on a day of the schedule',
    { ...ramp, paused: true },
    '2025-03-09',
    { status: 'PAUSED', day: 2, messages: 0 },
  ],
  ['paused after the last day', { ...ramp, paused: true }, '2025-03-11', { status: 'PAUSED', day: 4, messages: 0 }],
  [
    'a MANUAL day of 0 messages',
    manual('2025-03-08', [50, 0, 70]),
    '2025-03-09',
    { status: 'ONSCHEDULE', day: 2, messages: 0 },
  ],
  [
    'a MANUAL last day',
    manual('2025-03-08', [50, 0, 70]),
    '2025-03-10',
    { status: 'ONSCHEDULE', day: 3, messages: 70 },
  ],
  [
    'after a MANUAL last day',
    manual('2025-03-08', [50, 0, 70]),
    '2025-03-11',
    { status: 'FINISHED', day: 4, messages: 0 },
  ],
  [
    'a paused MANUAL day',
    manual('2025-03-08', [50, 0, 70], true),
    '2025-03-08',
    { status: 'PAUSED', day: 1, messages: 0 },
  ],
  [
    'the day of a one-day schedule',
    auto('2025-03-08', 5, '2025-03-08', 9),
    '2025-03-08',
    { status: 'ONSCHEDULE', day: 1, messages: 9 },
  ],
  [
    'the day after a one-day schedule',
    auto('2025-03-08', 5, '2025-03-08', 9),
    '2025-03-09',
    { status: 'FINISHED', day: 2, messages: 0 },
  ],
];

test('scheduleDay and scheduleStatus give the status, schedule day and allowed messages when the day is before, in, or after the schedule', () => {
  for (const [name, grouping, date, want] of positions) {
    assert.equal(scheduleDay(grouping, parseDate(date)!), want, `${name} (${date})`);
    assert.equal(
      scheduleStatus(grouping, parseDate(date)!),
      { status: want.status, day: want.day },
      `${name} (${date}), status alone`,
    );
    const copy = frozen(structuredClone(grouping));
    for (const pass of ['first', 'cached'])
      assert.equal(scheduleDay(copy, parseDate(date)!), want, `${name} (${date}), frozen record, ${pass} pass`);
  }
});

test('scheduleDay agrees with groupingStatus on every day when walking past both ends of a schedule', () => {
  for (const grouping of [ramp, manual('2025-03-08', [50, 0, 70]), { ...ramp, paused: true }]) {
    for (let day = parseDate('2025-03-05')!; day <= parseDate('2025-03-14')!; day++) {
      const status = groupingStatus(grouping, day);
      const want = status.status === 'ONSCHEDULE' ? status.schedule[status.current_day - 1]!.messages : 0;
      assert.equal(
        scheduleDay(grouping, day),
        { status: status.status, day: status.current_day, messages: want },
        `${grouping.grouping} day ${day}`,
      );
    }
  }
});

test.run();
