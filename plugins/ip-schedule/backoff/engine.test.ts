import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AppliedPolicy } from '../../../runtime/mod.ts';
import {
  BackoffEngine,
  backoffId,
  maskAddresses,
  MAX_EXPLAINED,
  MAX_KEYS,
  type BackoffEvent,
  type Trigger,
} from './engine.ts';
import { Providers } from './providers.ts';
import { policyTable, shareTriggers, type ShareTrigger } from './table.ts';

const T0 = Date.parse('2025-03-10T12:00:00Z');
const table = policyTable({
  policies: {
    RATE_LIMIT__IP_RATE_LIMIT: { threshold: 3, window: 10, ttl: 100, maxTtl: 350, rate: { count: 40, interval: 60 } },
    CONTENT_REJECTED_SPAM: { threshold: 2 },
  },
});
/** An event without a time: `record` below gives it the time it is recorded at */
type Event = Omit<BackoffEvent, 'time' | 'outcome'> & Partial<Pick<BackoffEvent, 'time' | 'outcome'>>;
const busy: Event = { message: 'x', localip: '192.0.2.1', grouping: '&gmail', remoteip: '198.51.100.1' };
const ID = backoffId('RATE_LIMIT__IP_RATE_LIMIT', ['localip', 'grouping'], ['192.0.2.1', '&gmail']);
const providers = new Providers();

/** An engine without share triggers (unless given), whose `record` takes events without times: they happen at `now` */
function engine(inForce: (id: string) => AppliedPolicy | undefined = () => undefined, shares: ShareTrigger[] = []) {
  const inner = new BackoffEngine(table, { providers, shares, inForce });
  return {
    get counting() {
      return inner.counting;
    },
    record: (events: readonly Event[], classes: readonly (string | null)[], now: number) =>
      inner.record(
        events.map((event) => ({ outcome: 'deferred' as const, time: now, ...event })),
        classes,
        now,
      ),
  };
}
const rate = (n: number) => Array.from({ length: n }, () => 'RATE_LIMIT__IP_RATE_LIMIT');

test('shared counts: a host counts what another counted, and of two firing from the same counts the loser gives its counts back', () => {
  const host = () => new BackoffEngine(table, { providers, shares: [], inForce: () => undefined, cluster: true });
  const [a, b] = [host(), host()];
  const at = (n: number, now: number) =>
    Array.from({ length: n }, () => ({ ...busy, outcome: 'deferred' as const, time: now }));
  // Two events on A, handed to B: B's third applies the policy (threshold 3), as one host's would
  assert.equal(a.record(at(2, T0), rate(2), T0).firings, []);
  b.mergeCounts(a.takeCounts()!);
  assert.is(a.takeCounts(), undefined, 'sent once');
  const fired = b.record(at(1, T0 + 1), rate(1), T0 + 1);
  assert.equal(fired.answers[0]!.policies, [ID]);
  assert.equal(
    fired.firings.map((f) => [f.id, f.key, f.since]),
    [[ID, `${ID}#0`, 0]],
  );
  // B wins the claim: its reset reaches A, whose two events no longer count
  b.settle(fired.firings, new Set([`${ID}#0`]));
  a.mergeCounts(b.takeCounts()!);
  assert.equal(a.record(at(2, T0 + 2), rate(2), T0 + 2).firings, [], 'two fresh events: under the threshold');

  // Both hosts fire from the same counts; A loses its claim and counts its events again, then takes B's reset
  const [c, d] = [host(), host()];
  c.record(at(2, T0), rate(2), T0);
  d.mergeCounts(c.takeCounts()!);
  c.mergeCounts(d.takeCounts() ?? { c: [], r: [] });
  const onC = c.record(at(1, T0 + 1), rate(1), T0 + 1);
  const onD = d.record(at(1, T0 + 1), rate(1), T0 + 1);
  c.settle(onC.firings, new Set());
  d.settle(onD.firings, new Set([`${ID}#0`]));
  assert.equal(
    c.record(at(1, T0 + 2), rate(1), T0 + 2).firings.length,
    1,
    'given back: its 3 events and this one reach 3 again',
  );
});

