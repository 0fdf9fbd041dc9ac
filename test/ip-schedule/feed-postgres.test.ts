/** Two hosts on one PostgreSQL schema, feed clients on both: a change through either reaches every client within a second */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { test } from '../_deadline.ts';
import * as assert from 'uvu/assert';
import { MtaClient } from './_mta-client.ts';
import { autoGrouping, startScheduleHost, utcDate, type ScheduleHost } from './_host.ts';
import { DATABASE_URL as URL, requirePostgres } from '../_postgres.ts';

await requirePostgres();
const schema = `t_${randomUUID().replaceAll('-', '')}`;
let a: ScheduleHost;
let b: ScheduleHost;
const clients: MtaClient[] = [];

const BUSY = '421 4.7.0 Too many connections from your IP, try again later';
// Every class the model may give BUSY applies at the first event, for 2 s
const BACKOFF = {
  policies: {
    CONCURRENCY_LIMIT: { threshold: 1, ttl: 2 },
    RATE_LIMIT__SERVER_BUSY: { threshold: 1, ttl: 2 },
    RATE_LIMIT__IP_RATE_LIMIT: { threshold: 1, ttl: 2 },
    RATE_LIMIT__GENERAL: { threshold: 1, ttl: 2 },
  },
};
const start = () =>
  startScheduleHost({
    plugins: [
      { id: 'schedule-store-postgres', config: { connectionString: URL, schema } },
      { id: 'bounce-classifier' },
    ],
    config: { store: 'schedule-store-postgres', backoff: BACKOFF },
  });
const running = (name: string, volume = 100) => autoGrouping(name, [utcDate(0), volume], [utcDate(9), 10_000]);

test.before(async () => {
  [a, b] = await Promise.all([start(), start()]);
  for (const host of [a, a, b, b]) clients.push(new MtaClient(host.feed));
  await Promise.all(clients.map((c) => c.start()));
});

test.after(async () => {
  await Promise.all(clients.map((c) => c.stop()));
  await Promise.all([a?.close(), b?.close()]);
  const client = new pg.Client(URL);
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

/** Makes a write through `host` and waits until every client of both hosts holds `ids`; answers the time it took */
async function everywhere(
  host: ScheduleHost,
  method: string,
  path: string,
  body: unknown,
  ready: (c: MtaClient) => boolean,
): Promise<number> {
  const started = performance.now();
  assert.is((await host.call(method, path, body)).status, 200);
  await Promise.all(clients.map((c) => c.until(() => ready(c), 1000, `${method} ${path} on ${c.address}`)));
  return performance.now() - started;
}

test('a change through one host reaches the feed clients of both hosts within a second', async () => {
  const id = 'warmup:192.0.2.1:&gmail';
  await everywhere(a, 'POST', '/config/192.0.2.1', { groupings: [running('&gmail')] }, (c) => c.policies.has(id));
  await everywhere(
    b,
    'PUT',
    '/config/192.0.2.1',
    { groupings: [running('&gmail', 200)] },
    (c) => (c.policies.get(id)?.then.rate as { count: number })?.count === 200,
  );
  await everywhere(
    b,
    'PUT',
    '/config/192.0.2.1/pause',
    undefined,
    (c) => c.suspends.has('warmup-hold:192.0.2.1') && !c.policies.has(id),
  );
  await everywhere(a, 'DELETE', '/config/192.0.2.1', undefined, (c) => c.suspends.size === 0 && c.policies.size === 0);
  for (const client of clients) assert.equal(client.errors, []);
});

test('both hosts answer GET /v1/policies with what their clients hold', async () => {
  for (let i = 0; i < 10; i++)
    await (i % 2 ? a : b).call('POST', `/config/10.0.0.${i}`, { groupings: [running('&gmail', i + 1)] });
  await Promise.all(clients.map((c) => c.until(() => c.policies.size === 10, 1000)));
  const [fromA, fromB] = await Promise.all([a.call('GET', '/v1/policies'), b.call('GET', '/v1/policies')]);
  assert.equal(fromA.json, fromB.json);
  for (const client of clients) assert.equal(client.state(), fromA.json);
});

test('a host whose listening connection to PostgreSQL is cut re-reads everything and misses no change', async () => {
  const admin = new pg.Client(URL);
  await admin.connect();
  // Cut every listening connection of this schema (one per host), then write through host a at once
  const { rowCount, rows } = await admin.query<{ cut: boolean }>(
    `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE application_name = 'capstan-schedule-store-watch' AND query LIKE $1`,
    [`LISTEN "capstan_ips_${schema}"%`],
  );
  await admin.end();
  assert.is(rowCount, 2, 'the listening connections of both hosts were found');
  assert.equal(
    rows.map((r) => r.cut),
    [true, true],
    'and terminated',
  );
  await a.call('POST', '/config/192.0.2.50', { groupings: [running('&gmail')] });
  const written = (c: MtaClient) => c.policies.has('warmup:192.0.2.50:&gmail');
  // Host b did not write: its clients get the change only through b's feed catching up with the store
  const ofB = clients.filter((c) => c.address === b.feed);
  assert.is(ofB.length, 2);
  await Promise.all(
    ofB.map((c) =>
      c.until(() => written(c), 3000, 'the write made through host a while listening was down, on host b'),
    ),
  );
  await Promise.all(clients.map((c) => c.until(() => written(c), 3000, 'the write made while listening was down')));
});

test('a backoff policy applied through one host reaches the clients of both, and lapses on both', async () => {
  const event = { message: BUSY, localip: '192.0.2.77', remoteip: '198.51.100.7', grouping: '&gmail' };
  const { json } = await b.call('POST', '/v1/backoff/events', { events: [event] });
  const [id] = json.events[0].policies;
  assert.type(id, 'string', `the class "${json.events[0].class}" applied a policy`);
  await Promise.all(
    clients.map((c) => c.until(() => c.policies.has(id) || c.suspends.has(id), 1000, 'the backoff policy')),
  );
  await Promise.all(clients.map((c) => c.until(() => !c.policies.has(id) && !c.suspends.has(id), 3500, 'its DELETE')));
  for (const client of clients) assert.equal(client.errors, []);
});

test.run();
