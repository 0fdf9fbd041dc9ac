import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { test } from '../_deadline.ts';
import * as assert from 'uvu/assert';
import { autoGrouping, startScheduleHost, type ScheduleHost } from './_host.ts';
import { DATABASE_URL as URL, requirePostgres } from '../_postgres.ts';

await requirePostgres();
const schema = `t_${randomUUID().replaceAll('-', '')}`;
let a: ScheduleHost;
let b: ScheduleHost;

/** A host whose store is PostgreSQL, in this test's own schema */
const start = () =>
  startScheduleHost({
    plugins: [{ id: 'schedule-store-postgres', config: { connectionString: URL, schema } }],
    config: { store: 'schedule-store-postgres' },
  });

test.before(async () => {
  [a, b] = await Promise.all([start(), start()]);
});

test.after(async () => {
  await Promise.all([a?.close(), b?.close()]);
  const client = new pg.Client(URL);
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

test("each host sees the other host's writes at once when they share a database", async () => {
  assert.is(
    (
      await a.call('POST', '/config/192.0.2.1', {
        groupings: [autoGrouping('&gmail', ['2025-01-01', 1], ['2025-01-09', 9])],
      })
    ).status,
    200,
  );
  assert.is((await b.call('GET', '/config/192.0.2.1/%26gmail')).json.paused, false);
  assert.is((await b.call('PUT', '/config/192.0.2.1/%26gmail/pause')).status, 200);
  assert.is((await a.call('GET', '/status/192.0.2.1/%26gmail')).json.status, 'PAUSED');
  assert.is((await a.call('DELETE', '/config/192.0.2.1')).status, 200);
  assert.is((await b.call('GET', '/config/192.0.2.1')).status, 404);
});

test('two concurrent POSTs of one IP on two hosts give exactly one 200 and one 400', async () => {
  for (let i = 0; i < 20; i++) {
    const ip = `198.51.100.${i}`;
    const body = { groupings: [] };
    const results = await Promise.all([a.call('POST', `/config/${ip}`, body), b.call('POST', `/config/${ip}`, body)]);
    assert.equal(results.map((r) => r.status).sort(), [200, 400], ip);
    assert.equal(results.find((r) => r.status === 400)!.json, { error: 'IP already exists' });
  }
});

test('concurrent pauses on two hosts lose no update when they hit different groupings of one IP', async () => {
  const names = Array.from({ length: 10 }, (_, i) => `&g${i}`);
  await a.call('POST', '/config/192.0.2.2', {
    groupings: names.map((n) => autoGrouping(n, ['2025-01-01', 1], ['2025-01-02', 2])),
  });
  const responses = await Promise.all(
    names.map((n, i) => (i % 2 ? a : b).call('PUT', `/config/192.0.2.2/${encodeURIComponent(n)}/pause`)),
  );
  assert.ok(responses.every((r) => r.status === 200));
  assert.equal(
    (await b.call('GET', '/config/192.0.2.2')).json.groupings.map((g: any) => g.paused),
    names.map(() => true),
  );
});

test.run();
