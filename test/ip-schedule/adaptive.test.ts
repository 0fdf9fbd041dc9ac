/**
 * Adaptive warm-ups over HTTP and the feed: an AUTO grouping with `adaptive` holds its day while the reputation share
 * of its provider for its IP is over `hold`, steps back a day over `stepBack`, and releases when the share falls; each
 * change is an UPDATE on the feed and an audit entry, and survives a restart. A grouping without `adaptive` on the
 * same IP follows its dates whatever the events. The test clock is set to the real time: the status days are today's
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MtaClient } from './_mta-client.ts';
import { autoGrouping, startScheduleHost, utcDate, type ScheduleHost } from './_host.ts';

const IP = '192.0.2.1';
/** A block list naming the IP: INFRASTRUCTURE_BLOCK, in the reputation group */
const LISTED = '550 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org';
const GMAIL = {
  localip: IP,
  remotemx: 'gmail-smtp-in.l.google.com',
  recipientdomain: 'gmail.com',
  grouping: '&gmail',
  jobid: 'j1',
};
const ADAPTIVE_ID = `warmup:${IP}:&gmail`;
const PLAIN_ID = `warmup:${IP}:&plain`;
/** Day 5 of a 30-day ramp today */
const RAMP: [[string, number], [string, number]] = [
  [utcDate(-4), 100],
  [utcDate(25), 50_000],
];

const start = (folder?: string) =>
  startScheduleHost({
    plugins: [{ id: 'bounce-classifier' }],
    config: { timezone: 'UTC' },
    env: { CAPSTAN_TEST_CLOCK: new Date().toISOString() },
    ...(folder ? { folder } : {}),
  });
const post = (h: ScheduleHost, events: unknown[]) => h.call('POST', '/v1/backoff/events', { events });
const delivered = (n: number) => Array.from({ length: n }, () => ({ ...GMAIL, outcome: 'delivered' }));
const listed = (n: number) => Array.from({ length: n }, () => ({ ...GMAIL, message: LISTED }));
/** A policy's `then` as the client holds it */
const thenOf = (client: MtaClient, id: string): any => client.policies.get(id)?.then;
const status = async (h: ScheduleHost, grouping: string) =>
  (await h.call('GET', `/status/${IP}/${encodeURIComponent(grouping)}`)).json;
const volume = async (h: ScheduleHost, day: number) => (await status(h, '&gmail')).schedule[day - 1].messages;

