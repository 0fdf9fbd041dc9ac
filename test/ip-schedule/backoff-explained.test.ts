/**
 * Providers, event times and outcomes, share triggers and explanations of `POST /v1/backoff/events`, through a host
 * on a real listener, its feed (a client that behaves as the MTA's) and `GET /v1/policies/{id}`. The host's clock is
 * the
 * test clock (`CAPSTAN_TEST_CLOCK`), so that events can be placed at known times before it
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MtaClient } from './_mta-client.ts';
import { startScheduleHost, withScheduleHost, type ScheduleHost } from './_host.ts';

const NOW = '2026-11-23T10:15:00Z';
const T0 = Date.parse(NOW);
const CLASSIFIER = { id: 'bounce-classifier' };
/** Gmail throttling an IP: a rule of the model decides RATE_LIMIT__IP_RATE_LIMIT (scoped by localip, grouping) */
const THROTTLED =
  '421-4.7.28 [192.0.2.1] Our system has detected an unusual rate of unsolicited mail originating from ' +
  'your IP address. To protect our users from spam, mail sent from your IP address has been ' +
  'temporarily rate limited. Please visit https://support.google.com/mail/?p=UnsolicitedRateLimitError ' +
  'to review our Bulk Email Senders Guidelines. For anna.k@gmail.com';
/** A block list naming the IP: INFRASTRUCTURE_BLOCK (scoped by jobid, grouping), in the reputation group */
const LISTED = '550 5.7.1 Service unavailable; Client host [192.0.2.1] blocked using zen.spamhaus.org';
const GMAIL = {
  localip: '192.0.2.1',
  remotemx: 'gmail-smtp-in.l.google.com',
  recipientdomain: 'gmail.com',
  grouping: '&gmail',
  jobid: 'j1',
  tenantid: 't1',
};
const RATE_ID = 'backoff:RATE_LIMIT__IP_RATE_LIMIT?localip=192.0.2.1&grouping=%26gmail';

/** A host on the test clock, with the classifier and `backoff` as the ip-schedule config's */
function host(
  backoff: Record<string, unknown> = {},
  env: Record<string, string> = { CAPSTAN_TEST_CLOCK: NOW },
): Promise<ScheduleHost> {
  return startScheduleHost({ plugins: [CLASSIFIER], config: { backoff }, env });
}

const iso = (ms: number) => new Date(ms).toISOString();
const post = (h: ScheduleHost, events: unknown[]) => h.call('POST', '/v1/backoff/events', { events });
const explained = (h: ScheduleHost, id: string) => h.call('GET', `/v1/policies/${encodeURIComponent(id)}`);

test('an event maps to its provider by MX, else recipient domain, else registrable domain; the policy carries it', async () => {
  const h = await host({
    policies: { RATE_LIMIT__IP_RATE_LIMIT: { threshold: 2 } },
    providers: { acme: { name: 'Acme Mail', mx: ['mx.acme.example'] } },
  });
  const client = new MtaClient(h.feed);
  try {
    await client.start();
    const { json } = await post(h, [
      { ...GMAIL, message: THROTTLED },
      { message: THROTTLED, localip: '192.0.2.9', grouping: '&x', recipientdomain: 'hotmail.co.uk' },
      { message: THROTTLED, localip: '192.0.2.9', grouping: '&x', remotemx: 'in.mx.acme.example' },
      { message: THROTTLED, localip: '192.0.2.9', grouping: '&y', remotemx: 'mx1.mail.example.co.uk' },
      { ...GMAIL, message: THROTTLED },
    ]);
    assert.equal(
      json.events.map((e: { provider: string }) => e.provider),
      ['google', 'microsoft', 'acme', 'example.co.uk', 'google'],
    );
    assert.equal(json.events[4].policies, [RATE_ID]);
    await client.until(() => client.policies.has(RATE_ID), 1000, 'the policy on the feed');
    assert.equal(client.policies.get(RATE_ID)!.then.properties, {
      provider: 'google',
      reason: 'RATE_LIMIT__IP_RATE_LIMIT: 2 in 60s (>= 2), 192.0.2.1 to google',
    });
    assert.equal(client.errors, []);
  } finally {
    await client.stop();
    await h.close();
  }
});

test('a provider row of config is validated at start', async () => {
  for (const providers of [
    { Acme: { mx: ['acme.example'] } },
    { acme: { mx: ['not a host'] } },
    { acme: { mx: [], colour: 'red' } },
  ]) {
    const started = await host({ providers }).then(
      (h) => h.close().then(() => true),
      () => false,
    );
    assert.is(started, false, JSON.stringify(providers));
  }
});

