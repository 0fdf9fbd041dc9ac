import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { GroupingRecord } from '../../runtime/mod.ts';
import { formatDate, parseDate } from './dates.ts';
import { groupingStatus } from './schedule.ts';
import { JsonWriter, writeGroupingStatus } from './status-json.ts';

const out = new JsonWriter();
const groupingStatusJson = (grouping: GroupingRecord, today: number, named: boolean) => {
  writeGroupingStatus(out, grouping, today, named);
  return out.take().toString('utf8');
};

const auto: GroupingRecord = {
  grouping: '&gmail',
  mode: 'AUTO',
  start: { date: '2024-02-27', volume: 100 },
  end: { date: '2024-03-03', volume: 5000 },
  paused: false,
  algorithm: 'TOKENBUCKET',
  interval: 3600,
  properties: null,
};
const manual: GroupingRecord = {
  grouping: '&x.y-z',
  mode: 'MANUAL',
  start: { date: '2025-12-30' },
  schedule: [
    { day: 1, messages: 5 },
    { day: 2, messages: 0 },
    { day: 3, messages: 70 },
  ],
  paused: true,
  algorithm: 'FIXEDWINDOW',
  interval: 60,
  properties: { note: 'quote " backslash \\ and ünïcode', '': '\n' },
};
const held: GroupingRecord = {
  ...auto,
  warmup: { lag: 1, hold: { day: 2, since: '2024-02-28T10:00:00.000Z', reason: 'Bounces of "RATE" over 5 %' } },
} as GroupingRecord;

test('writeGroupingStatus writes exactly what JSON.stringify of groupingStatus writes, on every day around the schedule', () => {
  for (const grouping of [auto, manual, held]) {
    const start = parseDate(grouping.start.date)!;
    for (let today = start - 2; today < start + 8; today++) {
      for (const named of [false, true]) {
        assert.is(
          groupingStatusJson(grouping, today, named),
          JSON.stringify(groupingStatus(grouping, today, { named })),
          `${grouping.grouping} day ${today - start}`,
        );
      }
    }
  }
});

test('numbers, names and properties of any size and alphabet come out as JSON.stringify writes them', () => {
  const big: GroupingRecord = {
    ...manual,
    grouping: '&ünï',
    interval: 86400,
    schedule: [
      { day: 1, messages: 0 },
      { day: 2, messages: 9 },
      { day: 3, messages: 10 },
      { day: 4, messages: 1_000_000_007 },
    ],
    properties: { 日本: 'x'.repeat(70_000) },
  };
  const start = parseDate(big.start.date)!;
  assert.is(groupingStatusJson(big, start + 3, true), JSON.stringify(groupingStatus(big, start + 3, { named: true })));
});

test('groupings of one ramp share its encoded schedule only where they start on the same day', () => {
  const today = parseDate('2024-03-01')!;
  for (const date of ['2024-02-27', '2024-02-28', '2024-02-27', '2023-12-31']) {
    // Fourteen days each: one ramp of volumes
    const end = formatDate(parseDate(date)! + 13);
    const grouping = { ...auto, start: { ...auto.start, date }, end: { ...auto.end!, date: end } };
    assert.is(groupingStatusJson(grouping, today, false), JSON.stringify(groupingStatus(grouping, today)), date);
  }
});

test.run();
