/**
 * Lifting (`DELETE /v1/policies/{id}`), amending (`PATCH`) and the gradual recovery of backoff policies, through a
 * host on a real listener, its feed (a client that behaves as the MTA's) and the audit trail; on the test clock
 * (`CAPSTAN_TEST_CLOCK`), which runs on in real time from a known start.
 */
import { createHash } from 'node:crypto';
import { test } from '../_deadline.ts';
import * as assert from 'uvu/assert';
import { MtaClient, type Frame } from './_mta-client.ts';
import { autoGrouping, startScheduleHost, type ScheduleHost } from './_host.ts';

const KEY = 'lift-test-key';
const PRINCIPAL = `key:${createHash('sha256').update(KEY).digest('hex').slice(0, 12)}`;
const AUTH = { 'x-api-key': KEY };
const THROTTLED =
  '421-4.7.28 [192.0.2.1] Our system has detected an unusual rate of unsolicited mail originating from your IP ' +
  'address. To protect our users from spam, mail sent from your IP address has been temporarily rate limited.';
const GMAIL = {
  localip: '192.0.2.1',
  remotemx: 'gmail-smtp-in.l.google.com',
  recipientdomain: 'gmail.com',
  grouping: '&gmail',
  message: THROTTLED,
};
const RATE_ID = 'backoff:RATE_LIMIT__IP_RATE_LIMIT?localip=192.0.2.1&grouping=%26gmail';
const PATH = `/v1/policies/${encodeURIComponent(RATE_ID)}`;

function host(backoff: Record<string, unknown>): Promise<ScheduleHost> {
  return startScheduleHost({
    plugins: [{ id: 'bounce-classifier' }],
    config: {
      authentication: { apikeys: [KEY] },
      backoff: {
        policies: { RATE_LIMIT__IP_RATE_LIMIT: { threshold: 2, rate: { count: 60, interval: 60 } } },
        ...backoff,
      },
    },
    env: { CAPSTAN_TEST_CLOCK: '2026-11-23T10:15:00Z' },
  });
}

const post = (h: ScheduleHost, events: unknown[]) => h.call('POST', '/v1/backoff/events', { events }, AUTH);
/** The frames the client got for `id`, as `[action, rate count, ttl]` */
const framesOf = (client: MtaClient, id: string) =>
  client.frames
    .filter((f: Frame) => f.policy?.id === id)
    .map((f) => [
      f.action,
      (f.policy!.then.rate as { count?: number } | undefined)?.count,
      (f.policy as { ttl?: number }).ttl,
    ]);

async function withHost(
  backoff: Record<string, unknown>,
  body: (h: ScheduleHost, client: MtaClient) => Promise<void>,
): Promise<void> {
  const h = await host(backoff);
  const client = new MtaClient(`${h.feed}?api_key=${KEY}`);
  try {
    await client.start();
    await body(h, client);
    assert.equal(client.errors, []);
  } finally {
    await client.stop();
    await h.close();
  }
}

test('a lift sends DELETE at once, is audited with the key, and only events after it apply the policy again', async () => {
  await withHost({}, async (h, client) => {
    assert.equal((await post(h, [GMAIL, GMAIL])).json.events[1].policies, [RATE_ID]);
    await client.until(() => client.policies.has(RATE_ID), 1000, 'the policy on the feed');
    // One event toward the next escalation before the lift: with one after it, it would make the threshold of 2
    await post(h, [GMAIL]);
    // On the host's clock (the test clock): when the events before the lift were counted
    const counted = (await h.call('GET', PATH, undefined, AUTH)).json.reason.last as string;
    const before = Date.now();
    const lifted = await h.call('DELETE', PATH, undefined, AUTH);
    assert.equal([lifted.status, lifted.json], [200, { lifted: RATE_ID }]);
    await client.until(() => !client.policies.has(RATE_ID), 1000, 'the DELETE on the feed within a second');
    assert.ok(Date.now() - before < 1000);
    assert.equal(framesOf(client, RATE_ID).at(-1)![0], 'DELETE');
    assert.is((await h.call('GET', PATH, undefined, AUTH)).status, 404);
    const audit = (await h.call('GET', `/v1/audit?action=policy.lift`, undefined, AUTH)).json.entries;
    assert.equal(
      audit.map((e: any) => [e.subject.policy, e.principal, e.before.id, e.after]),
      [[RATE_ID, PRINCIPAL, RATE_ID, null]],
    );
    // The event before the lift and a late report of another from before it do not count
    const late = { ...GMAIL, time: counted };
    assert.equal(
      (await post(h, [GMAIL, late])).json.events.map((e: any) => e.policies),
      [[], []],
      'not applied again by events before the lift',
    );
    assert.equal(
      (await post(h, [GMAIL])).json.events[0].policies,
      [RATE_ID],
      'two events after the lift apply it again',
    );
    assert.is((await h.call('GET', PATH, undefined, AUTH)).json.reason.level, 0);
    assert.is((await h.call('DELETE', '/v1/policies/backoff%3Anothing', undefined, AUTH)).status, 404);
  });
});

