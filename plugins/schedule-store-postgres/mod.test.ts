import { randomUUID } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import pg from 'pg';
import { test } from '../../test/_deadline.ts';
import * as assert from 'uvu/assert';
import { usePlugin } from '../../runtime/mod.ts';
import type { ScheduleStore } from '../../runtime/mod.ts';
import { storeConformance, type StoreUnderTest } from 'capstan/conformance';
import { rejects } from '../../test/rejects.ts';
import { DATABASE_URL as URL, requirePostgres } from '../../test/_postgres.ts';

await requirePostgres();

/** Resolves once `ready()` holds, failing after 5 s */
async function waitFor(ready: () => boolean): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error('condition not met within 5 s');
    await new Promise((done) => setTimeout(done, 20));
  }
}
const schemas: string[] = [];

/** A store in a schema of its own, so concurrent test processes never meet */
async function open(
  schema = `t_${randomUUID().replaceAll('-', '')}`,
): Promise<{ schema: string; store: ScheduleStore; close(): Promise<void>; reopen(): Promise<StoreUnderTest> }> {
  schemas.push(schema);
  const plugin = await usePlugin<ScheduleStore>({
    id: 'schedule-store-postgres',
    config: { connectionString: URL, schema, poolSize: 4 },
  });
  return { schema, store: plugin.service, close: plugin.close, reopen: () => open(schema) };
}

storeConformance('schedule-store-postgres', () => open());

test('schedule-store-postgres migrates once when hosts start at the same moment', async () => {
  const schema = `t_${randomUUID().replaceAll('-', '')}`;
  const hosts = await Promise.all([open(schema), open(schema), open(schema)]);
  const version = await hosts[0]!.store.put('192.0.2.1', { groupings: [] }, { expected: null });
  assert.equal((await hosts[2]!.store.get('192.0.2.1'))?.version, version, 'another pool sees the write at once');
  await Promise.all(hosts.map((h) => h.close()));
  const client = new pg.Client(URL);
  await client.connect();
  const { rows } = await client.query(`SELECT version FROM "${schema}".schema_migrations`);
  await client.end();
  assert.equal(
    rows.map((r) => r.version),
    [1, 2, 3, 4, 5],
  );
});

test('schedule-store-postgres keeps writes when reopened', async () => {
  const first = await open();
  const version = await first.store.put('2001:db8::1', { groupings: [] }, { expected: null });
  await first.close();
  const second = await open(first.schema);
  assert.equal(await second.store.get('2001:db8::1'), { ip: '2001:db8::1', record: { groupings: [] }, version });
  await second.close();
});

