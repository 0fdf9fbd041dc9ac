import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { CapstanError } from '../../runtime/mod.ts';
import { toRecord, type GroupingInput } from './records.ts';

const AUTO: GroupingInput = {
  grouping: '&gmail',
  mode: 'AUTO',
  start: { date: '2025-01-01', volume: 10 },
  end: { date: '2025-01-31', volume: 1000 },
};
const MANUAL: GroupingInput = {
  grouping: '&yahoo',
  mode: 'MANUAL',
  start: { date: '2025-01-01' },
  schedule: [
    { day: 2, messages: 5 },
    { day: 1, messages: 1 },
  ],
};

function rejects(groupings: GroupingInput[], message: string) {
  try {
    toRecord({ groupings });
  } catch (error) {
    assert.is((error as CapstanError).status, 400);
    assert.is((error as CapstanError).message, message);
    return;
  }
  assert.unreachable(`accepted, expected "${message}"`);
}

test('toRecord fills defaults when the body leaves them out', () => {
  assert.equal(toRecord({ groupings: [AUTO] }).groupings[0], {
    grouping: '&gmail',
    mode: 'AUTO',
    start: { date: '2025-01-01', volume: 10 },
    end: { date: '2025-01-31', volume: 1000 },
    paused: false,
    algorithm: 'TOKENBUCKET',
    interval: 86400,
    properties: null,
  });
});

test('toRecord sorts a MANUAL schedule by day when given in any order', () => {
  assert.equal(toRecord({ groupings: [MANUAL] }).groupings[0]!.schedule, [
    { day: 1, messages: 1 },
    { day: 2, messages: 5 },
  ]);
});

test('toRecord keeps paused from the previous grouping of the same name when the body leaves it unset', () => {
  const previous = toRecord({
    groupings: [
      { ...AUTO, paused: true },
      { ...MANUAL, paused: true },
    ],
  });
  const next = toRecord({ groupings: [AUTO, { ...MANUAL, paused: false }, { ...AUTO, grouping: '&new' }] }, previous);
  assert.equal(
    next.groupings.map((g) => g.paused),
    [true, false, false],
  );
});

test('toRecord rejects a body when a mode rule is broken', () => {
  rejects([{ ...AUTO, end: undefined }], 'Missing "groupings[0].end": required for mode "AUTO"');
  rejects(
    [{ ...AUTO, start: { date: '2025-01-01' } }],
    'Missing "groupings[0].start.volume": required for mode "AUTO"',
  );
  rejects(
    [{ ...AUTO, schedule: [{ day: 1, messages: 1 }] }],
    'Unexpected "groupings[0].schedule": not allowed for mode "AUTO"',
  );
  rejects([AUTO, { ...MANUAL, schedule: undefined }], 'Missing "groupings[1].schedule": required for mode "MANUAL"');
  rejects([{ ...MANUAL, start: undefined }], 'Missing "groupings[0].start": required for mode "MANUAL"');
  rejects(
    [{ ...MANUAL, end: { date: '2025-01-02', volume: 1 } }],
    'Unexpected "groupings[0].end": not allowed for mode "MANUAL"',
  );
  rejects(
    [{ ...MANUAL, start: { date: '2025-01-01', volume: 3 } }],
    'Unexpected "groupings[0].start.volume": not allowed for mode "MANUAL"',
  );
});

test('toRecord rejects dates when they are not in the calendar or out of order', () => {
  rejects(
    [{ ...AUTO, start: { date: '2025-02-29', volume: 1 } }],
    'Invalid date "2025-02-29" in "groupings[0].start.date": not a calendar date',
  );
  rejects(
    [{ ...AUTO, end: { date: '2025-04-31', volume: 1 } }],
    'Invalid date "2025-04-31" in "groupings[0].end.date": not a calendar date',
  );
  rejects(
    [{ ...AUTO, end: { date: '2024-12-31', volume: 1 } }],
    'Invalid "groupings[0].end.date": "2024-12-31" is before start date "2025-01-01"',
  );
  // Found by the fuzz test: such a schedule was stored, and every GET /status then failed
  rejects(
    [{ ...MANUAL, start: { date: '9999-12-31' } }],
    'Invalid "groupings[0].schedule": its last day falls after "9999-12-31"',
  );
  rejects(
    [{ ...AUTO, end: { date: '2027-09-28', volume: 1 } }],
    'Invalid "groupings[0].end.date": the schedule is longer than 1000 days',
  );
  assert.is(toRecord({ groupings: [{ ...AUTO, end: { date: '2027-09-27', volume: 1 } }] }).groupings.length, 1);
  assert.is(toRecord({ groupings: [{ ...AUTO, end: { date: '2025-01-01', volume: 1 } }] }).groupings.length, 1);
});

test('toRecord rejects a MANUAL schedule when a day is missing or repeated', () => {
  rejects(
    [
      {
        ...MANUAL,
        schedule: [
          { day: 1, messages: 1 },
          { day: 1, messages: 2 },
        ],
      },
    ],
    'Duplicate day "1" in "groupings[0].schedule"',
  );
  rejects(
    [
      {
        ...MANUAL,
        schedule: [
          { day: 1, messages: 1 },
          { day: 3, messages: 2 },
        ],
      },
    ],
    'Missing day "2" in "groupings[0].schedule": days must run from 1 to the last day, each once',
  );
  rejects(
    [{ ...MANUAL, schedule: [{ day: 2, messages: 1 }] }],
    'Missing day "1" in "groupings[0].schedule": days must run from 1 to the last day, each once',
  );
});

test('toRecord rejects a body when a grouping name repeats', () => {
  rejects([AUTO, MANUAL, { ...MANUAL, mode: 'MANUAL' }], 'Duplicate grouping "&yahoo" in "groupings"');
});

test.run();
