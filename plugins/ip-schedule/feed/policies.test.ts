/** One test per row of the table in docs/policy-feed.md (rows 1–11; the transitions are in state.test.ts) */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { GroupingRecord, IpRecord } from '../../../runtime/mod.ts';
import { parseDate } from '../dates.ts';
import { scheduleDay } from '../schedule.ts';
import { warmupPolicies } from './policies.ts';

const IP = '192.0.2.1';
const TODAY = parseDate('2025-03-10')!;

/** A 10-day AUTO ramp 100 → 51,200 (doubling) starting `start` */
const auto = (grouping: string, start: string, extra: Partial<GroupingRecord> = {}): GroupingRecord => {
  const end = new Date(Date.parse(start) + 9 * 86_400_000).toISOString().slice(0, 10);
  return {
    grouping,
    mode: 'AUTO',
    start: { date: start, volume: 100 },
    end: { date: end, volume: 51_200 },
    paused: false,
    algorithm: 'TOKENBUCKET',
    interval: 86400,
    properties: null,
    ...extra,
  };
};
const record = (...groupings: GroupingRecord[]): IpRecord => ({ groupings });
const rate = (count: number, interval = 86400, algorithm = 'TOKENBUCKET') => ({ count, interval, algorithm });
const policy = (grouping: string, then: Record<string, unknown>) => ({
  id: `warmup:${IP}:${grouping}`,
  type: 'WARMUP',
  fields: ['LOCALIP', 'GROUPING'],
  if: { localip: IP, grouping },
  then,
});
const HOLD = { id: `warmup-hold:${IP}`, type: 'WARMUP', localip: IP, tag: 'Hold' };

test("row 1: a running grouping is one WARMUP policy with the day's messages per interval, tagged with the day", () => {
  // 2025-03-08 is day 1: today is day 3, 400 messages
  assert.equal(warmupPolicies(IP, record(auto('&gmail', '2025-03-08')), TODAY), {
    policies: [policy('&gmail', { rate: rate(400), tag: 'Day_3' })],
    suspends: [],
  });
});

test("row 1: the policy carries the grouping's interval, algorithm and properties", () => {
  const grouping = auto('&gmail', '2025-03-10', {
    interval: 3600,
    algorithm: 'FIXEDWINDOW',
    properties: { pool: 'warm' },
  });
  assert.equal(warmupPolicies(IP, record(grouping), TODAY).policies, [
    policy('&gmail', { rate: rate(100, 3600, 'FIXEDWINDOW'), tag: 'Day_1', properties: { pool: 'warm' } }),
  ]);
});

test("row 2: the next day gives the same policy with the next day's count and tag", () => {
  const grouping = record(auto('&gmail', '2025-03-08'));
  const [today] = warmupPolicies(IP, grouping, TODAY).policies;
  const [tomorrow] = warmupPolicies(IP, grouping, TODAY + 1).policies;
  assert.equal({ ...tomorrow, then: undefined }, { ...today, then: undefined }, 'only then differs');
  assert.equal(tomorrow!.then, { rate: rate(800), tag: 'Day_4' });
});

test('row 3: a paused grouping has no policy while another grouping keeps the IP reserved', () => {
  const result = warmupPolicies(
    IP,
    record(auto('&gmail', '2025-03-08', { paused: true }), auto('&yahoo', '2025-03-09')),
    TODAY,
  );
  assert.equal(result, { policies: [policy('&yahoo', { rate: rate(200), tag: 'Day_2' })], suspends: [] });
});

test('row 4: an IP whose every grouping waits is held by one WARMUP suspension of the IP and has no policy', () => {
  const waiting = record(auto('&gmail', '2025-03-08', { paused: true }), auto('&yahoo', '2025-04-01'));
  assert.equal(warmupPolicies(IP, waiting, TODAY), { policies: [], suspends: [HOLD] });
});

test('row 5: a grouping that has not started has no policy, and holds the IP when nothing else of it runs', () => {
  assert.equal(warmupPolicies(IP, record(auto('&gmail', '2025-03-11')), TODAY), { policies: [], suspends: [HOLD] });
  assert.equal(
    warmupPolicies(IP, record(auto('&gmail', '2025-03-11'), auto('&yahoo', '2025-03-10')), TODAY).policies.map(
      (p) => p.id,
    ),
    [`warmup:${IP}:&yahoo`],
  );
  assert.is(scheduleDay(auto('&gmail', '2025-03-11'), TODAY).status, 'NOTSTARTED');
});

