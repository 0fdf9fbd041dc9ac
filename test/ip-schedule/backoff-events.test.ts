/** `POST /v1/backoff/events` through a host with the bounce-classifier, and what it applies on the feed */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MtaClient } from './_mta-client.ts';
import { startScheduleHost, withScheduleHost, type ScheduleHost } from './_host.ts';

/** The class the model gives BUSY and its fields, learnt once from /v1/backoff */
let busy: { class: string; fields: string[]; actions: string[] };
const folders: string[] = [];

test.before(async () => {
  await withScheduleHost({ plugins: [{ id: 'bounce-classifier' }] }, async (host) => {
    busy = await classOf(host, BUSY);
  });
});

test.after(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** A host with the classifier and `policies` as the backoff table, in `folder` (a new one by default) */
async function configured(policies: Record<string, unknown>, folder?: string): Promise<ScheduleHost> {
  if (!folder) folders.push((folder = await mkdtemp(join(tmpdir(), 'capstan-backoff-'))));
  return startScheduleHost({
    folder,
    plugins: [{ id: 'bounce-classifier' }],
    config: { backoff: { policies, recovery: { enabled: false } } },
  });
}

const BUSY = '421 4.7.0 Too many connections from your IP, try again later';
const CLASSIFIER = { id: 'bounce-classifier' };
const MESSAGES = [
  BUSY,
  '550 5.1.1 <a@example.com>: Recipient address rejected: User unknown in virtual mailbox table',
  '452 4.2.2 The email account that you tried to reach is over quota',
  '554 5.7.1 Message rejected as spam by Content Filtering',
];

/** The class `/v1/backoff` answers for `message`, and the fields the class is scoped by */
async function classOf(
  host: ScheduleHost,
  message: string,
): Promise<{ class: string; fields: string[]; actions: string[] }> {
  const { json } = await host.call('POST', '/v1/backoff', { messages: [message] });
  return json[0];
}

/** An event of `message` carrying every context field */
const event = (message: string, localip = '192.0.2.1') => ({
  message,
  localip,
  remoteip: '198.51.100.7',
  remotemx: 'mx.example.com',
  recipientdomain: 'example.com',
  grouping: '&gmail',
  tenantid: 't1',
  jobid: 'j1',
  transportid: 'mx',
});

test("each event is answered in input order with the class /v1/backoff gives its reply, through the classifier's cache", async () => {
  await withScheduleHost({ plugins: [CLASSIFIER] }, async (host) => {
    const expected = await Promise.all(MESSAGES.map((m) => classOf(host, m)));
    const before = (await host.call('GET', '/v1/cache/stats')).json;
    const { status, json } = await host.call('POST', '/v1/backoff/events', { events: MESSAGES.map((m) => event(m)) });
    assert.is(status, 200);
    assert.equal(
      json.events.map((e: { class: string; fields: string[]; actions: string[] }) => ({
        class: e.class,
        fields: e.fields,
        actions: e.actions,
      })),
      expected,
    );
    const after = (await host.call('GET', '/v1/cache/stats')).json;
    assert.is(
      after.hit_requests - before.hit_requests,
      MESSAGES.length,
      'every reply was answered by the cache /v1/backoff filled',
    );
  });
});

test("the event reaching a class's threshold applies its policy: named in the answer, sent on the feed, in GET /v1/policies", async () => {
  {
    const { class: cls, fields } = busy;
    const host = await configured({ [cls]: { threshold: 3, ttl: 600 } });
    const client = new MtaClient(host.feed);
    try {
      await client.start();
      const { json } = await host.call('POST', '/v1/backoff/events', {
        events: [event(BUSY), event(BUSY, '192.0.2.2'), event(BUSY), event(BUSY)],
      });
      const id = `backoff:${cls}?${fields.map((f) => `${f}=${encodeURIComponent(event(BUSY)[f as 'localip'])}`).join('&')}`;
      assert.equal(
        json.events.map((e: { policies: string[] }) => e.policies),
        [[], [], [], [id]],
        'the third event of 192.0.2.1',
      );
      const policies = (await host.call('GET', '/v1/policies')).json;
      const applied = [...policies.policies, ...policies.suspends].find((p: { id: string }) => p.id === id);
      assert.ok(applied, 'in GET /v1/policies at once');
      assert.is(applied.type, 'BACKOFF');
      assert.is(applied.ttl, 600);
      await client.until(() => client.policies.has(id) || client.suspends.has(id), 1000, 'the policy on the feed');
      assert.equal(client.state(), policies);
      assert.equal(client.errors, []);
    } finally {
      await client.stop();
      await host.close();
    }
  }
});

test('events that continue escalate the policy (UPDATE, TTL doubled), and it lapses with a DELETE', async () => {
  const host = await configured({ [busy.class]: { threshold: 2, ttl: 2, maxTtl: 10, concurrency: 8 } });
  const client = new MtaClient(host.feed);
  try {
    await client.start();
    const post = () => host.call('POST', '/v1/backoff/events', { events: [event(BUSY), event(BUSY)] });
    const [id] = (await post()).json.events[1].policies;
    await client.until(() => client.policies.has(id), 1000);
    assert.equal([client.policies.get(id)!.ttl, client.policies.get(id)!.then.concurrency], [2, 8]);
    await post();
    await client.until(() => client.policies.get(id)?.ttl === 4, 1000, 'the escalated policy');
    assert.is(client.policies.get(id)!.then.concurrency, 4);
    assert.ok(
      client.frames.some((f) => f.action === 'UPDATE' && f.policy?.id === id),
      'escalation is an UPDATE',
    );
    await client.until(() => !client.policies.has(id), 5000, 'the DELETE when it lapses');
    assert.equal((await host.call('GET', '/v1/policies')).json, { policies: [], suspends: [] });
    assert.equal(client.errors, []);
  } finally {
    await client.stop();
    await host.close();
  }
});

test('the rest of the batch that applied a policy does not escalate it: those attempts came before the MTA could obey', async () => {
  const host = await configured({ [busy.class]: { threshold: 3, ttl: 600 } });
  try {
    const post = (n: number) =>
      host.call('POST', '/v1/backoff/events', { events: Array.from({ length: n }, () => event(BUSY)) });
    const named = (await post(30)).json.events.flatMap((e: { policies: string[] }, i: number) =>
      e.policies.length > 0 ? [i] : [],
    );
    assert.equal(named, [2], 'applied by the third event, and by none of the 27 after it');
    const ttl = async () => {
      const { policies, suspends } = (await host.call('GET', '/v1/policies')).json;
      return [...policies, ...suspends].map((p: { ttl: number }) => p.ttl);
    };
    assert.equal(await ttl(), [600], 'level 0');
    // Attempts reported from after it applied: the policy did not stop them, so it escalates
    await new Promise((resolve) => setTimeout(resolve, 5));
    await post(3);
    assert.equal(await ttl(), [1200], 'escalated once');
  } finally {
    await host.close();
  }
});

test('applied policies survive a restart, and one that lapsed while the host was down is gone', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'capstan-backoff-'));
  folders.push(folder);
  const table = (ttl: number) => ({ [busy.class]: { threshold: 1, ttl, concurrency: 1 } });
  const first = await configured(table(600), folder);
  await first.call('POST', '/v1/backoff/events', { events: [event(BUSY)] });
  const held = (await first.call('GET', '/v1/policies')).json;
  await first.close();
  const second = await configured(table(1), folder);
  try {
    assert.equal((await second.call('GET', '/v1/policies')).json, held, 'the same policy after the restart');
    const applied = await second.call('POST', '/v1/backoff/events', { events: [event(BUSY, '192.0.2.9')] });
    assert.is(applied.json.events[0].policies.length, 1, 'the second host applied a policy of 1 s');
    assert.is(
      (await second.call('GET', '/v1/policies')).json.policies.length,
      held.policies.length + 1,
      'and holds it beside the first',
    );
  } finally {
    await second.close();
  }
  await new Promise((done) => setTimeout(done, 1100));
  const third = await configured(table(1), folder);
  try {
    assert.equal((await third.call('GET', '/v1/policies')).json, held, 'the one of 1 s lapsed while no host ran');
  } finally {
    await third.close();
  }
});

test('without the bounce-classifier plugin the endpoint answers 501 naming it', async () => {
  await withScheduleHost({}, async (host) => {
    const { status, json } = await host.call('POST', '/v1/backoff/events', { events: [{ message: BUSY }] });
    assert.is(status, 501);
    assert.match(json.error, /add the "bounce-classifier" plugin/);
  });
});

test('a malformed batch is refused whole with 400 and applies nothing', async () => {
  await withScheduleHost({ plugins: [CLASSIFIER] }, async (host) => {
    for (const body of [{}, { events: [{}] }, { events: [{ message: 1 }] }, { events: [{ message: 'x', port: 25 }] }]) {
      assert.is((await host.call('POST', '/v1/backoff/events', body)).status, 400, JSON.stringify(body));
    }
  });
});

test.run();
