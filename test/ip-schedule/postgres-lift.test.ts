/**
 * A lift on one host reaches the feed of another sharing the PostgreSQL store within a second (its NOTIFY), and the
 * other host's counts forget the events that applied the lifted policy.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { test } from '../_deadline.ts';
import * as assert from 'uvu/assert';
import { MtaClient } from './_mta-client.ts';
import { startScheduleHost, type ScheduleHost } from './_host.ts';
import { DATABASE_URL as URL, requirePostgres } from '../_postgres.ts';

await requirePostgres();
const schema = `t_${randomUUID().replaceAll('-', '')}`;
const THROTTLED =
  '421-4.7.28 [192.0.2.1] Our system has detected an unusual rate of unsolicited mail originating from your IP ' +
  'address. To protect our users from spam, mail sent from your IP address has been temporarily rate limited.';
const GMAIL = { localip: '192.0.2.1', remotemx: 'gmail-smtp-in.l.google.com', grouping: '&gmail', message: THROTTLED };
const RATE_ID = 'backoff:RATE_LIMIT__IP_RATE_LIMIT?localip=192.0.2.1&grouping=%26gmail';
let a: ScheduleHost;
let b: ScheduleHost;

const start = () =>
  startScheduleHost({
    plugins: [
      { id: 'bounce-classifier' },
      { id: 'schedule-store-postgres', config: { connectionString: URL, schema } },
    ],
    config: {
      store: 'schedule-store-postgres',
      backoff: { policies: { RATE_LIMIT__IP_RATE_LIMIT: { threshold: 2 } } },
    },
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

test("a lift on host A reaches host B's feed within a second, and B's earlier events do not re-apply it", async () => {
  const client = new MtaClient(b.feed);
  try {
    await client.start();
    await b.call('POST', '/v1/backoff/events', { events: [GMAIL, GMAIL, GMAIL] });
    await client.until(() => client.policies.has(RATE_ID), 1000, "the policy on B's feed");
    await a.call('GET', '/v1/policies');
    const started = Date.now();
    const lifted = await a.call('DELETE', `/v1/policies/${encodeURIComponent(RATE_ID)}`);
    assert.equal([lifted.status, lifted.json], [200, { lifted: RATE_ID }]);
    await client.until(() => !client.policies.has(RATE_ID), 1000, "the DELETE on B's feed");
    assert.ok(Date.now() - started < 1000, `${Date.now() - started} ms`);
    // B counted one event past the one that applied it: one more would make 2 without the lift
    assert.equal((await b.call('POST', '/v1/backoff/events', { events: [GMAIL] })).json.events[0].policies, []);
    assert.equal(client.errors, []);
  } finally {
    await client.stop();
  }
});

test.run();
