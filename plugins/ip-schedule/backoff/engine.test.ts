import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AppliedPolicy } from '../../../runtime/mod.ts';
import { BackoffEngine, backoffId, MAX_KEYS, type BackoffEvent } from './engine.ts';
import { policyTable } from './table.ts';

const T0 = Date.parse('2025-03-10T12:00:00Z');
const table = policyTable({ policies: { RATE_LIMIT__IP_RATE_LIMIT: { threshold: 3, window: 10, ttl: 100, maxTtl: 350, rate: { count: 40, interval: 60 } }, CONTENT_REJECTED_SPAM: { threshold: 2 } } });
const busy: BackoffEvent = { message: 'x', localip: '192.0.2.1', grouping: '&gmail', remoteip: '198.51.100.1' };
const ID = backoffId('RATE_LIMIT__IP_RATE_LIMIT', ['localip', 'grouping'], ['192.0.2.1', '&gmail']);
const engine = (inForce: (id: string) => AppliedPolicy | undefined = () => undefined) => new BackoffEngine(table, inForce);
const rate = (n: number) => Array.from({ length: n }, () => 'RATE_LIMIT__IP_RATE_LIMIT');

test('backoffId names the class and each field\'s value, unambiguously', () => {
  assert.is(ID, 'backoff:RATE_LIMIT__IP_RATE_LIMIT?localip=192.0.2.1&grouping=%26gmail');
  assert.is(backoffId('X', ['localip'], ['2001:db8::1&a=b']), 'backoff:X?localip=2001%3Adb8%3A%3A1%26a%3Db');
});

test('the event reaching the threshold within the window applies the policy, scoped by the class\'s fields', () => {
  const { answers, apply } = engine().record([busy, busy, busy], rate(3), T0);
  assert.equal(answers.map((a) => a.policies), [[], [], [ID]]);
  assert.equal(answers[0], { class: 'RATE_LIMIT__IP_RATE_LIMIT', fields: ['localip', 'grouping'], actions: ['rate'], policies: [] });
  assert.equal(apply, [{
    id: ID, kind: 'policy', expires: T0 + 100_000, level: 0,
    object: { id: ID, type: 'BACKOFF', fields: ['LOCALIP', 'GROUPING'], if: { localip: '192.0.2.1', grouping: '&gmail' }, then: { rate: { algorithm: 'TOKENBUCKET', count: 40, interval: 60 }, tag: 'RATE_LIMIT__IP_RATE_LIMIT' }, ttl: 100 },
  }]);
});

test('counts start over when the window has passed, and are kept apart per field values', () => {
  const counter = engine();
  assert.equal(counter.record([busy, busy], rate(2), T0).apply, []);
  assert.equal(counter.record([busy], rate(1), T0 + 10_000).apply, [], 'the window of 10 s passed: this is the first of a new one');
  assert.equal(counter.record([{ ...busy, localip: '192.0.2.2' }, { ...busy, grouping: '&yahoo' }], rate(2), T0 + 10_001).apply, []);
  assert.is(counter.record([busy, busy], rate(2), T0 + 10_002).apply.length, 1);
});

test('an event lacking one of the class\'s fields is classified but not counted; classes without a row count nothing', () => {
  const counter = engine();
  const { answers, apply } = counter.record([{ message: 'x', localip: '192.0.2.1' }, { ...busy, grouping: '' }, busy, busy], ['RATE_LIMIT__IP_RATE_LIMIT', 'RATE_LIMIT__IP_RATE_LIMIT', 'GRAYLISTING', 'MAILBOX_FULL'], T0);
  assert.equal(apply, []);
  assert.equal(answers.map((a) => a.class), ['RATE_LIMIT__IP_RATE_LIMIT', 'RATE_LIMIT__IP_RATE_LIMIT', 'GRAYLISTING', 'MAILBOX_FULL']);
  assert.is(counter.counting, 0);
});

test('reaching the threshold again while the policy holds escalates it: TTL doubled up to maxTtl, rate halved down to 1', () => {
  let held: AppliedPolicy | undefined;
  const counter = engine(() => held);
  const levels = [];
  for (let round = 0; round < 8; round++) {
    const now = T0 + round * 1000;
    const [applied] = counter.record([busy, busy, busy], rate(3), now).apply;
    held = applied;
    levels.push([applied!.level, (applied!.object as any).ttl, (applied!.object as any).then.rate.count, applied!.expires - now]);
  }
  assert.equal(levels.slice(0, 4), [[0, 100, 40, 100_000], [1, 200, 20, 200_000], [2, 350, 10, 350_000], [3, 350, 5, 350_000]]);
  assert.equal(levels.at(-1), [7, 350, 1, 350_000]);
});

test('a fresh engine escalates a policy another host applied: the level in force, not this host\'s counts, sets the next', () => {
  // Applied at level 2 elsewhere (its TTL 350 s), read back by this host's feed; this engine has applied nothing
  const elsewhere: AppliedPolicy = { id: ID, kind: 'policy', object: {}, expires: T0 + 350_000, level: 2 };
  const asked: string[] = [];
  const [applied] = engine((id) => (asked.push(id), id === ID ? elsewhere : undefined)).record([busy, busy, busy], rate(3), T0 + 1000).apply;
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
  const spam: BackoffEvent = { message: 'x', tenantid: 't1', jobid: 'j9', grouping: '&gmail' };
  const [applied] = engine().record([spam, spam], ['CONTENT_REJECTED_SPAM', 'CONTENT_REJECTED_SPAM'], T0).apply;
  assert.equal(applied!.object, {
    id: 'backoff:CONTENT_REJECTED_SPAM?tenantid=t1&jobid=j9&grouping=%26gmail', type: 'BACKOFF', tenantid: 't1', jobid: 'j9', grouping: '&gmail', tag: 'CONTENT_REJECTED_SPAM', ttl: 300,
  });
  assert.is(applied!.kind, 'suspend');
});

test('counts of passed windows are swept, so memory follows the keys active now', () => {
  const counter = engine();
  counter.record(Array.from({ length: 1000 }, (_, i) => ({ ...busy, localip: `10.0.${i >> 8}.${i & 255}` })), rate(1000), T0);
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

test.run();
