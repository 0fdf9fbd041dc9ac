/**
 * Table pages over PostgreSQL, whose change notices arrive after the write's answer: a page asked right after a
 * write on the same host shows it, and a write on another host sharing the database reaches the page within a second.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import * as assert from 'uvu/assert';
import { test } from '../_deadline.ts';
import { DATABASE_URL as URL, requirePostgres } from '../_postgres.ts';
import { autoGrouping, startScheduleHost, utcDate, type ScheduleHost } from './_host.ts';

await requirePostgres();
const schema = `h24a_${randomUUID().replaceAll('-', '')}`;
let a: ScheduleHost;
let b: ScheduleHost;

const start = () =>
  startScheduleHost({
    plugins: [{ id: 'schedule-store-postgres', config: { connectionString: URL, schema } }],
    config: { store: 'schedule-store-postgres' },
  });

test.before(async () => {
  a = await start();
  b = await start();
});

test.after(async () => {
  await Promise.all([a?.close(), b?.close()]);
  const client = new pg.Client(URL);
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

const statuses = async (host: ScheduleHost) =>
  (await host.call('GET', '/status?grouping=%26gmail')).json.rows.map((row: any) => `${row.ip} ${row.status}`);

test("a page right after a write on the same host shows it; another host's write shows within a second", async () => {
  const groupings = [autoGrouping('&gmail', [utcDate(-1), 10], [utcDate(9), 100])];
  for (const ip of ['192.0.2.1', '192.0.2.2'])
    assert.is((await a.call('POST', `/config/${ip}`, { groupings })).status, 200);
  assert.equal(await statuses(a), ['192.0.2.1 ONSCHEDULE', '192.0.2.2 ONSCHEDULE']);
  for (let i = 0; i < 10; i++) {
    const action = i % 2 === 0 ? 'pause' : 'resume';
    assert.is((await a.call('PUT', `/config/192.0.2.2/${action}`)).status, 200);
    assert.equal(
      await statuses(a),
      ['192.0.2.1 ONSCHEDULE', `192.0.2.2 ${i % 2 === 0 ? 'PAUSED' : 'ONSCHEDULE'}`],
      `after ${action} ${i}`,
    );
    const bulk = await a.call('POST', '/v1/schedules/bulk', { action: 'delete', targets: [{ ip: '192.0.2.1' }] });
    assert.equal((await a.call('GET', '/status?q=192.0.2.1')).json.total, 0, `after delete ${i}`);
    assert.is((await a.call('POST', '/v1/schedules/bulk', bulk.json.undo)).status, 200);
    assert.equal((await a.call('GET', '/status?q=192.0.2.1')).json.total, 1, `after restore ${i}`);
  }
  assert.is((await b.call('PUT', '/config/192.0.2.1/pause')).status, 200);
  const deadline = Date.now() + 1000;
  while ((await statuses(a))[0] !== '192.0.2.1 PAUSED') {
    assert.ok(Date.now() < deadline, "host B's write reaches host A's page within a second");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
});

test.run();
