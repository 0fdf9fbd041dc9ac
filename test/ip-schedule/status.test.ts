import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rejects } from '../rejects.ts';
import { autoGrouping, startScheduleHost, utcDate, withScheduleHost } from './_host.ts';

/** Today's date in `zone`, as the test machine's Intl sees it */
const localDate = (zone: string, days = 0) =>
  new Date(Date.now() + days * 86_400_000).toLocaleDateString('en-CA', { timeZone: zone });

test('GET /status/<ip>/<grouping> reports each status value when dates and pause say so', async () => {
  await withScheduleHost({}, async (host) => {
    await host.call('POST', '/config/192.0.2.1', {
      groupings: [
        autoGrouping('&future', [utcDate(1), 10], [utcDate(3), 40]),
        autoGrouping('&now', [utcDate(-1), 100], [utcDate(1), 400]),
        autoGrouping('&past', [utcDate(-5), 1], [utcDate(-2), 8]),
        autoGrouping('&paused', [utcDate(-1), 1], [utcDate(1), 1], { paused: true }),
      ],
    });
    const status = async (name: string) => (await host.call('GET', `/status/192.0.2.1/%26${name.slice(1)}`)).json;
    assert.equal([(await status('&future')).status, (await status('&future')).current_day], ['NOTSTARTED', 0]);
    const now = await status('&now');
    assert.equal(now, {
      current_day: 2,
      start: { date: utcDate(-1), volume: 100 },
      end: { date: utcDate(1), volume: 400 },
      mode: 'AUTO',
      paused: false,
      algorithm: 'TOKENBUCKET',
      interval: 86400,
      properties: null,
      schedule: [
        { date: utcDate(-1), day: 1, messages: 100 },
        { date: utcDate(0), day: 2, messages: 200 },
        { date: utcDate(1), day: 3, messages: 400 },
      ],
      status: 'ONSCHEDULE',
    });
    assert.equal([(await status('&past')).status, (await status('&past')).current_day], ['FINISHED', 6]);
    assert.is((await status('&paused')).status, 'PAUSED');
    await host.call('PUT', '/config/192.0.2.1/%26paused/resume');
    assert.is((await status('&paused')).status, 'ONSCHEDULE');
    await host.call('PUT', '/config/192.0.2.1/pause');
    assert.is((await status('&future')).status, 'PAUSED');
  });
});

test('GET /status/<ip> names each grouping and the offset when the zone is UTC', async () => {
  await withScheduleHost({}, async (host) => {
    await host.call('POST', '/config/2001:db8::1', {
      groupings: [
        autoGrouping('&a', [utcDate(0), 1], [utcDate(0), 1], { properties: { tag: 'x' } }),
        {
          grouping: '&b',
          mode: 'MANUAL',
          start: { date: utcDate(0) },
          schedule: [
            { day: 2, messages: 0 },
            { day: 1, messages: 9 },
          ],
        },
      ],
    });
    const response = await host.call('GET', '/status/2001:0DB8::0:1');
    assert.is(response.json.timezone_offset, 0);
    assert.equal(
      response.json.groupings.map((g: any) => [g.grouping, g.properties, g.start, g.end]),
      [
        ['&a', { tag: 'x' }, { date: utcDate(0), volume: 1 }, { date: utcDate(0), volume: 1 }],
        ['&b', null, { date: utcDate(0), volume: 9 }, { date: utcDate(1), volume: 0 }],
      ],
    );
    assert.not.match(response.text, /\n|": /, 'compact JSON');
    const grouping = await host.call('GET', '/status/2001:db8::1/%26b');
    assert.not.ok('grouping' in grouping.json);
  });
});

test('GET /status maps every IP to statuses without names when IPs exist', async () => {
  await withScheduleHost({}, async (host) => {
    assert.equal((await host.call('GET', '/status')).json, { ips: {} });
    await host.call('POST', '/config/192.0.2.2', {
      groupings: [
        autoGrouping('&a', [utcDate(0), 1], [utcDate(1), 2]),
        autoGrouping('&b', [utcDate(0), 3], [utcDate(1), 4]),
      ],
    });
    await host.call('POST', '/config/10.0.0.1', { groupings: [] });
    const all = (await host.call('GET', '/status')).json;
    assert.equal(Object.keys(all.ips), ['10.0.0.1', '192.0.2.2']);
    assert.equal(all.ips['10.0.0.1'], { groupings: [] });
    const perIp = (await host.call('GET', '/status/192.0.2.2')).json;
    assert.equal(
      all.ips['192.0.2.2'].groupings,
      perIp.groupings.map(({ grouping: _, ...rest }: any) => rest),
    );
  });
});

test('current_day counts days in the configured zone when it differs from UTC', async () => {
  // Kiritimati is UTC+14 and Pago Pago UTC-11: for most of the UTC day their dates differ from UTC's
  for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
    await withScheduleHost({ config: { timezone: zone } }, async (host) => {
      const start = localDate(zone);
      await host.call('POST', '/config/192.0.2.3', { groupings: [autoGrouping('&z', [start, 1], [utcDate(30), 2])] });
      const status = (await host.call('GET', '/status/192.0.2.3')).json;
      assert.is(status.timezone_offset, zone === 'Pacific/Kiritimati' ? 840 : -660);
      assert.is(status.groupings[0].current_day, localDate(zone) === start ? 1 : 2, zone);
    });
  }
});

test('the host refuses to start when the configured time zone is unknown', async () => {
  await rejects(
    () => startScheduleHost({ config: { timezone: 'Mars/Olympus' } }),
    /plugins\[0\]\.config\.timezone must be an IANA time zone such as "Europe\/Stockholm" or "UTC": found "Mars\/Olympus"/,
    'starting the host',
  );
});

test.run();
