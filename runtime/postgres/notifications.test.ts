import pg from 'pg';
import * as assert from 'uvu/assert';
import { test } from '../../test/_deadline.ts';
import { DATABASE_URL, requirePostgres } from '../../test/_postgres.ts';
import { NotificationListener, type Logger, type Notification } from '../mod.ts';

await requirePostgres();

// Channel and connection name of this process alone: other test files listen and terminate backends concurrently
const CHANNEL = `h26_notify_${process.pid}`;
const APPLICATION = `h26-notify-test-${process.pid}`;
const warnings: string[] = [];
const log: Logger = { debug() {}, info() {}, warn: (message) => void warnings.push(message), error() {} };

async function sql(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

async function until(what: string, ready: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within 10 s`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

test('NotificationListener tells every listener of a notice, reports lost after a cut connection, and listens again', async () => {
  const listener = new NotificationListener({
    client: () => new pg.Client({ connectionString: DATABASE_URL, application_name: APPLICATION }),
    channel: CHANNEL,
    log,
    lostMessage: 'test listening connection lost',
  });
  const [a, b]: Notification[][] = [[], []];
  try {
    await listener.listen((n) => a.push(n));
    const stopB = await listener.listen((n) => b.push(n));
    await sql('SELECT pg_notify($1, $2)', [CHANNEL, 'one']);
    await until('the first notice', () => a.length === 1 && b.length === 1);
    assert.equal([a, b], [[{ payload: 'one' }], [{ payload: 'one' }]]);
    stopB();
    const { rows } = await sql(
      'SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE application_name = $1',
      [APPLICATION],
    );
    assert.equal(rows, [{ cut: true }], 'one listening connection');
    await until('the lost report', () => a.length === 2);
    assert.equal(a[1], { lost: true });
    assert.equal(warnings, ['test listening connection lost']);
    await sql('SELECT pg_notify($1, $2)', [CHANNEL, 'two']);
    await until('the notice after reconnecting', () => a.length === 3);
    assert.equal(a[2], { payload: 'two' });
    assert.is(b.length, 1, 'a removed listener hears nothing more');
  } finally {
    await listener.close();
  }
});

test.run();
