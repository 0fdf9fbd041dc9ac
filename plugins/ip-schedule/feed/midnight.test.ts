import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { today } from '../dates.ts';
import { nextMidnight } from './midnight.ts';

const local = (zone: string, at: number) =>
  new Intl.DateTimeFormat('sv-SE', { timeZone: zone, dateStyle: 'short', timeStyle: 'short' }).format(at);

test('nextMidnight is the next 00:00 of the zone, on ordinary and daylight-saving days', () => {
  const cases: [string, string, string][] = [
    ['UTC', '2025-03-01T12:00:00Z', '2025-03-02 00:00'],
    ['Europe/Stockholm', '2025-03-29T12:00:00Z', '2025-03-30 00:00'], // clocks go forward that night at 02:00
    ['Europe/Stockholm', '2025-03-30T12:00:00Z', '2025-03-31 00:00'], // the first day after: 23 hours long
    ['Europe/Stockholm', '2025-10-25T23:30:00Z', '2025-10-27 00:00'], // 00:30 local on the 26th, a 25-hour day
    ['Asia/Kolkata', '2025-01-01T00:00:00Z', '2025-01-02 00:00'],
    ['Pacific/Chatham', '2025-04-05T10:00:00Z', '2025-04-06 00:00'],
    ['America/New_York', '2025-11-02T03:30:00Z', '2025-11-02 00:00'], // 23:30 EDT on the 1st; clocks go back at 02:00
  ];
  for (const [zone, now, want] of cases)
    assert.is(local(zone, nextMidnight(zone, Date.parse(now))), want, `${zone} from ${now}`);
});

test('nextMidnight starts the day at the first minute that exists when a zone skips midnight', () => {
  // America/Santiago moves from 00:00 to 01:00 on 2025-09-07
  assert.is(
    local('America/Santiago', nextMidnight('America/Santiago', Date.parse('2025-09-06T12:00:00Z'))),
    '2025-09-07 01:00',
  );
});

test('nextMidnight is the instant today() turns: a minute before it is still the old day', () => {
  for (const zone of ['UTC', 'Europe/Stockholm', 'America/Santiago', 'Australia/Lord_Howe', 'Asia/Tehran']) {
    for (
      let t = Date.parse('2025-01-01T05:17:00Z');
      t < Date.parse('2026-01-01T00:00:00Z');
      t += 7 * 86_400_000 + 3_600_000
    ) {
      const at = nextMidnight(zone, t);
      const day = today(zone, new Date(t));
      assert.ok(at > t, `${zone} ${new Date(t).toISOString()}`);
      assert.is(today(zone, new Date(at)), day + 1, `${zone} turns to the next day`);
      assert.is(today(zone, new Date(at - 60_000)), day, `${zone} a minute before is still today`);
    }
  }
});

test.run();