test('an event counts at its own time: RFC 3339 or epoch seconds; one too old for every window neither applies nor extends', async () => {
  const h = await host({ policies: { RATE_LIMIT__IP_RATE_LIMIT: { threshold: 3, window: 300 } } });
  try {
    const old = iso(T0 - 20 * 60_000);
    // Too old for every window (the longest is 15 min): three of them apply nothing
    const stale = await post(
      h,
      [1, 2, 3].map(() => ({ ...GMAIL, message: THROTTLED, time: old })),
    );
    assert.equal(
      stale.json.events.map((e: { policies: string[] }) => e.policies),
      [[], [], []],
    );
    // Two from four minutes ago (epoch seconds and RFC 3339 with an offset) and one now: within 300 s
    const { json } = await post(h, [
      { ...GMAIL, message: THROTTLED, time: (T0 - 240_000) / 1000 },
      { ...GMAIL, message: THROTTLED, time: '2026-11-23T11:11:00+01:00' },
      { ...GMAIL, message: THROTTLED },
    ]);
    assert.equal(json.events[2].policies, [RATE_ID]);
    const first = (await explained(h, RATE_ID)).json;
    assert.equal(
      [first.reason.first, first.reason.last, first.reason.level],
      [iso(T0 - 240_000), first.reason.last, 0],
    );
    assert.ok(Date.parse(first.reason.last) >= T0, "the last one at the host's time");
    // Three more too old for every window while the policy is in force: it is not escalated
    await post(
      h,
      [1, 2, 3].map(() => ({ ...GMAIL, message: THROTTLED, time: old })),
    );
    assert.equal((await explained(h, RATE_ID)).json, first, 'the same policy, level 0');
  } finally {
    await h.close();
  }
});

test('outcome: a delivered event needs no message and is no failure; without one the reply code decides', async () => {
  await withScheduleHost({ plugins: [CLASSIFIER], env: { CAPSTAN_TEST_CLOCK: NOW } }, async (h) => {
    const { status, json } = await post(h, [
      { ...GMAIL, outcome: 'delivered' },
      { ...GMAIL, message: '250 2.0.0 OK 1700000000 a1-20020a17090' },
      { ...GMAIL, message: THROTTLED },
      { ...GMAIL, message: LISTED },
      { ...GMAIL, message: LISTED, outcome: 'deferred' },
    ]);
    assert.is(status, 200);
    assert.equal(
      json.events.map((e: { outcome: string; class: string | null }) => [e.outcome, e.class]),
      [
        ['delivered', null],
        ['delivered', null],
        ['deferred', 'RATE_LIMIT__IP_RATE_LIMIT'],
        ['bounced', 'INFRASTRUCTURE_BLOCK'],
        ['deferred', 'INFRASTRUCTURE_BLOCK'],
      ],
    );
    for (const [event, error] of [
      [{ ...GMAIL, outcome: 'bounced' }, /Missing "message" in event "0"/],
      [{ ...GMAIL }, /Missing "message" in event "0"/],
      [{ ...GMAIL, message: 'x', time: 'yesterday' }, /Invalid "time" "yesterday" in event "0"/],
      [{ ...GMAIL, message: 'x', time: '2026-11-23' }, /Invalid "time"/],
      [{ ...GMAIL, message: 'x', outcome: 'lost' }, /outcome/],
    ] as const) {
      const refused = await post(h, [event]);
      assert.is(refused.status, 400, JSON.stringify(event));
      assert.match(refused.json.error, error);
    }
  });
});

test("share trigger: 5 % of at least 200 attempts from one IP to one provider within 15 min applies the reputation class's policy", async () => {
  const h = await host();
  const client = new MtaClient(h.feed);
  try {
    await client.start();
    // 190 deliveries and 9 listings over the last 12 minutes: 199 attempts, short of 200
    const times = (n: number, from: number) => Array.from({ length: n }, (_, i) => iso(T0 - from + i * 3000));
    const early = [
      ...times(190, 720_000).map((time) => ({ ...GMAIL, outcome: 'delivered', time })),
      ...times(9, 600_000).map((time) => ({ ...GMAIL, message: LISTED, time })),
    ];
    const quiet = await post(h, early);
    assert.equal(
      quiet.json.events.flatMap((e: { policies: string[] }) => e.policies),
      [],
    );
    // The same to yahoo counts apart: 10 listings of 10 attempts are short of 200
    const yahoo = await post(
      h,
      Array.from({ length: 10 }, () => ({ ...GMAIL, remotemx: 'mta5.am0.yahoodns.net', message: LISTED })),
    );
    assert.equal(
      yahoo.json.events.flatMap((e: { policies: string[] }) => e.policies),
      [],
    );
    // The 10th listing to google is the 200th attempt: 5 %
    const { json } = await post(h, [{ ...GMAIL, message: LISTED }]);
    const id = 'backoff:INFRASTRUCTURE_BLOCK?jobid=j1&grouping=%26gmail';
    assert.equal(json.events[0].policies, [id]);
    await client.until(() => client.suspends.has(id), 1000, 'the suspension on the feed');
    assert.equal(client.suspends.get(id)!.properties, {
      provider: 'google',
      reason: 'reputation: 5% of 200 attempts in 900s (>= 5% of >= 200), 192.0.2.1 to google',
    });
    const { reason } = (await explained(h, id)).json;
    assert.equal(reason.trigger, {
      kind: 'share',
      threshold: 0.05,
      window: 900,
      observed: 0.05,
      attempts: 200,
      minAttempts: 200,
      group: 'reputation',
    });
    assert.is(reason.events, 10);
    assert.equal(client.errors, []);
  } finally {
    await client.stop();
    await h.close();
  }
});

