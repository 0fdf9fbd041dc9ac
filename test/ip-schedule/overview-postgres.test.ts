/**
 * `GET /v1/overview` on hosts sharing one PostgreSQL schema: each host's event counts and deliveries are every host's,
 * within a second, and a host started later (or restarted) reads back what the store still keeps
 */
import { randomUUID } from 'node:crypto';
import * as assert from 'uvu/assert';
import { test } from '../_deadline.ts';
import { DATABASE_URL, dropSchema, requirePostgres } from '../_postgres.ts';
import { autoGrouping, startScheduleHost, utcDate, type ScheduleHost } from './_host.ts';

const GMAIL_RATE =
  '421 4.7.28 [192.0.2.1] Our system has detected an unusual rate of unsolicited mail originating from your IP ' +
  'address. To protect our users from spam, mail sent from your IP address has been temporarily rate limited.';
const GMAIL = { localip: '192.0.2.1', remotemx: 'gmail-smtp-in.l.google.com', grouping: '&gmail' };
const schema = `t_overview_${randomUUID().replaceAll('-', '')}`;

const start = () =>
  startScheduleHost({
    plugins: [
      { id: 'schedule-store-postgres', config: { connectionString: DATABASE_URL, schema } },
      { id: 'bounce-classifier' },
    ],
    config: { store: 'schedule-store-postgres' },
  });

/**
 * Google's counts of the last hour summed per label, and today's deliveries of `&gmail` and its last day's hour by
 * hour summed, as `host` answers them
 */
async function seen(
  host: ScheduleHost,
): Promise<{ counts: Record<string, number>; delivered: number | null; hourly: number }> {
  const { json } = await host.call('GET', '/v1/overview');
  const google = json.bounces.hour.providers.find((p: { provider: string }) => p.provider === 'google');
  const counts: Record<string, number> = {};
  for (const [label, series] of Object.entries<number[]>(google?.counts ?? {}))
    counts[label] = series.reduce((a, b) => a + b, 0);
  const volume = json.volume.find((v: { grouping: string }) => v.grouping === '&gmail');
  const hourly = (volume?.hours?.delivered ?? []).reduce((a: number, b: number) => a + b, 0);
  return { counts, delivered: volume?.delivered ?? null, hourly };
}

async function until(host: ScheduleHost, want: unknown, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    last = await seen(host);
    if (JSON.stringify(last) === JSON.stringify(want)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  assert.equal(last, want, `${what} within ${ms} ms`);
}

test("each host's overview counts every host's events within a second, and a later host reads them back", async () => {
  await requirePostgres();
  let [a, b] = await Promise.all([start(), start()]);
  let c: ScheduleHost | undefined;
  try {
    const grouping = autoGrouping('&gmail', [utcDate(0), 100], [utcDate(9), 1000]);
    assert.is((await a.call('POST', '/config/192.0.2.1', { groupings: [grouping] })).status, 200);
    const reported = await a.call('POST', '/v1/backoff/events', {
      events: [
        { ...GMAIL, message: GMAIL_RATE },
        { ...GMAIL, message: GMAIL_RATE },
        ...Array.from({ length: 3 }, () => ({ ...GMAIL, outcome: 'delivered' })),
      ],
    });
    assert.is(reported.status, 200, reported.text);
    const rate = reported.json.events[0].class as string;
    const first = { counts: { [rate]: 2, delivered: 3 }, delivered: 3, hourly: 3 };
    await until(a, first, 1000, 'the reporting host');
    await until(b, first, 1000, "the other host's overview");

    // Reported to the other host, counted on both
    const more = await b.call('POST', '/v1/backoff/events', {
      events: [
        { ...GMAIL, message: GMAIL_RATE },
        { ...GMAIL, outcome: 'delivered' },
      ],
    });
    assert.is(more.status, 200, more.text);
    const both = { counts: { [rate]: 3, delivered: 4 }, delivered: 4, hourly: 4 };
    await until(a, both, 1000, 'the first host, after the second took events');
    await until(b, both, 1000, 'the second host');

    // A host started now, and the first one restarted, read back what the store keeps (the longest trigger window)
    await a.close();
    [a, c] = await Promise.all([start(), start()]);
    await until(a, both, 2000, 'the restarted host');
    await until(c, both, 2000, 'a host started later');
  } finally {
    await Promise.all([a.close(), b.close(), c?.close()]);
    await dropSchema(schema);
  }
});

test.run();
