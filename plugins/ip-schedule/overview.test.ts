import { test } from '../../test/_deadline.ts';
import * as assert from 'uvu/assert';
import type { EventAnswer } from './backoff/engine.ts';
import { EventTally } from './overview.ts';

const ZONE = 'America/New_York';
const at = (iso: string) => Date.parse(iso);
const delivered: EventAnswer = {
  class: null,
  fields: [],
  actions: [],
  policies: [],
  outcome: 'delivered',
  provider: 'google',
};

/** Reports one delivery of `&gmail` at `time`, the clock reading `nowMs` */
function deliver(tally: EventTally, time: string, nowMs: number): void {
  tally.add([{ outcome: 'delivered', grouping: '&gmail', time: at(time) }], [delivered], nowMs);
}

test("deliveries count for the local day the clock is in, and start again at its midnight (a 23-hour DST day's too)", () => {
  const tally = new EventTally(ZONE);
  // 2025-03-09 in New York runs from 05:00 UTC to 04:00 UTC the next day (clocks went forward)
  const lastMinute = at('2025-03-10T03:59:30Z');
  deliver(tally, '2025-03-09T05:00:00Z', lastMinute);
  deliver(tally, '2025-03-10T03:59:00Z', lastMinute);
  deliver(tally, '2025-03-09T04:59:59Z', lastMinute);
  assert.equal([...tally.delivered(lastMinute)], [['&gmail', 2]], 'the day before is not today');

  const midnight = at('2025-03-10T04:00:00Z');
  assert.equal([...tally.delivered(midnight)], [], 'nothing yet on the new day');
  deliver(tally, '2025-03-10T03:59:59Z', midnight);
  assert.equal([...tally.delivered(midnight)], [], "yesterday's delivery reported after midnight");
  deliver(tally, '2025-03-10T04:00:00Z', midnight);
  assert.equal([...tally.delivered(midnight)], [['&gmail', 1]]);
  assert.equal([...tally.delivered(at('2025-03-11T03:59:59Z'))], [['&gmail', 1]], 'the whole 24-hour day');
  assert.equal([...tally.delivered(at('2025-03-11T04:00:00Z'))], [], 'and not past it');
});

test.run();