test('shared counts: a reset from another host keeps what this host counted after it and sent with the same exchange', () => {
  const host = () => new BackoffEngine(table, { providers, shares: [], inForce: () => undefined, cluster: true });
  const [a, b] = [host(), host()];
  const at = (n: number, now: number) =>
    Array.from({ length: n }, () => ({ ...busy, outcome: 'deferred' as const, time: now }));
  const fired = b.record(at(3, T0), rate(3), T0);
  b.settle(fired.firings, new Set([`${ID}#0`]));
  // A counts two events after B's reset, before it hears of it: the exchange that sends them brings the reset
  a.record(at(2, T0 + 5), rate(2), T0 + 5);
  const [fromA, fromB] = [a.takeCounts()!, b.takeCounts()!];
  a.mergeCounts(fromB, fromA);
  b.mergeCounts(fromA);
  // Both hosts start the next window from the same two events: the third applies it again, on either
  assert.is(a.record(at(1, T0 + 6), rate(1), T0 + 6).firings.length, 1, 'on the host that counted them');
  assert.is(b.record(at(1, T0 + 6), rate(1), T0 + 6).firings.length, 1, 'on the host that reset');
});

test("backoffId names the class and each field's value, unambiguously", () => {
  assert.is(ID, 'backoff:RATE_LIMIT__IP_RATE_LIMIT?localip=192.0.2.1&grouping=%26gmail');
  assert.is(backoffId('X', ['localip'], ['2001:db8::1&a=b']), 'backoff:X?localip=2001%3Adb8%3A%3A1%26a%3Db');
});

test("the event reaching the threshold within the window applies the policy, scoped by the class's fields", () => {
  const { answers, apply } = engine().record([busy, busy, busy], rate(3), T0);
  assert.equal(
    answers.map((a) => a.policies),
    [[], [], [ID]],
  );
  assert.equal(answers[0], {
    class: 'RATE_LIMIT__IP_RATE_LIMIT',
    fields: ['localip', 'grouping'],
    actions: ['rate'],
    policies: [],
    outcome: 'deferred',
    provider: 'unknown',
  });
  const reason = {
    class: 'RATE_LIMIT__IP_RATE_LIMIT',
    provider: 'unknown',
    localip: '192.0.2.1',
    trigger: { kind: 'count', threshold: 3, window: 10, observed: 3 },
    events: 3,
    first: new Date(T0).toISOString(),
    last: new Date(T0).toISOString(),
    sample: 'x',
    level: 0,
  };
  const properties = {
    provider: 'unknown',
    reason: 'RATE_LIMIT__IP_RATE_LIMIT: 3 in 10s (>= 3), 192.0.2.1 to unknown',
  };
  assert.equal(apply, [
    {
      id: ID,
      kind: 'policy',
      expires: T0 + 100_000,
      level: 0,
      reason,
      object: {
        id: ID,
        type: 'BACKOFF',
        fields: ['LOCALIP', 'GROUPING'],
        if: { localip: '192.0.2.1', grouping: '&gmail' },
        then: {
          rate: { algorithm: 'TOKENBUCKET', count: 40, interval: 60 },
          tag: 'RATE_LIMIT__IP_RATE_LIMIT',
          properties,
        },
        ttl: 100,
      },
    },
  ]);
});

test('counts start over when the window has passed, and are kept apart per field values', () => {
  const counter = engine();
  assert.equal(counter.record([busy, busy], rate(2), T0).apply, []);
  // A count covers the window and at most an eighth of one before it: 11.25 s here
  assert.equal(
    counter.record([busy], rate(1), T0 + 11_250).apply,
    [],
    'the window of 10 s passed: this is the first of a new one',
  );
  assert.equal(
    counter.record(
      [
        { ...busy, localip: '192.0.2.2' },
        { ...busy, grouping: '&yahoo' },
      ],
      rate(2),
      T0 + 11_251,
    ).apply,
    [],
  );
  assert.is(counter.record([busy, busy], rate(2), T0 + 11_252).apply.length, 1);
});

test("an event lacking one of the class's fields is classified but not counted; classes without a row count nothing", () => {
  const counter = engine();
  const { answers, apply } = counter.record(
    [{ message: 'x', localip: '192.0.2.1' }, { ...busy, grouping: '' }, busy, busy],
    ['RATE_LIMIT__IP_RATE_LIMIT', 'RATE_LIMIT__IP_RATE_LIMIT', 'GRAYLISTING', 'MAILBOX_FULL'],
    T0,
  );
  assert.equal(apply, []);
  assert.equal(
    answers.map((a) => a.class),
    ['RATE_LIMIT__IP_RATE_LIMIT', 'RATE_LIMIT__IP_RATE_LIMIT', 'GRAYLISTING', 'MAILBOX_FULL'],
  );
  assert.is(counter.counting, 0);
});

