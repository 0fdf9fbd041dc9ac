/**
 * The schedule store conformance suite: every `kind: 'store'` plugin, ours or a user's, must pass it.
 * Each test gets a fresh, empty store from the factory and closes it afterwards.
 *
 * @example
 * ```ts
 * import { usePlugin } from 'capstan';
 * import type { ScheduleStore } from 'capstan';
 * import { storeConformance } from 'capstan/conformance';
 * storeConformance('my-store', async () => {
 *   const plugin = await usePlugin<ScheduleStore>({ id: 'my-store', path: './my-store' });
 *   return { store: plugin.service, close: plugin.close };
 * });
 * ```
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import type { AppliedPolicy, AuditEntry, IpRecord, ScheduleStore } from '../runtime/mod.ts';
import { skipsOf } from './_skips.ts';

/** What a factory hands the suite: an empty store and how to release it */
export interface StoreUnderTest {
  store: ScheduleStore;
  close?(): Promise<void>;
  /** Opens the same storage again once this store is closed (a restart); the durability tests need it */
  reopen?(): Promise<StoreUnderTest>;
}

/** Options of the suite: tests to skip, each by its title as printed, with the reason */
export interface StoreConformanceOptions {
  skip?: Record<string, string>;
}

const record = (volume: number, extra?: Partial<IpRecord['groupings'][number]>): IpRecord => ({
  groupings: [
    {
      grouping: '&gmail',
      mode: 'AUTO',
      start: { date: '2025-01-01', volume },
      end: { date: '2025-01-30', volume: volume * 100 },
      paused: false,
      algorithm: 'TOKENBUCKET',
      interval: 86400,
      properties: null,
      ...extra,
    },
  ],
});

/** A check gets the store and `restart`, which closes it and answers the same storage opened again */
type Check = (store: ScheduleStore, restart: () => Promise<ScheduleStore>) => Promise<void>;

/** An applied suspension with the id and expiry given */
const applied = (id: string, expires: number): AppliedPolicy => ({
  id,
  kind: 'suspend',
  object: { id, type: 'BACKOFF', localip: '192.0.2.1', tag: 'RATE_LIMIT__GENERAL', ttl: 600 },
  expires,
  level: 0,
});

