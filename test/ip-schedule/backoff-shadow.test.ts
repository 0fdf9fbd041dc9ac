/**
 * Shadow mode (`backoff.shadow`): backoff events compute, store, audit and count policies, `GET /v1/policies` and
 * `GET /v1/policies/{id}` show them marked shadow, and the feed sends none of them; through a host on a real listener,
 * a feed client that behaves as the MTA's, the audit trail and `/metrics`; on the test clock
 */
import { createHash } from 'node:crypto';
import { test } from '../_deadline.ts';
import * as assert from 'uvu/assert';
import { MtaClient } from './_mta-client.ts';
import { startScheduleHost, type ScheduleHost } from './_host.ts';

const KEY = 'shadow-test-key';
const AUTH = { 'x-api-key': KEY };
const PRINCIPAL = `key:${createHash('sha256').update(KEY).digest('hex').slice(0, 12)}`;
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
/** A warm-up written after the shadow policy: once the client holds it, it would hold the shadow policy too had it been sent */
const WARMUP = {
  grouping: '&gmail',
  mode: 'MANUAL',
  start: { date: '2026-11-23' },
  schedule: [{ day: 1, messages: 100 }],
};

async function withHost(shadow: boolean, body: (h: ScheduleHost, client: MtaClient) => Promise<void>): Promise<void> {
  const h = await startScheduleHost({
    plugins: [{ id: 'bounce-classifier' }],
    config: {
      authentication: { apikeys: [KEY] },
      backoff: { shadow, recovery: { step: 1 }, policies: { RATE_LIMIT__IP_RATE_LIMIT: { threshold: 2, ttl: 600 } } },
    },
    env: { CAPSTAN_TEST_CLOCK: '2026-11-23T10:15:00Z' },
  });
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

const post = (h: ScheduleHost, events: unknown[]) => h.call('POST', '/v1/backoff/events', { events }, AUTH);

test('shadow: the policy is stored, shown marked shadow, audited and counted, and the feed sends none of it', async () => {
  await withHost(true, async (h, client) => {
    const { json } = await post(h, [GMAIL, GMAIL]);
    assert.equal(json.events[1].policies, [RATE_ID], 'the engine applied it');
    const one = await h.call('GET', PATH, undefined, AUTH);
    assert.is(one.status, 200);
    assert.is(one.json.shadow, true);
    assert.is(one.json.reason.shadow, true);
    assert.is(one.json.policy.id, RATE_ID);
    const all = (await h.call('GET', '/v1/policies', undefined, AUTH)).json;
    assert.equal([all.policies, all.suspends], [[], []], 'nothing an MTA polling here would enforce');
    assert.equal(
      all.shadow.policies.map((p: { id: string }) => p.id),
      [RATE_ID],
    );
    // Escalated in shadow too: the engine reads what is in force, shadow or not
    await post(h, [GMAIL, GMAIL]);
    const escalated = (await h.call('GET', PATH, undefined, AUTH)).json;
    assert.equal([escalated.reason.level, escalated.shadow, escalated.policy.ttl], [1, true, 1200]);
    const audit = (await h.call('GET', `/v1/audit?policy=${encodeURIComponent(RATE_ID)}`, undefined, AUTH)).json
      .entries;
    assert.equal(audit.map((e: any) => [e.action, e.principal, e.after.reason.shadow]).reverse(), [
      ['policy.apply', PRINCIPAL, true],
      ['policy.escalate', PRINCIPAL, true],
    ]);
    const metrics = await fetch(`${h.url}/metrics`, { headers: AUTH }).then((r) => r.text());
    assert.match(
      metrics,
      /capstan_backoff_shadow_applied_total\{class="RATE_LIMIT__IP_RATE_LIMIT",provider="google",plugin="ip-schedule"\} 2/,
    );
    assert.not.match(metrics, /capstan_backoff_applied_total\{class="RATE_LIMIT__IP_RATE_LIMIT"/);
    // A later write reaches the client: the shadow policy, written before it, would have too
    assert.is((await h.call('POST', '/config/192.0.2.1', { groupings: [WARMUP] }, AUTH)).status, 200);
    await client.until(() => client.policies.has('warmup:192.0.2.1:&gmail'), 2000, 'the warm-up policy');
    assert.equal([...client.policies.keys()], ['warmup:192.0.2.1:&gmail']);
    assert.equal(
      client.frames.filter((f) => f.policy?.id === RATE_ID),
      [],
    );
    // A client connecting now gets the replay: without it either
    const late = new MtaClient(`${h.feed}?api_key=${KEY}`);
    try {
      await late.start();
      assert.equal([...late.policies.keys()], ['warmup:192.0.2.1:&gmail']);
    } finally {
      await late.stop();
    }
  });
});

test('without shadow the same events send the policy on the feed, unmarked', async () => {
  await withHost(false, async (h, client) => {
    await post(h, [GMAIL, GMAIL]);
    await client.until(() => client.policies.has(RATE_ID), 2000, 'the policy on the feed');
    const one = (await h.call('GET', PATH, undefined, AUTH)).json;
    assert.equal([one.shadow, one.reason.shadow], [undefined, undefined]);
    assert.is((await h.call('GET', '/v1/policies', undefined, AUTH)).json.shadow, undefined);
  });
});

test('a shadow policy can be lifted: audited, and still nothing on the feed', async () => {
  await withHost(true, async (h, client) => {
    await post(h, [GMAIL, GMAIL]);
    assert.equal((await h.call('DELETE', PATH, undefined, AUTH)).json, { lifted: RATE_ID });
    assert.is((await h.call('GET', PATH, undefined, AUTH)).status, 404);
    const [lift] = (await h.call('GET', '/v1/audit?action=policy.lift', undefined, AUTH)).json.entries;
    assert.is(lift.before.reason.shadow, true);
    assert.equal(
      client.frames.filter((f) => f.policy?.id === RATE_ID),
      [],
    );
  });
});

test.run();