test('PATCH changes the TTL and the rate: an UPDATE on the feed, audited with before and after; 400, 404 and 409', async () => {
  await withHost({}, async (h, client) => {
    await post(h, [GMAIL, GMAIL]);
    await client.until(() => client.policies.has(RATE_ID), 1000, 'the policy on the feed');
    const amended = await h.call('PATCH', PATH, { ttl: 900, rate: { count: 10, interval: 60 } }, AUTH);
    assert.is(amended.status, 200, amended.text);
    assert.equal(
      [amended.json.policy.ttl, amended.json.policy.then.rate],
      [900, { count: 10, interval: 60, algorithm: 'TOKENBUCKET' }],
    );
    await client.until(
      () => (client.policies.get(RATE_ID)?.then.rate as { count?: number } | undefined)?.count === 10,
      1000,
      'the UPDATE',
    );
    assert.equal(framesOf(client, RATE_ID).slice(-2), [
      ['CREATE', 60, 600],
      ['UPDATE', 10, 900],
    ]);
    await h.call('PATCH', PATH, { rate: { count: 20, interval: 30, algorithm: 'FIXEDWINDOW' } }, AUTH);
    await client.until(
      () => (client.policies.get(RATE_ID)?.then.rate as { count?: number } | undefined)?.count === 20,
      1000,
      'a rate alone changes it too',
    );
    const [entry] = (await h.call('GET', '/v1/audit?action=policy.amend&limit=1', undefined, AUTH)).json.entries;
    assert.equal(
      [entry.principal, entry.before.object.then.rate.count, entry.after.object.then.rate.count],
      [PRINCIPAL, 10, 20],
    );
    for (const bad of [{}, { ttl: 0 }, { rate: { count: 0, interval: 60 } }, { ttl: 10, colour: 'red' }]) {
      assert.is((await h.call('PATCH', PATH, bad, AUTH)).status, 400, JSON.stringify(bad));
    }
    assert.is((await h.call('PATCH', '/v1/policies/backoff%3Anothing', { ttl: 5 }, AUTH)).status, 404);
    assert.is(
      (
        await h.call(
          'POST',
          '/config/192.0.2.7',
          { groupings: [autoGrouping('&gmail', ['2026-11-20', 10], ['2026-12-01', 100])] },
          AUTH,
        )
      ).status,
      200,
    );
    const warmup = encodeURIComponent('warmup:192.0.2.7:&gmail');
    for (const [method, body] of [
      ['DELETE', undefined],
      ['PATCH', { ttl: 5 }],
    ] as const) {
      const { status, json } = await h.call(method, `/v1/policies/${warmup}`, body, AUTH);
      assert.equal(
        [status, json.error],
        [
          409,
          'Policy "warmup:192.0.2.7:&gmail" follows its warm-up schedule: change the schedule of IP "192.0.2.7" through the schedule API (/config/{ip}, /pause, /resume)',
        ],
        method,
      );
    }
  });
});

/**
 * The frames of the rate policy two `event`s apply, amended by `patch` (a TTL of 1 s, so that it lapses now) and left
 * to step back until it is deleted
 */
async function lapsed(h: ScheduleHost, client: MtaClient, event: typeof GMAIL, patch: object) {
  const id = RATE_ID.replace('192.0.2.1', event.localip);
  await post(h, [event, event]);
  await client.until(() => client.policies.has(id), 1000, 'the policy on the feed');
  assert.is((await h.call('PATCH', `/v1/policies/${encodeURIComponent(id)}`, patch, AUTH)).status, 200);
  await client.until(() => !client.policies.has(id), 6000, 'the DELETE after the steps');
  return framesOf(client, id);
}

test('a rate policy that lapses steps back up, doubling its rate each step (UPDATEs), then is deleted', async () => {
  await withHost({ recovery: { step: 1 } }, async (h, client) => {
    assert.equal(await lapsed(h, client, GMAIL, { ttl: 1, rate: { count: 15, interval: 60 } }), [
      ['CREATE', 60, 600],
      ['UPDATE', 15, 1],
      ['UPDATE', 30, 1],
      ['UPDATE', 60, 1],
      ['DELETE', 60, 1],
    ]);
    const steps = (await h.call('GET', '/v1/audit?action=policy.recover', undefined, AUTH)).json.entries;
    assert.equal(steps.map((e: any) => [e.principal, e.after.object.then.rate.count]).reverse(), [
      ['system', 30],
      ['system', 60],
    ]);
  });
});

test('a level-0 policy on a grouping that warms up steps back up to its scheduled rate, then is deleted', async () => {
  await withHost({ recovery: { step: 1 } }, async (h, client) => {
    // 345,600 a day is 240 a minute: above the class's 60 a minute, where recovery alone would stop
    const warming = autoGrouping('&gmail', ['2026-11-20', 345_600], ['2026-12-20', 345_600]);
    assert.is((await h.call('POST', '/config/192.0.2.1', { groupings: [warming] }, AUTH)).status, 200);
    assert.equal(await lapsed(h, client, GMAIL, { ttl: 1 }), [
      ['CREATE', 60, 600],
      ['UPDATE', 60, 1],
      ['UPDATE', 120, 1],
      ['UPDATE', 240, 1],
      ['DELETE', 240, 1],
    ]);
    // Without a warm-up a policy at its class's rate is there already when it lapses: deleted at once
    assert.equal(await lapsed(h, client, { ...GMAIL, localip: '192.0.2.9' }, { ttl: 1 }), [
      ['CREATE', 60, 600],
      ['UPDATE', 60, 1],
      ['DELETE', 60, 1],
    ]);
  });
});

test.run();
