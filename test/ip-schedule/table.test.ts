/**
 * The warm-up table's API over HTTP: table pages of `GET /status` and `GET /config` (paging, sorting in numeric IP
 * order, filters), bulk actions with their undo and audit entries, CSV import (line errors, dry run) and export.
 */
import { test } from '../_deadline.ts';
import * as assert from 'uvu/assert';
import { autoGrouping, utcDate, withScheduleHost, type ScheduleHost } from './_host.ts';

const manual = (name: string, start: string, messages: number[], extra: Record<string, unknown> = {}) => ({
  grouping: name,
  mode: 'MANUAL',
  start: { date: start },
  schedule: messages.map((m, i) => ({ day: i + 1, messages: m })),
  ...extra,
});

/** Five IPs, text order differing from numeric order, with every status and distinct volumes */
async function seed(host: ScheduleHost): Promise<void> {
  const ips: [string, unknown[]][] = [
    [
      '10.0.0.10',
      [
        autoGrouping('&gmail', [utcDate(-2), 100], [utcDate(7), 1000]),
        manual('&yahoo', utcDate(0), [70, 80], { interval: 3600, algorithm: 'FIXEDWINDOW' }),
      ],
    ],
    [
      '10.0.0.2',
      [
        autoGrouping('&gmail', [utcDate(-1), 200], [utcDate(8), 2000]),
        autoGrouping('&later', [utcDate(3), 5], [utcDate(9), 50]),
      ],
    ],
    ['9.1.1.1', [autoGrouping('&gmail', [utcDate(-9), 10], [utcDate(-5), 20])]],
    ['2001:db8::1', [autoGrouping('&gmail', [utcDate(0), 300], [utcDate(5), 600], { paused: true })]],
    ['192.0.2.1', [autoGrouping('&outlook', [utcDate(0), 40], [utcDate(5), 400])]],
  ];
  for (const [ip, groupings] of ips)
    assert.is((await host.call('POST', `/config/${ip}`, { groupings })).status, 200, ip);
}

const rowKeys = (json: any) => json.rows.map((row: any) => `${row.ip} ${row.grouping ?? row.config.grouping}`);

test('without table parameters GET /status and GET /config answer the whole map as before', async () => {
  await withScheduleHost({}, async (host) => {
    await seed(host);
    const before = await fetch(`${host.url}/status`);
    const text = await before.text();
    assert.is(before.headers.get('x-total-count'), null);
    assert.equal(
      Object.keys(JSON.parse(text).ips),
      ['10.0.0.10', '10.0.0.2', '192.0.2.1', '2001:db8::1', '9.1.1.1'],
      'sorted by text, as the seed',
    );
    assert.is((await host.call('GET', '/status?limit=2')).status, 200);
    assert.is((await host.call('GET', '/status')).text, text, 'a table page changes nothing of the whole answer');
    assert.ok((await host.call('GET', '/config')).json.ips['9.1.1.1']);
  });
});