test('row 6: a MANUAL day of 0 messages has no policy, as a paused grouping', () => {
  const manual: GroupingRecord = {
    grouping: '&gmail',
    mode: 'MANUAL',
    start: { date: '2025-03-09' },
    paused: false,
    algorithm: 'TOKENBUCKET',
    interval: 86400,
    properties: null,
    schedule: [
      { day: 1, messages: 50 },
      { day: 2, messages: 0 },
      { day: 3, messages: 70 },
    ],
  };
  assert.equal(warmupPolicies(IP, record(manual), TODAY), { policies: [], suspends: [HOLD] });
  assert.equal(warmupPolicies(IP, record(manual), TODAY + 1).policies, [
    policy('&gmail', { rate: rate(70), tag: 'Day_3' }),
  ]);
});

test('row 7: a resumed grouping gets the policy its dates give, and the hold goes', () => {
  const paused = warmupPolicies(IP, record(auto('&gmail', '2025-03-08', { paused: true })), TODAY);
  const resumed = warmupPolicies(IP, record(auto('&gmail', '2025-03-08')), TODAY);
  assert.equal(paused, { policies: [], suspends: [HOLD] });
  assert.equal(resumed, { policies: [policy('&gmail', { rate: rate(400), tag: 'Day_3' })], suspends: [] });
});

test('row 8: a finished grouping keeps a policy without a rate while the IP still warms up for another', () => {
  const result = warmupPolicies(
    IP,
    record(auto('&gmail', '2025-02-01', { properties: { a: 'b' } }), auto('&yahoo', '2025-03-10')),
    TODAY,
  );
  assert.equal(result.policies, [
    policy('&gmail', { tag: 'Finished', properties: { a: 'b' } }),
    policy('&yahoo', { rate: rate(100), tag: 'Day_1' }),
  ]);
  const withPaused = warmupPolicies(
    IP,
    record(auto('&gmail', '2025-02-01'), auto('&yahoo', '2025-03-10', { paused: true })),
    TODAY,
  );
  assert.equal(
    withPaused,
    { policies: [policy('&gmail', { tag: 'Finished' })], suspends: [] },
    'the finished grouping keeps the IP reserved',
  );
});

test('row 9: an IP whose every grouping finished has nothing in the feed', () => {
  assert.equal(warmupPolicies(IP, record(auto('&gmail', '2025-02-01'), auto('&yahoo', '2025-01-01')), TODAY), {
    policies: [],
    suspends: [],
  });
  assert.is(scheduleDay(auto('&gmail', '2025-02-01'), TODAY).status, 'FINISHED');
});

test("row 10: a deleted grouping leaves only the other groupings' policies", () => {
  const both = warmupPolicies(IP, record(auto('&gmail', '2025-03-08'), auto('&yahoo', '2025-03-08')), TODAY);
  const one = warmupPolicies(IP, record(auto('&yahoo', '2025-03-08')), TODAY);
  assert.equal(both.policies.length, 2);
  assert.equal(
    one.policies.map((p) => p.id),
    [`warmup:${IP}:&yahoo`],
  );
});

test('row 11: an IP with no groupings, or none stored, has nothing in the feed', () => {
  assert.equal(warmupPolicies(IP, record(), TODAY), { policies: [], suspends: [] });
  assert.equal(warmupPolicies(IP, undefined, TODAY), { policies: [], suspends: [] });
});

test('a paused finished grouping counts as waiting, so pausing the whole IP holds it', () => {
  const paused = record(auto('&gmail', '2025-02-01', { paused: true }), auto('&yahoo', '2025-03-08', { paused: true }));
  assert.equal(warmupPolicies(IP, paused, TODAY), { policies: [], suspends: [HOLD] });
});

test('every WARMUP policy carries if.localip and ids stay the same from day to day', () => {
  const groupings = record(auto('&a', '2025-03-01'), auto('&b', '2025-02-01'), auto('&c', '2025-03-10'));
  for (let day = TODAY - 20; day < TODAY + 20; day++) {
    for (const p of warmupPolicies(IP, groupings, day).policies) {
      assert.is(p.if.localip, IP);
      assert.is(p.id, `warmup:${IP}:${p.if.grouping}`);
    }
  }
});

test.run();