test('reaching the threshold again while the policy holds escalates it: TTL doubled up to maxTtl, rate halved down to 1', () => {
  let held: AppliedPolicy | undefined;
  const counter = engine(() => held);
  const levels = [];
  for (let round = 0; round < 6; round++) {
    const now = T0 + round * 1000;
    const [applied] = counter.record([busy, busy, busy], rate(3), now).apply;
    held = applied;
    levels.push([
      applied!.level,
      (applied!.object as any).ttl,
      (applied!.object as any).then.rate.count,
      applied!.expires - now,
    ]);
  }
  assert.equal(levels.slice(0, 4), [
    [0, 100, 40, 100_000],
    [1, 200, 20, 200_000],
    [2, 350, 10, 350_000],
    [3, 350, 5, 350_000],
  ]);
  assert.equal(levels.at(-1), [5, 350, 1, 350_000]);
});

test('a trigger that would re-apply a policy escalated as far as it goes writes nothing until half its TTL is left', () => {
  let held: AppliedPolicy | undefined;
  const counter = engine(() => held);
  for (let round = 0; round < 6; round++)
    held = counter.record([busy, busy, busy], rate(3), T0 + round * 1000).apply[0];
  const saturated = held!;
  assert.equal(
    counter.record([busy, busy, busy], rate(3), T0 + 6000).apply,
    [],
    'rate 1 and maxTtl already: no store write',
  );
  assert.equal(counter.record([busy, busy, busy], rate(3), T0 + 100_000).apply, [], 'more than half the TTL left');
  const [extended] = counter.record([busy, busy, busy], rate(3), T0 + 200_000).apply;
  assert.equal(
    [extended!.level, extended!.expires],
    [saturated.level, T0 + 200_000 + 350_000],
    'extended, not escalated',
  );
});

test("a fresh engine escalates a policy another host applied: the level in force, not this host's counts, sets the next", () => {
  // Applied at level 2 elsewhere (its TTL 350 s), read back by this host's feed; this engine has applied nothing
  const elsewhere: AppliedPolicy = { id: ID, kind: 'policy', object: {}, expires: T0 + 350_000, level: 2 };
  const asked: string[] = [];
  const [applied] = engine((id) => (asked.push(id), id === ID ? elsewhere : undefined)).record(
    [busy, busy, busy],
    rate(3),
    T0 + 1000,
  ).apply;
  assert.is(applied!.level, 3, 'the level after the one in force');
  assert.equal(asked, [ID]);
  assert.is((applied!.object as any).then.rate.count, 5, 'rate 40 halved three times');
  assert.is(applied!.expires, T0 + 1000 + 350_000, 'TTL at maxTtl');
});

test('a policy that lapsed starts again at level 0', () => {
  const lapsed: AppliedPolicy = { id: ID, kind: 'policy', object: {}, expires: T0, level: 4 };
  assert.is(engine(() => lapsed).record([busy, busy, busy], rate(3), T0).apply[0]!.level, 0);
});

test('a suspend class applies a suspension with the field values on it', () => {
  const spam: Event = { message: 'x', tenantid: 't1', jobid: 'j9', grouping: '&gmail', recipientdomain: 'gmail.com' };
  const [applied] = engine().record([spam, spam], ['CONTENT_REJECTED_SPAM', 'CONTENT_REJECTED_SPAM'], T0).apply;
  assert.equal(applied!.object, {
    id: 'backoff:CONTENT_REJECTED_SPAM?tenantid=t1&jobid=j9&grouping=%26gmail',
    type: 'BACKOFF',
    tenantid: 't1',
    jobid: 'j9',
    grouping: '&gmail',
    tag: 'CONTENT_REJECTED_SPAM',
    properties: { provider: 'google', reason: 'CONTENT_REJECTED_SPAM: 2 in 60s (>= 2), google' },
    ttl: 300,
  });
  assert.is(applied!.kind, 'suspend');
});

test('counts of passed windows are swept, so memory follows the keys active now', () => {
  const counter = engine();
  counter.record(
    Array.from({ length: 1000 }, (_, i) => ({ ...busy, localip: `10.0.${i >> 8}.${i & 255}` })),
    rate(1000),
    T0,
  );
  assert.is(counter.counting, 1000);
  counter.record([busy], rate(1), T0 + 60_000);
  assert.is(counter.counting, 1);
});