test('adaptive: holds over "hold", steps back over "stepBack", releases when the share falls; the plain grouping follows its dates', async () => {
  // A folder of our own: a host removes the one it made when it closes
  const folder = await mkdtemp(join(tmpdir(), 'capstan-adaptive-'));
  let h = await start(folder);
  let client = new MtaClient(h.feed, { keepFrames: true });
  try {
    const created = await h.call('POST', `/config/${IP}`, {
      groupings: [
        autoGrouping('&gmail', ...RAMP, { adaptive: { hold: 0.02, stepBack: 0.04, minAttempts: 100 } }),
        autoGrouping('&plain', ...RAMP),
      ],
    });
    assert.is(created.status, 200, created.text);
    await client.start();
    const day5 = await volume(h, 5);
    const day4 = await volume(h, 4);
    // No bad events: day 5 like any grouping
    await post(h, delivered(150));
    assert.is((await status(h, '&gmail')).current_day, 5);
    assert.is((await status(h, '&gmail')).hold, undefined);

    // 5 listings of 200 attempts (2.5 %): the day holds; `&gmail` maps to the provider google by the table's names
    await post(h, [...delivered(45), ...listed(5)]);
    const held = await status(h, '&gmail');
    assert.is(held.current_day, 5);
    assert.match(held.hold.reason, /^google reputation 2\.5% of 200 attempts in 900s \(hold >= 2%\)$/);
    await client.until(() => thenOf(client, ADAPTIVE_ID)?.properties?.hold !== undefined, 2000, 'the hold on the feed');
    const update = client.frames.filter((f) => f.action === 'UPDATE' && f.policy?.id === ADAPTIVE_ID).at(-1)!;
    assert.equal((update.policy!.then as any).rate!.count, day5, 'the held day keeps its volume');
    assert.is((update.policy!.then as any).tag, 'Day_5');

    // The holds in force are the table's rows matching the word `held`; `adaptive` finds the adaptive ones
    const holds = (await h.call('GET', '/status?q=held')).json;
    assert.equal(
      [holds.total, holds.rows.map((r: any) => [r.ip, r.grouping, r.hold.reason])],
      [1, [[IP, '&gmail', held.hold.reason]]],
    );
    assert.is((await h.call('GET', '/status?q=adaptive')).json.total, 1);

    // The same events leave the grouping without `adaptive` alone
    const plain = await status(h, '&plain');
    assert.equal([plain.current_day, plain.hold], [5, undefined]);
    assert.is(client.frames.filter((f) => f.policy?.id === PLAIN_ID && f.action === 'UPDATE').length, 0);

    // 9 of 204 (4.4 %): one day back, to day 4's volume
    await post(h, listed(4));
    const back = await status(h, '&gmail');
    assert.is(back.current_day, 4);
    assert.match(back.hold.reason, /step back >= 4%/);
    await client.until(() => thenOf(client, ADAPTIVE_ID)?.tag === 'Day_4', 2000, 'day 4 on the feed');
    assert.is(thenOf(client, ADAPTIVE_ID)!.rate!.count, day4);
    // Still over "stepBack", but within the window: no second step back
    await post(h, listed(1));
    assert.is((await status(h, '&gmail')).current_day, 4);

    // Held across a restart (the state is in the stored grouping; the counts are the host's and start again)
    await client.stop();
    await h.close();
    h = await start(folder);
    client = new MtaClient(h.feed, { keepFrames: true });
    await client.start();
    assert.equal(
      [(await status(h, '&gmail')).current_day, (await status(h, '&gmail')).hold.since],
      [4, held.hold.since],
    );

    // 2 of 100 (2 %) is still held; 2 of 150 (1.3 %) releases: day 4, a day behind its dates
    await post(h, [...delivered(98), ...listed(2)]);
    assert.ok((await status(h, '&gmail')).hold, 'still at 2 %');
    await post(h, delivered(50));
    const released = await status(h, '&gmail');
    assert.equal([released.current_day, released.hold], [4, undefined]);
    assert.is((await h.call('GET', '/status?q=held')).json.total, 0, 'no hold listed once released');
    await client.until(
      () => thenOf(client, ADAPTIVE_ID)?.properties?.hold === undefined,
      2000,
      'the release on the feed',
    );
    assert.is(thenOf(client, ADAPTIVE_ID)!.tag, 'Day_4');
    assert.equal([(await status(h, '&plain')).current_day, thenOf(client, PLAIN_ID)!.tag], [5, 'Day_5']);

    const audit = (await h.call('GET', '/v1/audit?limit=100&grouping=%26gmail')).json.entries.filter((e: any) =>
      e.action.startsWith('warmup.'),
    );
    assert.equal(audit.map((e: any) => [e.action, e.principal]).reverse(), [
      ['warmup.hold', 'system'],
      ['warmup.hold', 'system'],
      ['warmup.release', 'system'],
    ]);
    const [release, stepBack, hold] = audit;
    assert.equal(
      [hold.reason.provider, hold.reason.attempts, hold.reason.window, hold.reason.share],
      ['google', 200, 900, 0.025],
    );
    assert.is(stepBack.reason.day, 4);
    assert.equal(
      [release.reason.share < 0.02, release.before.warmup.hold.day, release.after.warmup],
      [true, 4, { lag: 1, steppedBack: stepBack.after.warmup.steppedBack }],
    );
    assert.equal(client.errors, []);
  } finally {
    await client.stop();
    await h.close();
    await rm(folder, { recursive: true, force: true });
  }
});

test('adaptive: refused on MANUAL and with stepBack below hold; absent from a grouping that does not ask for it', async () => {
  const h = await start();
  try {
    const manual = await h.call('POST', `/config/${IP}`, {
      groupings: [
        {
          grouping: '&m',
          mode: 'MANUAL',
          start: { date: utcDate() },
          schedule: [{ day: 1, messages: 5 }],
          adaptive: {},
        },
      ],
    });
    assert.equal(
      [manual.status, manual.json.error],
      [400, 'Unexpected "groupings[0].adaptive": not allowed for mode "MANUAL"'],
    );
    const below = await h.call('POST', `/config/${IP}`, {
      groupings: [autoGrouping('&gmail', ...RAMP, { adaptive: { hold: 0.05, stepBack: 0.02 } })],
    });
    assert.equal(
      [below.status, below.json.error],
      [400, 'Invalid "groupings[0].adaptive": stepBack "0.02" is below hold "0.05"'],
    );
    assert.is(
      (await h.call('POST', `/config/${IP}`, { groupings: [autoGrouping('&gmail', ...RAMP, { adaptive: {} })] }))
        .status,
      200,
    );
    assert.equal((await h.call('GET', `/config/${IP}/%26gmail`)).json.adaptive, {
      hold: 0.02,
      stepBack: 0.05,
      window: 3600,
      minAttempts: 100,
    });
  } finally {
    await h.close();
  }
});

test.run();