test('schedule-store-postgres tells a watcher of the writes another store instance makes to the same schema', async () => {
  const a = await open();
  const b = await open(a.schema);
  try {
    const heard: unknown[] = [];
    const stop = await b.store.watch!((change) => heard.push(change));
    const version = await a.store.put('192.0.2.1', { groupings: [] }, { expected: null });
    await a.store.delete('192.0.2.1', { expected: version! });
    await waitFor(() => heard.length >= 2);
    assert.equal(heard, [{ ip: '192.0.2.1' }, { ip: '192.0.2.1' }]);
    stop();
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
});

test('schedule-store-postgres reconnects its listening connection when it is lost and asks for a full re-read', async () => {
  const { schema, store, close } = await open();
  const admin = new pg.Client(URL);
  await admin.connect();
  try {
    const heard: unknown[] = [];
    await store.watch!((change) => heard.push(change));
    const { rowCount } = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'capstan-schedule-store-watch' AND query LIKE $1`,
      [`LISTEN "capstan_ips_${schema}"%`],
    );
    assert.is(rowCount, 1, 'the listening connection was found');
    await waitFor(() => heard.some((c) => JSON.stringify(c) === '{"lost":true}'));
    await store.put('192.0.2.2', { groupings: [] }, { expected: null });
    await waitFor(() => heard.some((c) => JSON.stringify(c) === '{"ip":"192.0.2.2"}'));
  } finally {
    await admin.end();
    await close();
  }
});

test('schedule-store-postgres keeps applied policies when reopened', async () => {
  const first = await open();
  const policy = {
    id: 'backoff:a',
    kind: 'policy' as const,
    object: { id: 'backoff:a', type: 'BACKOFF' },
    expires: 1_900_000_000_000,
    level: 2,
  };
  await first.store.putPolicy!(policy);
  await first.close();
  const second = await open(first.schema);
  assert.equal(await second.store.listPolicies!(), [policy]);
  await second.close();
});

test('schedule-store-postgres is ready while the database answers, and names it when it stops answering', async () => {
  // A TCP relay in front of the database: closing it is the database going away, without touching the real one
  const target = new globalThis.URL(URL);
  const sockets = new Set<Socket>();
  const relay = createServer((inbound) => {
    const outbound = connect(Number(target.port || 5432), target.hostname);
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
    inbound.pipe(outbound).pipe(inbound);
  });
  await new Promise<void>((listening) => relay.listen(0, '127.0.0.1', listening));
  const port = (relay.address() as { port: number }).port;
  const via = new globalThis.URL(URL);
  via.host = `127.0.0.1:${port}`;
  const schema = `t_${randomUUID().replaceAll('-', '')}`;
  schemas.push(schema);
  const plugin = await usePlugin<ScheduleStore>({
    id: 'schedule-store-postgres',
    config: { connectionString: via.href, schema, poolSize: 2 },
  });
  try {
    await plugin.ready!();
    const closed = new Promise((done) => relay.close(done));
    for (const socket of sockets) socket.destroy();
    await closed;
    // Readiness answers from what it saw in the last second; past that it asks the database
    await new Promise((done) => setTimeout(done, 1100));
    await rejects(async () => plugin.ready!(), /^Database cannot be written: /, 'readiness with the database gone');
  } finally {
    await plugin.close().catch(() => undefined);
  }
});

test('schedule-store-postgres reads DATABASE_URL when config names no connection', async () => {
  const schema = `t_${randomUUID().replaceAll('-', '')}`;
  schemas.push(schema);
  // Port 1 refuses: only a store that took DATABASE_URL fails this way (the default would connect)
  const open = () =>
    usePlugin(
      { id: 'schedule-store-postgres', config: { schema } },
      { env: { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' } },
    );
  await rejects(open, /ECONNREFUSED 127\.0\.0\.1:1\b/, 'opening the store');
});

test('schedule-store-postgres refuses to start when neither config nor DATABASE_URL names a database', async () => {
  const error = await rejects(
    () => usePlugin({ id: 'schedule-store-postgres', config: {} }, { env: {} }),
    /set "connectionString" in its config or the environment variable "DATABASE_URL"/,
    'opening the store',
  );
  assert.is((error as { cause?: { code?: string } }).cause?.code, 'STORE_ERR_POSTGRES_NO_DATABASE');
});

test.after(async () => {
  const client = new pg.Client(URL);
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

test('schedule-store-postgres answers a host far behind 100 batches of counts at a time, saying there are more', async () => {
  const { store, close } = await open();
  try {
    const now = Date.now();
    for (let i = 0; i < 150; i++)
      await store.exchangeCounts!('b', { host: 'b', time: now, retainMs: 60_000, data: String(i) }, 0);
    const first = await store.exchangeCounts!('a', undefined, 0);
    assert.equal([first.batches.length, first.more, first.batches[0]!.data], [100, true, '0']);
    const rest = await store.exchangeCounts!('a', undefined, first.cursor);
    assert.equal([rest.batches.length, rest.more, rest.batches.at(-1)!.data], [50, false, '149']);
  } finally {
    await close();
  }
});

test('schedule-store-postgres answers an exchange of counts without waiting for the deletion of expired ones', async () => {
  const schema = `t_${randomUUID().replaceAll('-', '')}`;
  schemas.push(schema);
  const plugin = await usePlugin<ScheduleStore>({
    id: 'schedule-store-postgres',
    config: { connectionString: URL, schema, poolSize: 4, lockTimeout: 3 },
  });
  const admin = new pg.Client(URL);
  await admin.connect();
  try {
    // The claims locked: the deletion the exchange starts (its first, so due) waits for the lock, the exchange need not
    await admin.query(`BEGIN; LOCK TABLE "${schema}".backoff_claims IN ACCESS EXCLUSIVE MODE`);
    const started = performance.now();
    const batch = { host: 'a', time: Date.now(), retainMs: 60_000, data: '{}' };
    const answer = await plugin.service.exchangeCounts!('a', batch, 0);
    const ms = performance.now() - started;
    assert.equal(answer.batches, []);
    assert.ok(
      ms < 1500,
      `the exchange took ${Math.round(ms)} ms: it should not wait for the deletion (lock timeout 3 s)`,
    );
  } finally {
    await admin.query('ROLLBACK');
    await admin.end();
    await plugin.close();
  }
});

test.run();
