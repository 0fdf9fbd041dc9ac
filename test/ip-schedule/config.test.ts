import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { autoGrouping, startScheduleHost, type ScheduleHost } from './_host.ts';

let host: ScheduleHost;
const GMAIL = autoGrouping('&gmail', ['2025-01-01', 10], ['2025-01-03', 40]);
const YAHOO = {
  grouping: '&yahoo',
  mode: 'MANUAL',
  start: { date: '2025-02-01' },
  schedule: [{ day: 1, messages: 5 }],
};
const SUCCESS = { status: 'success' };

test.before(async () => {
  host = await startScheduleHost();
});
test.after(() => host.close());

test('POST /config/<ip> creates the IP when it is new and answers success', async () => {
  const created = await host.call('POST', '/config/192.0.2.1', { groupings: [GMAIL, YAHOO] });
  assert.equal([created.status, created.text], [200, '{"status":"success"}']);
  const config = await host.call('GET', '/config/192.0.2.1');
  assert.equal(config.json, {
    groupings: [
      { ...GMAIL, paused: false, algorithm: 'TOKENBUCKET', interval: 86400, properties: null },
      { ...YAHOO, paused: false, algorithm: 'TOKENBUCKET', interval: 86400, properties: null },
    ],
  });
});

test('POST /config/<ip> answers 400 "IP already exists" when the IP exists in another written form', async () => {
  await host.call('POST', '/config/2001:DB8:0::1', { groupings: [] });
  const again = await host.call('POST', '/config/2001:db8::1', { groupings: [GMAIL] });
  assert.equal([again.status, again.text], [400, '{"error":"IP already exists"}']);
  assert.equal((await host.call('GET', '/config/2001:0db8::0001')).json, { groupings: [] });
});

test('every endpoint accepts %2E for dots when given in the IP', async () => {
  assert.is((await host.call('POST', '/config/198%2E51%2E100%2E7', { groupings: [GMAIL] })).status, 200);
  assert.is((await host.call('GET', '/config/198.51.100.7/%26gmail')).json.grouping, '&gmail');
  assert.is((await host.call('GET', '/status/198%2e51%2e100%2e7/%26gmail')).status, 200);
});

test('GET /config lists every IP in canonical form when several exist', async () => {
  await host.call('POST', '/config/::FFFF:192.0.2.200', { groupings: [] });
  const all = await host.call('GET', '/config');
  assert.is(all.status, 200);
  assert.ok(Object.keys(all.json.ips).includes('::ffff:192.0.2.200'));
  assert.equal(all.json.ips['192.0.2.1'], (await host.call('GET', '/config/192.0.2.1')).json);
  assert.equal(Object.keys(all.json.ips), Object.keys(all.json.ips).sort());
});

test('GET /config/<ip>/<grouping> answers the grouping and 404 when it is unknown', async () => {
  await host.call('POST', '/config/192.0.2.2', { groupings: [GMAIL] });
  const found = await host.call('GET', '/config/192.0.2.2/%26gmail');
  assert.equal(Object.keys(found.json).sort(), [
    'algorithm',
    'end',
    'grouping',
    'interval',
    'mode',
    'paused',
    'properties',
    'start',
  ]);
  const missing = await host.call('GET', '/config/192.0.2.2/%26hotmail');
  assert.equal([missing.status, missing.json], [404, { error: 'Grouping "&hotmail" of IP "192.0.2.2" not found' }]);
});

test('PUT /config/<ip> replaces the groupings and keeps paused when the body leaves it unset', async () => {
  await host.call('POST', '/config/192.0.2.3', { groupings: [GMAIL, YAHOO] });
  await host.call('PUT', '/config/192.0.2.3/%26gmail/pause');
  const newGmail = autoGrouping('&gmail', ['2025-03-01', 5], ['2025-03-10', 500], {
    algorithm: 'FIXEDWINDOW',
    interval: 3600,
  });
  const replaced = await host.call('PUT', '/config/192.0.2.3', {
    groupings: [newGmail, { ...autoGrouping('&new', ['2025-03-01', 1], ['2025-03-01', 1]) }],
  });
  assert.equal([replaced.status, replaced.json], [200, SUCCESS]);
  const config = (await host.call('GET', '/config/192.0.2.3')).json;
  assert.equal(
    config.groupings.map((g: any) => [g.grouping, g.paused]),
    [
      ['&gmail', true],
      ['&new', false],
    ],
  );
  assert.equal(config.groupings[0].start, { date: '2025-03-01', volume: 5 });
  assert.is(config.groupings[0].algorithm, 'FIXEDWINDOW');
  await host.call('PUT', '/config/192.0.2.3', { groupings: [{ ...newGmail, paused: false }] });
  assert.is((await host.call('GET', '/config/192.0.2.3/%26gmail')).json.paused, false);
});

test('PUT /config/<ip> answers 404 when the IP does not exist', async () => {
  const missing = await host.call('PUT', '/config/203.0.113.9', { groupings: [] });
  assert.equal([missing.status, missing.json], [404, { error: 'IP "203.0.113.9" not found' }]);
});