test('table pages: numeric IP order, sorting by column, filters, paging and the total', async () => {
  await withScheduleHost({}, async (host) => {
    await seed(host);
    const page = await fetch(`${host.url}/status?limit=3`);
    assert.is(page.headers.get('x-total-count'), '7');
    const first = await page.json();
    assert.equal(rowKeys(first), ['9.1.1.1 &gmail', '10.0.0.2 &gmail', '10.0.0.2 &later']);
    assert.equal([first.total, first.offset, first.limit], [7, 0, 3]);
    const rest = (await host.call('GET', '/status?offset=3&limit=10')).json;
    assert.equal(rowKeys(rest), ['10.0.0.10 &gmail', '10.0.0.10 &yahoo', '192.0.2.1 &outlook', '2001:db8::1 &gmail']);

    const yahoo = rest.rows[1];
    assert.equal(yahoo, {
      ip: '10.0.0.10',
      grouping: '&yahoo',
      status: 'ONSCHEDULE',
      current_day: 1,
      days: 2,
      messages: 70,
      start: { date: utcDate(0), volume: 70 },
      end: { date: utcDate(1), volume: 80 },
      mode: 'MANUAL',
      paused: false,
      algorithm: 'FIXEDWINDOW',
      interval: 3600,
      properties: null,
    });
    const byVolume = (await host.call('GET', '/status?sort=volume&order=desc&limit=3')).json;
    assert.equal(rowKeys(byVolume), ['10.0.0.2 &gmail', '10.0.0.10 &gmail', '10.0.0.10 &yahoo']);
    const full = (await host.call('GET', '/status/10.0.0.2/%26gmail')).json;
    assert.is(
      byVolume.rows[0].messages,
      full.schedule[full.current_day - 1].messages,
      "today's messages of the whole status",
    );
    assert.ok(byVolume.rows[0].messages > byVolume.rows[1].messages && byVolume.rows[1].messages > 70);
    const byStatus = (await host.call('GET', '/status?sort=status')).json;
    assert.equal(
      byStatus.rows.map((row: any) => row.status),
      ['FINISHED', 'NOTSTARTED', 'ONSCHEDULE', 'ONSCHEDULE', 'ONSCHEDULE', 'ONSCHEDULE', 'PAUSED'],
    );
    assert.equal(rowKeys((await host.call('GET', '/status?sort=ip&order=desc&limit=2')).json), [
      '2001:db8::1 &gmail',
      '192.0.2.1 &outlook',
    ]);
    assert.equal(
      rowKeys((await host.call('GET', '/status?sort=grouping&limit=1&offset=4')).json),
      ['10.0.0.2 &later'],
      'ties in IP order',
    );

    assert.equal(rowKeys((await host.call('GET', '/status?q=10.0.0.0/24')).json), [
      '10.0.0.2 &gmail',
      '10.0.0.2 &later',
      '10.0.0.10 &gmail',
      '10.0.0.10 &yahoo',
    ]);
    assert.equal(rowKeys((await host.call('GET', '/status?q=2001:db8::/32')).json), ['2001:db8::1 &gmail']);
    assert.equal(rowKeys((await host.call('GET', '/status?q=GMAIL%20onschedule')).json), [
      '10.0.0.2 &gmail',
      '10.0.0.10 &gmail',
    ]);
    assert.equal(rowKeys((await host.call('GET', '/status?status=PAUSED')).json), ['2001:db8::1 &gmail']);
    assert.equal(rowKeys((await host.call('GET', '/status?grouping=%26gmail&sort=day&order=desc')).json), [
      '9.1.1.1 &gmail',
      '10.0.0.10 &gmail',
      '10.0.0.2 &gmail',
      '2001:db8::1 &gmail',
    ]);

    const config = await host.call('GET', '/config?q=9.1.1.1');
    assert.equal(config.json.rows, [
      { ip: '9.1.1.1', config: (await host.call('GET', '/config/9.1.1.1')).json.groupings[0] },
    ]);

    // After a write the page shows it at once
    assert.is((await host.call('PUT', '/config/9.1.1.1/pause')).status, 200);
    assert.equal(rowKeys((await host.call('GET', '/status?status=PAUSED')).json), [
      '9.1.1.1 &gmail',
      '2001:db8::1 &gmail',
    ]);

    for (const bad of [
      'sort=size',
      'order=up',
      'limit=0',
      'limit=1001',
      'offset=-1',
      'status=DONE',
      'grouping=gmail',
    ]) {
      const answer = await host.call('GET', `/status?${bad}`);
      assert.is(answer.status, 400, bad);
      assert.type(answer.json.error, 'string');
    }
  });
});

