/** `GET /v1/overview`: schedules by status, what is in force, feed clients, events per provider and class, volume */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import WebSocket from 'ws';
import { autoGrouping, utcDate, withScheduleHost } from './_host.ts';

const GMAIL_RATE =
  '421 4.7.28 [192.0.2.1] Our system has detected an unusual rate of unsolicited mail originating from your IP ' +
  'address. To protect our users from spam, mail sent from your IP address has been temporarily rate limited.';

test('counts schedules, policies in force, feed clients, reported events per provider and class, and planned against delivered', async () => {
  await withScheduleHost({ plugins: [{ id: 'bounce-classifier' }] }, async (host) => {
    // An hourly grouping running today (day 1 of 10: 100 an hour, 2,400 a day), a paused one, one not started
    assert.is(
      (
        await host.call('POST', '/config/192.0.2.1', {
          groupings: [autoGrouping('&gmail', [utcDate(0), 100], [utcDate(9), 1000], { interval: 3600 })],
        })
      ).status,
      200,
    );
    assert.is(
      (
        await host.call('POST', '/config/192.0.2.2', {
          groupings: [
            autoGrouping('&gmail', [utcDate(0), 50], [utcDate(9), 500], { paused: true }),
            autoGrouping('&yahoo', [utcDate(3), 50], [utcDate(9), 500]),
          ],
        })
      ).status,
      200,
    );
    const client = new WebSocket(host.feed);
    await new Promise((done, fail) => client.once('message', done).once('error', fail));
    try {
      // Buckets are minutes and hours since the epoch: one may turn between the report and the overview, and then the
      // events the host stamped are in one of the buckets since the report
      const reportedAt = Date.now();
      const twoHoursAgo = new Date(reportedAt - 2 * 3600_000).toISOString();
      const reported = await host.call('POST', '/v1/backoff/events', {
        events: [
          { message: GMAIL_RATE, localip: '192.0.2.1', remotemx: 'gmail-smtp-in.l.google.com', grouping: '&gmail' },
          {
            message: GMAIL_RATE,
            localip: '192.0.2.1',
            remotemx: 'gmail-smtp-in.l.google.com',
            grouping: '&gmail',
            time: twoHoursAgo,
          },
          ...Array.from({ length: 3 }, () => ({
            outcome: 'delivered',
            localip: '192.0.2.1',
            remotemx: 'gmail-smtp-in.l.google.com',
            grouping: '&gmail',
          })),
        ],
      });
      assert.is(reported.status, 200);
      const rateClass = reported.json.events[0].class as string;

      const { status, json } = await host.call('GET', '/v1/overview');
      const turned = (size: number) => Math.floor(Date.now() / size) - Math.floor(reportedAt / size);
      const [minutes, hours] = [turned(60_000), turned(3600_000)];
      assert.is(status, 200);
      assert.equal(json.schedules, {
        ips: 2,
        groupings: 3,
        statuses: { NOTSTARTED: 1, ONSCHEDULE: 1, PAUSED: 1, FINISHED: 0 },
        held: 0,
      });
      assert.equal(json.policies.policies, { WARMUP: 1 });
      assert.is(json.feed.clients, 1);
      const sum = (counts: number[] | undefined) => (counts ?? []).reduce((a, b) => a + b, 0);
      const [hourGoogle] = json.bounces.hour.providers;
      assert.is(hourGoogle.provider, 'google');
      assert.is(json.bounces.hour.step, 60);
      assert.is(hourGoogle.counts.delivered.length, 60);
      assert.is(sum(hourGoogle.counts.delivered.slice(59 - minutes)), 3, 'now is the last bucket');
      assert.is(sum(hourGoogle.counts[rateClass]), 1, 'the event two hours ago is outside the hour');
      const [dayGoogle] = json.bounces.day.providers;
      assert.is(dayGoogle.counts[rateClass].length, 24);
      assert.is(sum(dayGoogle.counts[rateClass]), 2, 'and inside the day');
      // Its time was given, two hours before the report: its bucket moves back only as the hour turns since
      assert.is(dayGoogle.counts[rateClass][21 - hours], 1, 'in the bucket two hours back');
      // Hour by hour over the last day: today's hours plan a twenty-fourth of the day's 2,400 (UTC, the host's time
      // zone), yesterday's nothing (the schedule starts today); the three deliveries fall in the hour reported
      const firstHour = Math.floor(Date.parse(json.time) / 3600_000) - 23;
      const today = Math.floor(Date.parse(json.time) / 86_400_000);
      const plannedHours = Array.from({ length: 24 }, (_, k) =>
        Math.floor(((firstHour + k) * 3600_000) / 86_400_000) === today ? 100 : 0,
      );
      const [gmail, yahoo] = json.volume;
      assert.equal(gmail.hours.planned, plannedHours);
      assert.is(sum(gmail.hours.delivered.slice(23 - hours)), 3);
      assert.equal(yahoo.hours, { planned: new Array(24).fill(0), delivered: new Array(24).fill(0) });
      assert.equal(
        json.volume.map(({ hours: _, ...rest }: { hours: unknown }) => rest),
        [
          { grouping: '&gmail', planned: 2400, delivered: 3 },
          { grouping: '&yahoo', planned: 0, delivered: null },
        ],
      );
    } finally {
      client.close();
    }
  });
});

test('an empty host answers zeros and empty series', async () => {
  await withScheduleHost({}, async (host) => {
    const { status, json } = await host.call('GET', '/v1/overview');
    assert.is(status, 200);
    assert.equal(json.schedules, {
      ips: 0,
      groupings: 0,
      statuses: { NOTSTARTED: 0, ONSCHEDULE: 0, PAUSED: 0, FINISHED: 0 },
      held: 0,
    });
    assert.equal(json.policies, { policies: {}, suspends: {} });
    assert.equal(json.bounces.hour.providers, []);
    assert.equal(json.volume, []);
  });
});

test.run();