test('pause and resume of an IP set paused on every grouping when the IP exists', async () => {
  await host.call('POST', '/config/192.0.2.4', { groupings: [GMAIL, YAHOO] });
  const paused = await host.call('PUT', '/config/192.0.2.4/pause');
  assert.equal([paused.status, paused.json], [200, SUCCESS]);
  assert.equal(
    (await host.call('GET', '/config/192.0.2.4')).json.groupings.map((g: any) => g.paused),
    [true, true],
  );
  await host.call('PUT', '/config/192.0.2.4/%26yahoo/resume');
  assert.equal(
    (await host.call('GET', '/config/192.0.2.4')).json.groupings.map((g: any) => g.paused),
    [true, false],
  );
  assert.is((await host.call('PUT', '/config/192.0.2.4/resume')).status, 200);
  assert.equal(
    (await host.call('GET', '/config/192.0.2.4')).json.groupings.map((g: any) => g.paused),
    [false, false],
  );
  assert.is((await host.call('PUT', '/config/192.0.2.4/resume')).status, 200, 'idempotent');
});

test('pause and resume of a grouping touch only that grouping when both exist', async () => {
  await host.call('POST', '/config/192.0.2.5', { groupings: [GMAIL, YAHOO] });
  assert.equal((await host.call('PUT', '/config/192.0.2.5/%26gmail/pause')).json, SUCCESS);
  assert.equal(
    (await host.call('GET', '/config/192.0.2.5')).json.groupings.map((g: any) => g.paused),
    [true, false],
  );
  assert.equal((await host.call('PUT', '/config/192.0.2.5/%26gmail/resume')).json, SUCCESS);
  assert.equal(
    (await host.call('GET', '/config/192.0.2.5')).json.groupings.map((g: any) => g.paused),
    [false, false],
  );
});

test('pause, resume and delete answer 404 when the IP or grouping is unknown', async () => {
  for (const [method, path] of [
    ['PUT', '/pause'],
    ['PUT', '/resume'],
    ['DELETE', ''],
    ['PUT', '/%26gmail/pause'],
    ['PUT', '/%26gmail/resume'],
    ['DELETE', '/%26gmail'],
    ['GET', ''],
    ['GET', '/%26gmail'],
  ]) {
    const response = await host.call(method!, `/config/203.0.113.1${path}`);
    assert.equal([response.status, response.json], [404, { error: 'IP "203.0.113.1" not found' }], `${method} ${path}`);
  }
  await host.call('POST', '/config/192.0.2.6', { groupings: [YAHOO] });
  for (const [method, path] of [
    ['PUT', '/%26gmail/pause'],
    ['PUT', '/%26gmail/resume'],
    ['DELETE', '/%26gmail'],
  ]) {
    const response = await host.call(method!, `/config/192.0.2.6${path}`);
    assert.equal(
      [response.status, response.json],
      [404, { error: 'Grouping "&gmail" of IP "192.0.2.6" not found' }],
      `${method} ${path}`,
    );
  }
});

test('DELETE /config/<ip>/<grouping> removes only that grouping and keeps the IP when it was the last', async () => {
  await host.call('POST', '/config/192.0.2.7', { groupings: [GMAIL, YAHOO] });
  assert.equal((await host.call('DELETE', '/config/192.0.2.7/%26gmail')).json, SUCCESS);
  assert.equal(
    (await host.call('GET', '/config/192.0.2.7')).json.groupings.map((g: any) => g.grouping),
    ['&yahoo'],
  );
  await host.call('DELETE', '/config/192.0.2.7/%26yahoo');
  assert.equal((await host.call('GET', '/config/192.0.2.7')).json, { groupings: [] });
});

test('DELETE /config/<ip> removes the IP and its groupings when it exists', async () => {
  await host.call('POST', '/config/192.0.2.8', { groupings: [GMAIL] });
  assert.equal((await host.call('DELETE', '/config/192.0.2.8')).json, SUCCESS);
  assert.is((await host.call('GET', '/config/192.0.2.8')).status, 404);
  assert.is((await host.call('GET', '/status/192.0.2.8')).status, 404);
  assert.is((await host.call('POST', '/config/192.0.2.8', { groupings: [] })).status, 200, 'can be created again');
});

test('every endpoint answers 400 naming the IP when the IP is invalid', async () => {
  const paths = [
    ['GET', ''],
    ['PUT', '/pause'],
    ['PUT', '/resume'],
    ['DELETE', ''],
    ['GET', '/%26gmail'],
    ['PUT', '/%26gmail/pause'],
    ['PUT', '/%26gmail/resume'],
    ['DELETE', '/%26gmail'],
  ];
  for (const bad of ['300.1.1.1', '1.2.3', '2001:db8:::1', 'fe80::1%25eth0', 'example.com']) {
    for (const [method, path] of paths) {
      const response = await host.call(method!, `/config/${bad}${path}`);
      assert.equal(
        [response.status, response.json],
        [400, { error: `Invalid IP address "${decodeURIComponent(bad)}"` }],
        `${method} ${bad}${path}`,
      );
    }
    for (const method of ['POST', 'PUT'])
      assert.is((await host.call(method, `/config/${bad}`, { groupings: [] })).status, 400);
    assert.is((await host.call('GET', `/status/${bad}`)).status, 400);
  }
});

test('grouping endpoints answer 400 when the grouping does not start with &', async () => {
  await host.call('POST', '/config/192.0.2.9', { groupings: [GMAIL] });
  const response = await host.call('PUT', '/config/192.0.2.9/gmail/pause');
  assert.is(response.status, 400);
  assert.match(response.json.error, /^Invalid grouping "gmail"/);
  // The spec's GroupingName: 63 characters after the &, no more
  const long = `&${'a'.repeat(64)}`;
  const tooLong = await host.call('PUT', `/config/192.0.2.9/${encodeURIComponent(long)}/pause`);
  assert.is(tooLong.status, 400);
  assert.match(tooLong.json.error, /^Invalid grouping "&a+"/);
});

test.run();