test('no more than MAX_KEYS keys are counted at once', () => {
  const counter = engine();
  const events = Array.from({ length: MAX_KEYS + 10 }, (_, i) => ({ ...busy, localip: `k${i}` }));
  counter.record(events, rate(events.length), T0);
  assert.is(counter.counting, MAX_KEYS);
});

test('an event counts at its own time: late ones inside the window count, ones older than every window count nowhere', () => {
  const counter = engine();
  // Two events 8 s and 4 s old reported now, in reverse order: inside the window of 10 s, they count with the third
  assert.equal(
    counter.record(
      [
        { ...busy, time: T0 - 4000 },
        { ...busy, time: T0 - 8000 },
      ],
      rate(2),
      T0,
    ).apply,
    [],
  );
  assert.is(counter.record([busy], rate(1), T0).apply.length, 1, 'three within 10 s');
  const fresh = engine();
  // Older than the longest window (the spam class's 60 s): neither counted nor a reason to extend anything
  const old = fresh.record(
    [
      { ...busy, time: T0 - 61_000 },
      { ...busy, time: T0 - 61_000 },
      { ...busy, time: T0 - 61_000 },
    ],
    rate(3),
    T0,
  );
  assert.equal(old.apply, []);
  assert.is(fresh.counting, 0, 'not even a key');
  const sharing = engine(undefined, shareTriggers({ triggers: {} }));
  sharing.record([{ ...busy, time: T0 - 16 * 60_000 }], rate(1), T0);
  assert.is(sharing.counting, 0, 'older than the share windows of 15 min: not even a key per local IP and provider');
  // Older than the class's window only: not counted toward it
  assert.equal(
    fresh.record([{ ...busy, time: T0 - 11_000 }, { ...busy, time: T0 - 11_000 }, busy], rate(3), T0).apply,
    [],
  );
});

test('the events that applied a policy do not apply it again: counting starts over after it', () => {
  const counter = engine();
  assert.is(counter.record([busy, busy, busy], rate(3), T0).apply.length, 1);
  // Reported late, from before the policy applied: they were part of the window that applied it
  assert.equal(
    counter.record(
      [
        { ...busy, time: T0 - 1000 },
        { ...busy, time: T0 - 1000 },
        { ...busy, time: T0 - 1000 },
      ],
      rate(3),
      T0 + 1,
    ).apply,
    [],
  );
});

test("a group's share of the attempts from one local IP to one provider triggers: 5 % of at least 200 in 15 min by default", () => {
  const reputation = shareTriggers({ triggers: {} }).find((t) => t.name === 'reputation')!;
  assert.equal([reputation.threshold, reputation.minAttempts, reputation.windowMs], [0.05, 200, 900_000]);
  const counter = engine(undefined, shareTriggers({ triggers: {} }));
  const ok: Event = { localip: '192.0.2.1', remotemx: 'gmail-smtp-in.l.google.com', outcome: 'delivered' };
  const blocked: Event = { ...ok, message: '550 blocked', outcome: 'bounced', tenantid: 't1', grouping: '&gmail' };
  // 189 deliveries spread over the last 14 minutes, then 10 blocks (5.03 % of 199): short of 200 attempts, nothing
  const deliveries = Array.from({ length: 189 }, (_, i) => ({ ...ok, time: T0 - 840_000 + i * 4000 }));
  const first = counter.record(
    [...deliveries, ...Array.from({ length: 10 }, () => blocked)],
    [...deliveries.map(() => null), ...Array.from({ length: 10 }, () => 'SENDER_REPUTATION__DOMAIN')],
    T0,
  );
  assert.equal(first.apply, []);
  // The 200th attempt is the 11th block: 5.5 %
  const { answers, apply } = counter.record([blocked], ['SENDER_REPUTATION__DOMAIN'], T0 + 1);
  const id = 'backoff:SENDER_REPUTATION__DOMAIN?tenantid=t1&grouping=%26gmail';
  assert.equal(answers[0]!.policies, [id]);
  assert.is(answers[0]!.provider, 'google');
  assert.equal(apply[0]!.reason!.trigger, {
    kind: 'share',
    threshold: 0.05,
    window: 900,
    observed: 11 / 200,
    attempts: 200,
    minAttempts: 200,
    group: 'reputation',
  });
  assert.is(apply[0]!.reason!.events, 11);
  assert.is(
    (apply[0]!.object as any).properties.reason,
    'reputation: 5.5% of 200 attempts in 900s (>= 5% of >= 200), 192.0.2.1 to google',
  );
  // Having applied it, the trigger judges anew over at least 200 fresh attempts: 12 more blocks (12 of 212 over the
  // whole window, 5.7 %) are 12 of 12 fresh ones, short of 200
  const again = counter.record(
    Array.from({ length: 12 }, () => blocked),
    Array.from({ length: 12 }, () => 'SENDER_REPUTATION__DOMAIN'),
    T0 + 2,
  );
  assert.equal(again.apply, []);
  // The same share to another provider, or from another IP, is counted apart
  const other = counter.record(
    Array.from({ length: 7 }, () => ({ ...blocked, remotemx: 'mta5.am0.yahoodns.net' })),
    Array.from({ length: 7 }, () => 'SENDER_REPUTATION__DOMAIN'),
    T0 + 3,
  );
  assert.equal(other.apply, [], 'yahoo has 7 attempts (all blocked), not 200');
});