test('bulk pause over a filter and delete over a selection, each undone by its answer, one audit entry per IP', async () => {
  await withScheduleHost({}, async (host) => {
    await seed(host);
    const paused = await host.call('POST', '/v1/schedules/bulk', { action: 'pause', filter: { grouping: '&gmail' } });
    assert.is(paused.status, 200);
    assert.equal(paused.json.changed, [
      { ip: '9.1.1.1', grouping: '&gmail' },
      { ip: '10.0.0.2', grouping: '&gmail' },
      { ip: '10.0.0.10', grouping: '&gmail' },
    ]);
    assert.equal(paused.json.unchanged, [{ ip: '2001:db8::1', grouping: '&gmail' }], 'already paused');
    assert.equal(paused.json.undo, { action: 'resume', targets: paused.json.changed });
    assert.equal(rowKeys((await host.call('GET', '/status?status=PAUSED')).json), [
      '9.1.1.1 &gmail',
      '10.0.0.2 &gmail',
      '10.0.0.10 &gmail',
      '2001:db8::1 &gmail',
    ]);
    const audit = (await host.call('GET', '/v1/audit?action=schedule.pause')).json.entries;
    assert.is(audit.length, 3);
    assert.equal(audit.map((e: any) => e.subject.grouping).sort(), ['&gmail', '&gmail', '&gmail']);
    assert.equal(audit[0].reason, { bulk: true });
    const undone = await host.call('POST', '/v1/schedules/bulk', paused.json.undo);
    assert.equal(undone.json.changed, paused.json.changed);
    assert.equal(rowKeys((await host.call('GET', '/status?status=PAUSED')).json), ['2001:db8::1 &gmail']);

    const configs = Object.fromEntries(
      await Promise.all(
        ['10.0.0.10', '9.1.1.1'].map(async (ip) => [ip, (await host.call('GET', `/config/${ip}`)).json]),
      ),
    );
    const deleted = await host.call('POST', '/v1/schedules/bulk', {
      action: 'delete',
      targets: [{ ip: '10.0.0.10', grouping: '&yahoo' }, { ip: '9.1.1.1' }, { ip: '10.0.0.99' }],
    });
    assert.is(deleted.status, 200);
    assert.equal(deleted.json.changed, [{ ip: '10.0.0.10', grouping: '&yahoo' }, { ip: '9.1.1.1' }]);
    assert.equal(deleted.json.missing, [{ ip: '10.0.0.99' }]);
    assert.is((await host.call('GET', '/config/9.1.1.1')).status, 404);
    assert.equal(
      (await host.call('GET', '/config/10.0.0.10')).json.groupings.map((g: any) => g.grouping),
      ['&gmail'],
    );
    assert.is(deleted.json.undo.action, 'restore');
    const restored = await host.call('POST', '/v1/schedules/bulk', deleted.json.undo);
    assert.is(restored.status, 200);
    for (const ip of ['10.0.0.10', '9.1.1.1'])
      assert.equal((await host.call('GET', `/config/${ip}`)).json, configs[ip], ip);
    // Undo of the undo deletes again; a restore over existing groupings changes nothing
    assert.equal((await host.call('POST', '/v1/schedules/bulk', deleted.json.undo)).json.unchanged.length, 2);
    assert.equal(restored.json.undo, {
      action: 'delete',
      targets: [
        { ip: '10.0.0.10', grouping: '&yahoo' },
        { ip: '9.1.1.1', grouping: '&gmail' },
      ],
    });

    for (const bad of [
      { action: 'pause' },
      { action: 'pause', targets: [{ ip: '10.0.0.1' }], filter: {} },
      { action: 'delete', targets: [{ ip: 'nope' }] },
      { action: 'restore', targets: [{ ip: '10.0.0.1' }] },
    ]) {
      const answer = await host.call('POST', '/v1/schedules/bulk', bad);
      assert.is(answer.status, 400, JSON.stringify(bad));
      assert.match(answer.json.error, /^Invalid bulk "/);
    }
  });
});

test('CSV import: errors name their lines and write nothing, a dry run lists the changes, the export imports back unchanged', async () => {
  await withScheduleHost({}, async (host) => {
    await seed(host);
    const csv = (text: string, query = '') =>
      fetch(`${host.url}/v1/schedules/import${query}`, {
        method: 'POST',
        headers: { 'content-type': 'text/csv' },
        body: text,
      }).then(async (r) => ({ status: r.status, json: (await r.json()) as any }));
    const header =
      'ip,grouping,mode,start_date,start_volume,end_date,end_volume,schedule,algorithm,interval,paused,properties\n';
    const badFile =
      `${header}10.0.0.2,&gmail,AUTO,${utcDate(0)},,${utcDate(5)},500,,,,,\n` +
      `300.1.1.1,&x,AUTO,${utcDate(0)},1,${utcDate(1)},2,,,,,\n` +
      `10.0.0.3,&new,MANUAL,${utcDate(0)},,,,1;2;x,,,,\n` +
      `10.0.0.3,&ok,AUTO,${utcDate(0)},1,${utcDate(1)},2,,,,maybe,\n` +
      `10.0.0.4,&fine,AUTO,${utcDate(0)},1,${utcDate(1)},2,,,,,\n`;
    const refused = await csv(badFile);
    assert.is(refused.status, 400);
    assert.equal(Object.keys(refused.json), ['error']);
    assert.match(
      refused.json.error,
      /^Invalid CSV: "4" lines break the rules, nothing was written: line 2: Missing "start.volume": required for mode "AUTO"; line 3: Invalid IP address "300.1.1.1"; line 4: /,
    );
    assert.is((await host.call('GET', '/config/10.0.0.4')).status, 404, 'not even the good line is written');
    const bad = await csv(badFile, '?dry_run=true');
    assert.is(bad.status, 200);
    assert.equal(bad.json.changes, [{ line: 6, ip: '10.0.0.4', grouping: '&fine', change: 'create' }]);
    assert.equal(bad.json.errors, [
      { line: 2, error: 'Missing "start.volume": required for mode "AUTO"' },
      { line: 3, error: 'Invalid IP address "300.1.1.1"' },
      { line: 4, error: 'Invalid "schedule" day 3 "x": must be integer' },
      { line: 5, error: 'Invalid "paused" "maybe": must be boolean' },
    ]);
    assert.is((await host.call('GET', '/config/10.0.0.3')).status, 404, 'nothing written');

    const good =
      `${header}10.0.0.2,&gmail,AUTO,${utcDate(-1)},200,${utcDate(8)},3000,,,,,\n` +
      `10.0.0.3,&new,MANUAL,${utcDate(0)},,,,5;6;7,FIXEDWINDOW,3600,true,"{""pool"":""eu""}"\n` +
      `9.1.1.1,&gmail,AUTO,${utcDate(-9)},10,${utcDate(-5)},20,,,,,\n`;
    const dry = await csv(good, '?dry_run=true');
    assert.is(dry.status, 200);
    assert.equal(dry.json, {
      dry_run: true,
      errors: [],
      changes: [
        { line: 2, ip: '10.0.0.2', grouping: '&gmail', change: 'update' },
        { line: 3, ip: '10.0.0.3', grouping: '&new', change: 'create' },
        { line: 4, ip: '9.1.1.1', grouping: '&gmail', change: 'unchanged' },
      ],
    });
    assert.is((await host.call('GET', '/config/10.0.0.3')).status, 404, 'a dry run writes nothing');
    const done = await csv(good);
    assert.equal(done.json.changes, dry.json.changes);
    assert.equal((await host.call('GET', '/config/10.0.0.3')).json.groupings[0], {
      grouping: '&new',
      mode: 'MANUAL',
      start: { date: utcDate(0) },
      paused: true,
      algorithm: 'FIXEDWINDOW',
      interval: 3600,
      properties: { pool: 'eu' },
      schedule: [
        { day: 1, messages: 5 },
        { day: 2, messages: 6 },
        { day: 3, messages: 7 },
      ],
    });
    assert.equal(
      (await host.call('GET', '/config/10.0.0.2')).json.groupings.map((g: any) => [g.grouping, g.end?.volume]),
      [
        ['&gmail', 3000],
        ['&later', 50],
      ],
      'the other grouping stays',
    );
    const entries = (await host.call('GET', '/v1/audit?limit=2')).json.entries;
    assert.equal(entries.map((e: any) => [e.action, e.subject.ip]).sort(), [
      ['schedule.create', '10.0.0.3'],
      ['schedule.update', '10.0.0.2'],
    ]);

    const exported = await fetch(`${host.url}/v1/schedules/export`);
    assert.is(exported.headers.get('content-type'), 'text/csv; charset=utf-8');
    const text = await exported.text();
    const lines = text.trim().split('\n');
    assert.is(lines[0], header.trim());
    assert.is(lines.length, 1 + 8);
    assert.ok(lines[1]!.startsWith('9.1.1.1,&gmail,AUTO,'), 'numeric IP order');
    const again = await csv(text, '?dry_run=true');
    assert.ok(
      again.json.changes.every((c: any) => c.change === 'unchanged'),
      JSON.stringify(again.json.changes),
    );
    const filtered = await fetch(`${host.url}/v1/schedules/export?status=PAUSED`).then((r) => r.text());
    assert.is(filtered.trim().split('\n').length, 3);

    assert.match(
      (await csv('ip,grouping,colour\n1.2.3.4,&a,red\n')).json.error,
      /^Invalid CSV: unknown column "colour"/,
    );
    assert.match((await csv('ip,grouping,mode\n"1.2.3.4,&a,AUTO\n')).json.error, /^Invalid CSV: /);
  });
});

test.run();