test('GET /v1/policies/{id}: the object as the feed sends it and its reason; 404 for an id not in force', async () => {
  const h = await host({ policies: { RATE_LIMIT__IP_RATE_LIMIT: { threshold: 2 } } });
  const client = new MtaClient(h.feed);
  try {
    await client.start();
    await post(h, [
      { ...GMAIL, message: THROTTLED, time: iso(T0 - 30_000) },
      { ...GMAIL, message: THROTTLED },
    ]);
    await client.until(() => client.policies.has(RATE_ID), 1000, 'the policy on the feed');
    const { status, json } = await explained(h, RATE_ID);
    assert.is(status, 200);
    assert.equal(json.policy, client.policies.get(RATE_ID), 'the policy exactly as the feed sent it');
    assert.equal(json.reason, {
      class: 'RATE_LIMIT__IP_RATE_LIMIT',
      provider: 'google',
      localip: '192.0.2.1',
      decidedBy: { rule: 'ip-reputation-temporary' },
      trigger: { kind: 'count', threshold: 2, window: 60, observed: 2 },
      events: 2,
      first: iso(T0 - 30_000),
      last: json.reason.last,
      sample: THROTTLED.replace('anna.k@', '***@'),
      level: 0,
    });
    const missing = await explained(h, 'backoff:RATE_LIMIT__GENERAL?localip=192.0.2.9&grouping=%26gmail');
    assert.is(missing.status, 404);
    assert.equal(missing.json, {
      error: 'Policy "backoff:RATE_LIMIT__GENERAL?localip=192.0.2.9&grouping=%26gmail" not found',
    });
    const metrics = await fetch(`${h.url}/metrics`).then((r) => r.text());
    assert.match(
      metrics,
      /capstan_backoff_applied_total\{class="RATE_LIMIT__IP_RATE_LIMIT",provider="google",plugin="ip-schedule"\} 1/,
    );
  } finally {
    await client.stop();
    await h.close();
  }
});

test("GET /v1/policies/{id}: decidedBy names the model's top features when no rule decided the class", async () => {
  // No rule of the model reads this reply: the trained model decides RATE_LIMIT__SERVER_BUSY
  const busy = '421 Server overloaded, please slow down your delivery to bob@example.org';
  const h = await host({ policies: { RATE_LIMIT__SERVER_BUSY: { threshold: 1 } } });
  try {
    const { json } = await post(h, [{ ...GMAIL, remoteip: '198.51.100.7', message: busy }]);
    const [id] = json.events[0].policies;
    assert.ok(id?.startsWith('backoff:RATE_LIMIT__SERVER_BUSY?'), `policy applied: ${id}`);
    const { decidedBy } = (await explained(h, id)).json.reason;
    assert.is(decidedBy.model, 'backoff');
    assert.ok(decidedBy.probability > 0 && decidedBy.probability <= 1);
    assert.ok(decidedBy.features.length >= 1 && decidedBy.features.length <= 5, JSON.stringify(decidedBy));
    assert.is(decidedBy.features[0].feature, 'overloaded', 'the word that carries the class weighs most');
    const weights = decidedBy.features.map((f: { weight: number }) => f.weight);
    assert.equal(
      weights,
      [...weights].sort((a, b) => b - a),
      'heaviest first',
    );
    assert.not.ok(JSON.stringify(decidedBy).includes('bob'), 'no address in the explanation');
  } finally {
    await h.close();
  }
});

test('metrics count a provider outside the table as "other"; a warm-up policy is answered without a reason', async () => {
  const h = await host({ policies: { RATE_LIMIT__IP_RATE_LIMIT: { threshold: 1 } } });
  try {
    await post(h, [{ message: THROTTLED, localip: '192.0.2.5', grouping: '&corp', remotemx: 'mx.corp-mail.example' }]);
    const metrics = await fetch(`${h.url}/metrics`).then((r) => r.text());
    assert.match(
      metrics,
      /capstan_backoff_applied_total\{class="RATE_LIMIT__IP_RATE_LIMIT",provider="other",plugin="ip-schedule"\} 1/,
    );
    assert.not.match(metrics, /corp-mail/);
    const today = iso(T0).slice(0, 10);
    await h.call('POST', '/config/192.0.2.7', {
      groupings: [
        {
          grouping: '&gmail',
          mode: 'AUTO',
          start: { date: today, volume: 100 },
          end: { date: '2027-06-01', volume: 1000 },
        },
      ],
    });
    const { json } = await explained(h, 'warmup:192.0.2.7:&gmail');
    assert.equal(Object.keys(json), ['policy']);
    assert.is(json.policy.type, 'WARMUP');
  } finally {
    await h.close();
  }
});

test('the test clock is refused in production', async () => {
  const started = await host({}, { CAPSTAN_TEST_CLOCK: NOW, NODE_ENV: 'production' }).then(
    (h) => h.close().then(() => true),
    () => false,
  );
  assert.is(started, false);
});

test.run();
