import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { GroupingRecord } from '../../runtime/mod.ts';
import { formatDate, parseDate } from './dates.ts';
import { groupingStatus } from './schedule.ts';
import { copyEncoded, encodeIpStatus, JsonWriter, writeGroupingStatus } from './status-json.ts';

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

test('IPs of one plan refer to one encoded schedule, which their whole text holds where it belongs', async () => {
  const today = parseDate('2024-02-28')!;
  const frozen = (grouping: GroupingRecord) => Object.freeze({ ...grouping });
  const encode = (ip: string, groupings: GroupingRecord[]) => encodeIpStatus(out, ip, groupings, today, async () => {});
  // Records as a store hands them out: parsed apart, equal
  const first = await encode('192.0.2.1', [frozen(auto), frozen({ ...auto, grouping: '&b' })]);
  const second = await encode('192.0.2.2', [frozen(auto)]);
  assert.is(first.shared.length, 2);
  assert.ok(first.shared[0] === first.shared[1] && first.shared[0] === second.shared[0], 'one schedule buffer shared');
  // Own bytes hold no schedule: the days are in the shared buffer only
  assert.not.ok(first.own.toString('utf8').includes('"day":1'));
  const whole = Buffer.alloc(first.length + 2);
  const end = copyEncoded(first, whole, 1);
  assert.is(end, first.length + 1);
  const expected = `"192.0.2.1":{"groupings":[${[auto, { ...auto, grouping: '&b' }]
    .map((g) => JSON.stringify(groupingStatus(g as GroupingRecord, today)))
    .join(',')}]}`;
  assert.is(whole.subarray(1, end).toString('utf8'), expected);
});

test('a schedule made for one call alone (a MANUAL record not frozen) is written in place, not shared', async () => {
  const today = parseDate('2025-12-31')!;
  const encoded = await encodeIpStatus(out, '192.0.2.3', [{ ...manual }], today, async () => {});
  assert.is(encoded.shared.length, 0);
  assert.is(
    encoded.own.toString('utf8'),
    `"192.0.2.3":{"groupings":[${JSON.stringify(groupingStatus(manual, today))}]}`,
  );
});

test.run();