/** Notices a watch reported, and a way to wait for one naming `ip` (`policy:<id>` for an applied policy) */
async function watched(store: ScheduleStore) {
  assert.type(store.watch, 'function', 'the store has no watch(): implement it, or skip the watch tests with a reason');
  const seen: (string | undefined)[] = [];
  const waiters: { ip: string; done: () => void }[] = [];
  const stop = await store.watch!((change) => {
    // An IP as itself, an applied policy as `policy:<id>`, a loss as undefined
    const ip = 'ip' in change ? change.ip : 'policy' in change ? `policy:${change.policy}` : undefined;
    seen.push(ip);
    for (const waiter of waiters.splice(0)) {
      if (ip === undefined || ip === waiter.ip) waiter.done();
      else waiters.push(waiter);
    }
  });
  const next = (ip: string, ms = 2000) =>
    new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no notice of "${ip}" within ${ms} ms`)), ms);
      waiters.push({
        ip,
        done: () => {
          clearTimeout(timer);
          done();
        },
      });
    });
  return { seen, next, stop };
}

/** Recent: a store drops entries past its retention, perhaps as it opens */
let auditMs = Date.now() - 60_000;

/** An audit entry of `action` on `subject`, each a millisecond after the last (ids are UUIDv7s of its time) */
const auditEntry = (action: string, subject: Record<string, string>, principal = 'anonymous'): AuditEntry => {
  const ms = auditMs++;
  const hex = ms.toString(16).padStart(12, '0') + randomBytes(10).toString('hex');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return {
    id,
    time: new Date(ms).toISOString(),
    action,
    subject,
    principal,
    before: null,
    after: { n: ms },
    reason: { why: 'test' },
    host: 'conformance',
  };
};

/** The store's audit methods, or a failure telling the author what to do */
function auditOf(store: ScheduleStore) {
  assert.type(
    store.queryAudit,
    'function',
    'the store keeps no audit trail: implement appendAudit and queryAudit, or skip the audit tests with a reason',
  );
  return { append: store.appendAudit!.bind(store), query: store.queryAudit!.bind(store) };
}

const settle = () => new Promise((done) => setTimeout(done, 100));

const CHECKS: Record<string, Check> = {
  'get returns undefined when the IP is unknown': async (store) => {
    assert.is(await store.get('192.0.2.1'), undefined);
    assert.equal(await store.list(), []);
  },
  'put creates the IP when expected is null and the IP is new': async (store) => {
    const version = await store.put('192.0.2.1', record(1), { expected: null });
    assert.ok(Number.isInteger(version) && version! > 0, `version ${version}`);
    assert.equal(await store.get('192.0.2.1'), { ip: '192.0.2.1', record: record(1), version });
  },
  'put refuses to create when the IP already exists': async (store) => {
    const version = await store.put('192.0.2.1', record(1), { expected: null });
    assert.is(await store.put('192.0.2.1', record(2), { expected: null }), undefined);
    assert.equal(await store.get('192.0.2.1'), { ip: '192.0.2.1', record: record(1), version });
  },
  'put replaces the record and changes the version when expected is current': async (store) => {
    const first = await store.put('192.0.2.1', record(1), { expected: null });
    const second = await store.put('192.0.2.1', record(2), { expected: first! });
    assert.ok(second !== undefined && second !== first);
    assert.equal(await store.get('192.0.2.1'), { ip: '192.0.2.1', record: record(2), version: second });
  },
  'put refuses to write when expected is stale': async (store) => {
    const first = await store.put('192.0.2.1', record(1), { expected: null });
    const second = await store.put('192.0.2.1', record(2), { expected: first! });
    assert.is(await store.put('192.0.2.1', record(3), { expected: first! }), undefined);
    assert.equal((await store.get('192.0.2.1'))?.version, second);
    assert.equal((await store.get('192.0.2.1'))?.record, record(2));
  },
  'put refuses to write when expecting a version of an IP that does not exist': async (store) => {
    assert.is(await store.put('192.0.2.1', record(1), { expected: 1 }), undefined);
    assert.is(await store.get('192.0.2.1'), undefined);
  },
  'delete removes the IP when expected is current': async (store) => {
    const version = await store.put('192.0.2.1', record(1), { expected: null });
    await store.put('192.0.2.2', record(2), { expected: null });
    assert.is(await store.delete('192.0.2.1', { expected: version! }), true);
    assert.is(await store.get('192.0.2.1'), undefined);
    assert.equal(
      (await store.list()).map((s) => s.ip),
      ['192.0.2.2'],
    );
  },
  'delete refuses when expected is stale or the IP is unknown': async (store) => {
    const first = await store.put('192.0.2.1', record(1), { expected: null });
    await store.put('192.0.2.1', record(2), { expected: first! });
    assert.is(await store.delete('192.0.2.1', { expected: first! }), false);
    assert.is(await store.delete('192.0.2.9', { expected: first! }), false);
    assert.equal((await store.get('192.0.2.1'))?.record, record(2));
  },
  'versions never repeat when an IP is deleted and created again': async (store) => {
    const first = await store.put('192.0.2.1', record(1), { expected: null });
    await store.delete('192.0.2.1', { expected: first! });
    const again = await store.put('192.0.2.1', record(2), { expected: null });
    assert.is.not(again, first);
    assert.is(await store.put('192.0.2.1', record(3), { expected: first! }), undefined);
  },
  'list returns every IP sorted by address text when many are stored': async (store) => {
    const ips = ['2001:db8::1', '10.0.0.1', '192.0.2.10', '192.0.2.9', '::1', 'fe80::1', '9.9.9.9'];
    for (const ip of ips) await store.put(ip, record(ip.length), { expected: null });
    const listed = await store.list();
    assert.equal(
      listed.map((s) => s.ip),
      [...ips].sort(),
    );
    for (const entry of listed) assert.equal(entry.record, record(entry.ip.length));
  },
  'records round-trip exactly when they hold every field kind': async (store) => {
    const manual: IpRecord = {
      groupings: [
        {
          grouping: '&yahoo',
          mode: 'MANUAL',
          start: { date: '2024-02-29' },
          paused: true,
          algorithm: 'FIXEDWINDOW',
          interval: 3600,
          properties: { tag: 'wärm-up ✓', empty: '' },
          schedule: [
            { day: 1, messages: 0 },
            { day: 2, messages: 1_000_000_000 },
          ],
        },
        ...record(7).groupings,
      ],
    };
    await store.put('2001:db8::1', manual, { expected: null });
    await store.put('::ffff:192.0.2.1', { groupings: [] }, { expected: null });
    assert.equal((await store.get('2001:db8::1'))?.record, manual);
    assert.equal((await store.get('::ffff:192.0.2.1'))?.record, { groupings: [] });
    assert.equal(JSON.stringify((await store.get('2001:db8::1'))?.record), JSON.stringify(manual), 'key order kept');
  },
  'a stored record does not change when the caller changes its object afterwards': async (store) => {
    const mine = record(1);
    await store.put('192.0.2.1', mine, { expected: null });
    mine.groupings[0]!.paused = true;
    assert.is((await store.get('192.0.2.1'))?.record.groupings[0]?.paused, false);
  },
  'concurrent creates of one IP let exactly one succeed': async (store) => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.put('192.0.2.1', record(i + 1), { expected: null })),
    );
    const winners = results.filter((v) => v !== undefined);
    assert.is(winners.length, 1);
    assert.is((await store.get('192.0.2.1'))?.version, winners[0]);
  },
  'concurrent writes from one version let exactly one succeed': async (store) => {
    const version = await store.put('192.0.2.1', record(1), { expected: null });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => store.put('192.0.2.1', record(i + 2), { expected: version! })),
    );
    assert.is(results.filter((v) => v !== undefined).length, 1);
  },
  'no update is lost when writers retry on conflict': async (store) => {
    await store.put('192.0.2.1', record(1), { expected: null });
    const increment = async () => {
      for (;;) {
        const current = (await store.get('192.0.2.1'))!;
        const volume = current.record.groupings[0]!.start.volume! + 1;
        if ((await store.put('192.0.2.1', record(volume), { expected: current.version })) !== undefined) return;
      }
    };
    await Promise.all(Array.from({ length: 20 }, increment));
    assert.is((await store.get('192.0.2.1'))?.record.groupings[0]?.start.volume, 21);
  },
  'watch reports every put and delete once get shows it': async (store) => {
    const watch = await watched(store);
    const states: unknown[] = [];
    const read = async (ip: string) => states.push((await store.get(ip))?.version ?? null);
    const created = watch.next('192.0.2.1').then(() => read('192.0.2.1'));
    const version = await store.put('192.0.2.1', record(1), { expected: null });
    await created;
    const replaced = watch.next('192.0.2.1').then(() => read('192.0.2.1'));
    const second = await store.put('192.0.2.1', record(2), { expected: version! });
    await replaced;
    const deleted = watch.next('192.0.2.1').then(() => read('192.0.2.1'));
    assert.is(await store.delete('192.0.2.1', { expected: second! }), true);
    await deleted;
    assert.equal(states, [version, second, null], 'each notice comes once the write is visible');
    watch.stop();
  },
  'watch reports each IP of concurrent writes': async (store) => {
    const watch = await watched(store);
    const ips = Array.from({ length: 50 }, (_, i) => `10.1.0.${i}`);
    const notices = Promise.all(ips.map((ip) => watch.next(ip)));
    await Promise.all(ips.map((ip) => store.put(ip, record(1), { expected: null })));
    await notices;
    watch.stop();
  },
  'watch stops reporting when its stop function is called': async (store) => {
    const kept = await watched(store);
    const stopped = await watched(store);
    stopped.stop();
    const heard = kept.next('192.0.2.7');
    await store.put('192.0.2.7', record(1), { expected: null });
    await heard;
    await settle();
    assert.equal(
      stopped.seen.filter((ip) => ip !== undefined),
      [],
      'a stopped watch hears nothing',
    );
    kept.stop();
  },
  'watch keeps reporting to other listeners when one throws': async (store) => {
    await store.watch?.(() => {
      throw new Error('listener failure');
    });
    const watch = await watched(store);
    const heard = watch.next('192.0.2.8');
    assert.ok((await store.put('192.0.2.8', record(1), { expected: null })) !== undefined, 'the write succeeds');
    await heard;
    watch.stop();
  },
  'applied policies are listed by id and replaced when put again': async (store) => {
    assert.type(
      store.putPolicy,
      'function',
      'the store keeps no applied policies: implement listPolicies, putPolicy and deletePolicy, or skip these tests with a reason',
    );
    assert.equal(await store.listPolicies!(), []);
    await store.putPolicy!(applied('b', 1000));
    await store.putPolicy!(applied('a', 2000));
    await store.putPolicy!({ ...applied('b', 3000), level: 1 });
    assert.equal(await store.listPolicies!(), [applied('a', 2000), { ...applied('b', 3000), level: 1 }]);
  },
  "an applied policy's reason is kept and given back unchanged (plugin API 1.3)": async (store) => {
    assert.type(store.putPolicy, 'function', 'the store keeps no applied policies');
    const reason = {
      class: 'RATE_LIMIT__GENERAL',
      provider: 'google',
      trigger: { kind: 'count', threshold: 50, window: 60, observed: 50 },
      sample: '421 ***@example.com',
    };
    await store.putPolicy!({ ...applied('r', 1000), reason });
    await store.putPolicy!(applied('s', 1000));
    assert.equal(await store.listPolicies!(), [{ ...applied('r', 1000), reason }, applied('s', 1000)]);
  },
  'deletePolicy deletes only the applied policy that still expires when given': async (store) => {
    assert.type(store.deletePolicy, 'function', 'the store keeps no applied policies');
    await store.putPolicy!(applied('a', 1000));
    assert.is(await store.deletePolicy!('a', { expires: 999 }), false, 'renewed meanwhile');
    assert.is(await store.deletePolicy!('x', { expires: 1000 }), false, 'unknown');
    assert.is(await store.deletePolicy!('a', { expires: 1000 }), true);
    assert.equal(await store.listPolicies!(), []);
  },
  'replacePolicy replaces only the applied policy that still expires when given (plugin API 1.4)': async (store) => {
    assert.type(
      store.replacePolicy,
      'function',
      'the store cannot replace an applied policy conditionally: implement replacePolicy, or skip this test with a reason',
    );
    await store.putPolicy!(applied('a', 1000));
    assert.is(await store.replacePolicy!(applied('a', 2000), { expires: 999 }), false, 'changed meanwhile');
    assert.is(await store.replacePolicy!(applied('x', 2000), { expires: 1000 }), false, 'unknown: not created');
    assert.is(await store.replacePolicy!({ ...applied('a', 2000), level: 3 }, { expires: 1000 }), true);
    assert.equal(await store.listPolicies!(), [{ ...applied('a', 2000), level: 3 }]);
  },
  'watch reports applied policies put and deleted': async (store) => {
    const watch = await watched(store);
    const put = watch.next('policy:backoff:x');
    await store.putPolicy!(applied('backoff:x', 1000));
    await put;
    const deleted = watch.next('policy:backoff:x');
    await store.deletePolicy!('backoff:x', { expires: 1000 });
    await deleted;
    watch.stop();
  },
  'audit entries go with the writes that succeed, and only those': async (store) => {
    const { query } = auditOf(store);
    const created = auditEntry('schedule.create', { ip: '192.0.2.1' });
    const version = await store.put('192.0.2.1', record(1), { expected: null }, { audit: created });
    assert.is(
      await store.put(
        '192.0.2.1',
        record(2),
        { expected: null },
        { audit: auditEntry('schedule.create', { ip: '192.0.2.1' }) },
      ),
      undefined,
    );
    assert.is(
      await store.delete(
        '192.0.2.1',
        { expected: version! + 1000 },
        { audit: auditEntry('schedule.delete', { ip: '192.0.2.1' }) },
      ),
      false,
    );
    const deleted = auditEntry('schedule.delete', { ip: '192.0.2.1' });
    assert.ok(await store.delete('192.0.2.1', { expected: version! }, { audit: deleted }));
    await store.putPolicy?.(applied('p', 1000), { audit: auditEntry('policy.apply', { policy: 'p' }) });
    assert.is(
      await store.deletePolicy?.('p', { expires: 1 }, { audit: auditEntry('policy.expire', { policy: 'p' }) }),
      false,
    );
    const expired = auditEntry('policy.expire', { policy: 'p' });
    assert.ok(await store.deletePolicy?.('p', { expires: 1000 }, { audit: expired }));
    const all = await query({ limit: 100 });
    assert.equal(
      all.map((e) => e.action),
      ['policy.expire', 'policy.apply', 'schedule.delete', 'schedule.create'],
      'newest first, losers absent',
    );
    assert.equal(all[0], expired, 'an entry round-trips exactly');
    assert.equal(all[3], created);
  },
  'audit queries filter by time, action, subject and principal': async (store) => {
    const { append, query } = auditOf(store);
    const entries = [
      auditEntry('schedule.create', { ip: '192.0.2.1' }, 'key:aaaaaaaaaaaa'),
      auditEntry('schedule.pause', { ip: '192.0.2.1', grouping: '&gmail' }, 'ops'),
      auditEntry('schedule.pause', { ip: '192.0.2.2', grouping: '&gmail' }),
      auditEntry('policy.apply', { policy: 'backoff:X?localip=192.0.2.1' }, 'ops'),
    ];
    await append(entries);
    const ids = async (q: Record<string, string>) =>
      (await query({ limit: 100, ...q })).map((e) => entries.indexOf(entries.find((x) => x.id === e.id)!));
    assert.equal(await ids({}), [3, 2, 1, 0]);
    assert.equal(await ids({ action: 'schedule.pause' }), [2, 1]);
    assert.equal(await ids({ ip: '192.0.2.1' }), [1, 0]);
    assert.equal(await ids({ grouping: '&gmail', ip: '192.0.2.2' }), [2]);
    assert.equal(await ids({ policy: 'backoff:X?localip=192.0.2.1' }), [3]);
    assert.equal(await ids({ principal: 'ops' }), [3, 1]);
    assert.equal(await ids({ from: entries[1]!.time, to: entries[3]!.time }), [2, 1], 'from inclusive, to exclusive');
    assert.equal(await ids({ action: 'schedule.delete' }), []);
  },
  'audit queries page newest first with limit and before': async (store) => {
    const { append, query } = auditOf(store);
    const entries = Array.from({ length: 25 }, (_, i) => auditEntry('schedule.update', { ip: `10.0.0.${i % 3}` }));
    await append(entries.slice(0, 10));
    await append(entries.slice(10));
    const pages: string[][] = [];
    let before: string | undefined;
    for (;;) {
      const page = await query({ limit: 7, ip: '10.0.0.1', ...(before ? { before } : {}) });
      if (page.length === 0) break;
      pages.push(page.map((e) => e.id));
      before = page[page.length - 1]!.id;
    }
    const expected = entries
      .filter((_, i) => i % 3 === 1)
      .map((e) => e.id)
      .reverse();
    assert.equal(
      pages.map((p) => p.length),
      [7, 1],
    );
    assert.equal(pages.flat(), expected, 'every entry once, newest first');
  },
  'audit entries survive a restart': async (store, restart) => {
    auditOf(store);
    const entry = auditEntry('schedule.create', { ip: '192.0.2.1' });
    const alone = auditEntry('policy.lift', { policy: 'p' }, 'ops');
    await store.put('192.0.2.1', record(1), { expected: null }, { audit: entry });
    await store.appendAudit!([alone]);
    const again = await restart();
    assert.equal(await again.queryAudit!({ limit: 10 }), [alone, entry]);
    const later = auditEntry('schedule.delete', { ip: '192.0.2.1' });
    await again.appendAudit!([later]);
    assert.equal(
      (await again.queryAudit!({ limit: 10 })).map((e) => e.id),
      [later.id, alone.id, entry.id],
      'appends go on after a restart',
    );
  },
  'exchangeCounts hands each host the batches of the others, in order, once (plugin API 1.6)': async (store) => {
    assert.type(
      store.exchangeCounts,
      'function',
      'the store does not count across hosts: implement exchangeCounts and claimCounts, or skip these tests with a reason',
    );
    const now = Date.now();
    const batch = (host: string, data: string) => ({ host, time: now, retainMs: 60_000, data });
    const empty = await store.exchangeCounts!('a', undefined, 0);
    assert.equal(empty.batches, []);
    const a1 = await store.exchangeCounts!('a', batch('a', 'a1'), empty.cursor);
    assert.equal(a1.batches, [], 'a host never gets its own batches');
    await store.exchangeCounts!('b', batch('b', 'b1'), 0);
    await Promise.all(['b2', 'b3', 'b4'].map((data) => store.exchangeCounts!('b', batch('b', data), 0)));
    const seen = await store.exchangeCounts!('a', batch('a', 'a2'), a1.cursor);
    assert.equal(
      seen.batches.map((b) => [b.host, b.time]),
      [
        ['b', now],
        ['b', now],
        ['b', now],
        ['b', now],
      ],
    );
    assert.equal(seen.batches[0]!.data, 'b1', 'oldest first');
    assert.equal(
      seen.batches
        .slice(1)
        .map((b) => b.data)
        .sort(),
      ['b2', 'b3', 'b4'],
    );
    assert.equal((await store.exchangeCounts!('a', undefined, seen.cursor)).batches, [], 'each batch once');
    const fromB = await store.exchangeCounts!('b', undefined, 0);
    assert.equal(
      fromB.batches.map((b) => b.data),
      ['a1', 'a2'],
    );
  },
  'claimCounts lets exactly one of concurrent claims from the same counts win (plugin API 1.6)': async (store) => {
    assert.type(
      store.claimCounts,
      'function',
      'the store does not count across hosts: implement exchangeCounts and claimCounts, or skip these tests with a reason',
    );
    const claim = (key: string, at: number, since: number) => ({ key, at, since, retainMs: 60_000 });
    const now = Date.now();
    assert.equal(await store.claimCounts!([]), []);
    const first = await Promise.all(
      [1, 2, 3].map((n) => store.claimCounts!([claim('k', now + n, now - 1000), claim(`own${n}`, now, 0)])),
    );
    assert.is(first.filter((won) => won.includes('k')).length, 1, 'one winner');
    assert.equal(
      first.map((won) => won.filter((key) => key !== 'k')),
      [['own1'], ['own2'], ['own3']],
      'each key claimed on its own',
    );
    assert.equal(
      await store.claimCounts!([claim('k', now + 10, now - 1000)]),
      [],
      'counts from before the claim: lost',
    );
    assert.equal(await store.claimCounts!([claim('k', now + 10, now + 3)]), ['k'], 'counts since the claim: won');
  },
  'many IPs are all listed when written at once': async (store) => {
    const ips = Array.from({ length: 500 }, (_, i) => `10.0.${i >> 8}.${i & 255}`);
    const versions = await Promise.all(ips.map((ip) => store.put(ip, record(1), { expected: null })));
    assert.ok(versions.every((v) => v !== undefined));
    assert.is(new Set(versions).size, ips.length, 'distinct versions');
    assert.is((await store.list()).length, ips.length);
  },
};

/** Registers and runs the conformance suite for the stores `factory` makes */
export function storeConformance(
  name: string,
  factory: () => Promise<StoreUnderTest>,
  options: StoreConformanceOptions = {},
): void {
  const tests = suite(`store conformance: ${name}`);
  const skips = skipsOf('the store conformance suite', options.skip);
  for (const [title, check] of Object.entries(CHECKS)) {
    const reason = skips.reason(title);
    if (reason !== undefined) {
      tests.skip(`${title} (skipped: ${reason})`, () => {});
      continue;
    }
    tests(title, async () => {
      const first = await factory();
      let current = first;
      const restart = async () => {
        assert.type(first.reopen, 'function', 'the factory gives no reopen(): add it, or skip this test with a reason');
        await current.close?.();
        current = await first.reopen!();
        return current.store;
      };
      try {
        await check(first.store, restart);
      } finally {
        await current.close?.();
      }
    });
  }
  skips.checkUsed();
  tests.run();
}
