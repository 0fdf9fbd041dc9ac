import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { autoGrouping, startScheduleHost, type ScheduleHost } from './_host.ts';

let host: ScheduleHost;
const GOOD = autoGrouping('&gmail', ['2025-01-01', 10], ['2025-01-30', 1000]);
const MANUAL = {
  grouping: '&yahoo',
  mode: 'MANUAL',
  start: { date: '2025-01-01' },
  schedule: [
    { day: 1, messages: 1 },
    { day: 2, messages: 2 },
  ],
};

/** Bodies that must be refused, each with a fragment the error must contain */
const BAD: Array<[string, unknown, RegExp]> = [
  ['not JSON', '{"groupings": [', /JSON/i],
  ['an array', [], /body/],
  ['no groupings', {}, /groupings/],
  ['unknown field', { groupings: [{ ...GOOD, colour: 'red' }] }, /colour/],
  ['no mode', { groupings: [{ grouping: '&gmail' }] }, /mode/],
  ['unknown mode', { groupings: [{ ...GOOD, mode: 'RANDOM' }] }, /mode/],
  ['name without &', { groupings: [{ ...GOOD, grouping: 'gmail' }] }, /grouping/],
  ['zero volume', { groupings: [{ ...GOOD, start: { date: '2025-01-01', volume: 0 } }] }, /start\.volume/],
  ['fractional volume', { groupings: [{ ...GOOD, end: { date: '2025-01-30', volume: 1.5 } }] }, /end\.volume/],
  ['string volume', { groupings: [{ ...GOOD, end: { date: '2025-01-30', volume: '5' } }] }, /end\.volume/],
  ['badly written date', { groupings: [{ ...GOOD, start: { date: '1/1/2025', volume: 1 } }] }, /start\.date/],
  [
    'not a calendar date',
    { groupings: [{ ...GOOD, end: { date: '2025-02-29', volume: 1 } }] },
    /"2025-02-29" in "groupings\[0\]\.end\.date": not a calendar date/,
  ],
  [
    'end before start',
    { groupings: [{ ...GOOD, end: { date: '2024-12-31', volume: 1 } }] },
    /"2024-12-31" is before start date "2025-01-01"/,
  ],
  [
    'AUTO without end',
    { groupings: [{ ...GOOD, end: undefined }] },
    /Missing "groupings\[0\]\.end": required for mode "AUTO"/,
  ],
  [
    'AUTO without start volume',
    { groupings: [{ ...GOOD, start: { date: '2025-01-01' } }] },
    /groupings\[0\]\.start\.volume/,
  ],
  [
    'AUTO with schedule',
    { groupings: [{ ...GOOD, schedule: [{ day: 1, messages: 1 }] }] },
    /not allowed for mode "AUTO"/,
  ],
  [
    'MANUAL without schedule',
    { groupings: [{ ...MANUAL, schedule: undefined }] },
    /groupings\[0\]\.schedule": required for mode "MANUAL"/,
  ],
  ['MANUAL without start', { groupings: [{ ...MANUAL, start: undefined }] }, /groupings\[0\]\.start": required/],
  [
    'MANUAL with end',
    { groupings: [{ ...MANUAL, end: { date: '2025-01-02', volume: 1 } }] },
    /not allowed for mode "MANUAL"/,
  ],
  [
    'MANUAL missing a day',
    {
      groupings: [
        {
          ...MANUAL,
          schedule: [
            { day: 1, messages: 1 },
            { day: 3, messages: 1 },
          ],
        },
      ],
    },
    /Missing day "2"/,
  ],
  [
    'MANUAL repeating a day',
    {
      groupings: [
        {
          ...MANUAL,
          schedule: [
            { day: 1, messages: 1 },
            { day: 1, messages: 1 },
          ],
        },
      ],
    },
    /Duplicate day "1"/,
  ],
  ['MANUAL negative messages', { groupings: [{ ...MANUAL, schedule: [{ day: 1, messages: -1 }] }] }, /messages/],
  ['MANUAL empty schedule', { groupings: [{ ...MANUAL, schedule: [] }] }, /schedule/],
  ['duplicate grouping', { groupings: [GOOD, GOOD] }, /Duplicate grouping "&gmail"/],
  ['unknown algorithm', { groupings: [{ ...GOOD, algorithm: 'LEAKYBUCKET' }] }, /algorithm/],
  ['zero interval', { groupings: [{ ...GOOD, interval: 0 }] }, /interval/],
  ['non-string property', { groupings: [{ ...GOOD, properties: { tag: 1 } }] }, /properties/],
  ['too long', { groupings: [{ ...GOOD, end: { date: '2030-01-01', volume: 1 } }] }, /longer than 1000 days/],
];

test.before(async () => {
  host = await startScheduleHost();
  await host.call('POST', '/config/192.0.2.1', { groupings: [GOOD] });
});
test.after(() => host.close());

test('POST and PUT answer 400 naming the problem and store nothing when the body is malformed', async () => {
  const before = (await host.call('GET', '/config')).text;
  for (const [label, body, message] of BAD) {
    for (const [method, ip] of [
      ['POST', '192.0.2.50'],
      ['PUT', '192.0.2.1'],
    ]) {
      const response = await host.call(method!, `/config/${ip}`, body);
      assert.is(response.status, 400, `${label} (${method}): ${response.text}`);
      assert.type(response.json.error, 'string');
      assert.match(response.json.error, message, `${label} (${method})`);
    }
  }
  assert.is((await host.call('GET', '/config')).text, before);
});

test('POST accepts a body when it uses every optional field', async () => {
  const full = { ...GOOD, paused: true, algorithm: 'FIXEDWINDOW', interval: 3600, properties: { tag: 'warmup' } };
  assert.is(
    (await host.call('POST', '/config/192.0.2.60', { groupings: [full, { ...MANUAL, properties: null }] })).status,
    200,
  );
  assert.equal((await host.call('GET', '/config/192.0.2.60/%26gmail')).json, full);
});

test('POST accepts a body when the AUTO schedule is one day or the longest allowed', async () => {
  const oneDay = autoGrouping('&one', ['2024-02-29', 5], ['2024-02-29', 7]);
  const longest = autoGrouping('&long', ['2024-01-01', 1], ['2026-09-26', 1_000_000_000]);
  assert.is((await host.call('POST', '/config/192.0.2.61', { groupings: [oneDay, longest] })).status, 200);
  const status = (await host.call('GET', '/status/192.0.2.61')).json;
  assert.equal(status.groupings[0].schedule, [{ date: '2024-02-29', day: 1, messages: 7 }]);
  assert.is(status.groupings[1].schedule.length, 1000);
});

/** `count` AUTO groupings of `days` days each */
const groupingsOf = (count: number, days: number) =>
  Array.from({ length: count }, (_, i) =>
    autoGrouping(`&g${i}`, ['2025-01-01', 1], [new Date(Date.UTC(2025, 0, days)).toISOString().slice(0, 10), 1000]),
  );

test('POST and PUT answer 400 naming the total when an IP would hold more than 20,000 schedule days', async () => {
  const manual = { ...MANUAL, schedule: Array.from({ length: 1000 }, (_, i) => ({ day: i + 1, messages: i })) };
  const limit =
    'Invalid "groupings": "20001" schedule days in total, more than the 20000 one IP may hold: shorten the schedules or spread the groupings over more IPs';
  for (const [method, ip] of [
    ['POST', '192.0.2.70'],
    ['PUT', '192.0.2.1'],
  ]) {
    const over = await host.call(method!, `/config/${ip}`, {
      groupings: [...groupingsOf(19, 1000), manual, autoGrouping('&one', ['2025-01-01', 1], ['2025-01-01', 1])],
    });
    assert.equal([over.status, over.json], [400, { error: limit }], method);
    const huge = await host.call(method!, `/config/${ip}`, { groupings: groupingsOf(1000, 1000) });
    assert.match(huge.json.error, /"1000000" schedule days in total/, method);
  }
  assert.is((await host.call('GET', '/config/192.0.2.70')).status, 404, 'nothing stored');
  assert.is(
    (await host.call('POST', '/config/192.0.2.70', { groupings: [...groupingsOf(19, 1000), manual] })).status,
    200,
    'exactly the limit',
  );
  assert.is(
    (await host.call('POST', '/config/192.0.2.71', { groupings: groupingsOf(1000, 20) })).status,
    200,
    'many short schedules',
  );
});

test.run();