test("a class can be given its own share trigger, and a group's can be changed or turned off", () => {
  const shares = shareTriggers({
    triggers: {
      rate_limit: { enabled: false },
      reputation: { threshold: 0.5, minAttempts: 4, window: 60 },
      RATE_LIMIT__IP_RATE_LIMIT: { threshold: 0.5, minAttempts: 4 },
    },
  });
  assert.equal(
    shares.map((t) => t.name),
    ['reputation', 'authentication', 'content', 'RATE_LIMIT__IP_RATE_LIMIT'],
  );
  const own = shares.find((t) => t.name === 'RATE_LIMIT__IP_RATE_LIMIT')!;
  assert.equal(
    [own.threshold, own.minAttempts, own.windowMs, own.group],
    [0.5, 4, 900_000, undefined],
    'the window of its group, rate_limit',
  );
  const counter = engine(undefined, shares);
  const ok: Event = { localip: '192.0.2.1', grouping: '&gmail', outcome: 'delivered' };
  const { apply } = counter.record(
    [ok, ok, busy, busy],
    [null, null, 'RATE_LIMIT__IP_RATE_LIMIT', 'RATE_LIMIT__IP_RATE_LIMIT'],
    T0,
  );
  assert.equal(
    apply.map((p) => [p.id, (p.reason!.trigger as Trigger).kind, (p.reason!.trigger as Trigger).observed]),
    [[ID, 'share', 0.5]],
    'two of four, before the count of 3',
  );
  assert.throws(() => shareTriggers({ triggers: { NOPE: {} } }), /Unknown class group or backoff class "NOPE"/);
});

test('a sample names no recipient: the local part of every address is masked', () => {
  assert.is(
    maskAddresses('550 5.1.1 <anna.k+x@example.com>: user unknown; from=bob@mail.example.org'),
    '550 5.1.1 <***@example.com>: user unknown; from=***@mail.example.org',
  );
});

test('explanations are kept least recently used first: a sample asked again outlives a full cache of others', () => {
  const asked = new Map<string, number>();
  const everyEvent = policyTable({ policies: { RATE_LIMIT__IP_RATE_LIMIT: { threshold: 1, window: 10, ttl: 100 } } });
  const inner = new BackoffEngine(everyEvent, {
    providers,
    shares: [],
    inForce: () => undefined,
    explain: (message) => {
      asked.set(message, (asked.get(message) ?? 0) + 1);
      return undefined;
    },
  });
  // Each event from a local IP of its own: each applies a policy whose reason explains its reply
  let n = 0;
  const fire = (message: string) => {
    n++;
    const localip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    const event = { ...busy, message, localip, outcome: 'deferred' as const, time: T0 };
    assert.is(inner.record([event], rate(1), T0).answers[0]!.policies.length, 1);
  };
  fire('421 hot reply');
  for (let k = 1; k < MAX_EXPLAINED; k++) fire(`421 reply ${k}`);
  fire('421 hot reply');
  fire('421 one more reply');
  fire('421 hot reply');
  assert.is(asked.get('421 hot reply'), 1, 'explained once, kept while in use');
  assert.is(asked.get('421 reply 1'), 1);
  fire('421 reply 1');
  assert.is(asked.get('421 reply 1'), 2, 'the least recently used went first');
});

test.run();
