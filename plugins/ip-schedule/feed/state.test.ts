import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { GroupingRecord, IpRecord } from '../../../runtime/mod.ts';
import { parseDate } from '../dates.ts';
import { diff, feedObject, frame, type FeedChange } from './protocol.ts';
import { PolicyState } from './state.ts';

const IP = '192.0.2.1';
const TODAY = parseDate('2025-03-10')!;
const auto = (grouping: string, start: string, extra: Partial<GroupingRecord> = {}): GroupingRecord => ({
  grouping,
  mode: 'AUTO',
  start: { date: start, volume: 100 },
  end: { date: '2025-03-19', volume: 51_200 },
  paused: false,
  algorithm: 'TOKENBUCKET',
  interval: 86400,
  properties: null,
  ...extra,
});
const stored = (version: number, ...groupings: GroupingRecord[]): { version: number; record: IpRecord } => ({
  version,
  record: { groupings },
});
/** Changes as `ACTION kind id` */
const summary = (changes: FeedChange[]) => changes.map((c) => `${c.action} ${c.object.kind} ${c.object.id}`);

test('a resume creates the policy before it deletes the hold, so the IP is never left open', () => {
  const state = new PolicyState(TODAY);
  state.setIp(IP, stored(1, auto('&gmail', '2025-03-08', { paused: true })));
  assert.equal(summary(state.setIp(IP, stored(2, auto('&gmail', '2025-03-08')))), [
    `CREATE policy warmup:${IP}:&gmail`,
    `DELETE suspend warmup-hold:${IP}`,
  ]);
});

test('a pause of the last running grouping creates the hold before it deletes the policy', () => {
  const state = new PolicyState(TODAY);
  state.setIp(IP, stored(1, auto('&gmail', '2025-03-08')));
  assert.equal(summary(state.setIp(IP, stored(2, auto('&gmail', '2025-03-08', { paused: true })))), [
    `CREATE suspend warmup-hold:${IP}`,
    `DELETE policy warmup:${IP}:&gmail`,
  ]);
});

test('a change of volumes, interval, algorithm or properties is an UPDATE', () => {
  const state = new PolicyState(TODAY);
  state.setIp(IP, stored(1, auto('&gmail', '2025-03-08')));
  const changes = state.setIp(
    IP,
    stored(2, auto('&gmail', '2025-03-08', { interval: 3600, algorithm: 'FIXEDWINDOW', properties: { a: 'b' } })),
  );
  assert.equal(summary(changes), [`UPDATE policy warmup:${IP}:&gmail`]);
  assert.equal(JSON.parse(frame(changes[0]!).toString()).policy.then, {
    rate: { count: 311, interval: 3600, algorithm: 'FIXEDWINDOW' },
    tag: 'Day_3',
    properties: { a: 'b' },
  });
});

test('the day turning updates every running policy and starts and ends schedules', () => {
  const state = new PolicyState(TODAY);
  state.setIp(IP, stored(1, auto('&gmail', '2025-03-08'), auto('&yahoo', '2025-03-11')));
  state.setIp('192.0.2.2', stored(2, auto('&gmail', '2025-03-10', { end: { date: '2025-03-10', volume: 5 } })));
  assert.equal(summary(state.setDay(TODAY + 1)), [
    `UPDATE policy warmup:${IP}:&gmail`,
    `CREATE policy warmup:${IP}:&yahoo`,
    'DELETE policy warmup:192.0.2.2:&gmail',
  ]);
  assert.equal(state.setDay(TODAY + 1), [], 'the same day again changes nothing');
});

test('an unchanged version is not derived again, and a deleted IP deletes everything it had', () => {
  const state = new PolicyState(TODAY);
  state.setIp(IP, stored(1, auto('&gmail', '2025-03-08'), auto('&yahoo', '2025-03-08')));
  assert.equal(state.setIp(IP, stored(1)), [], 'same version');
  assert.equal(summary(state.setIp(IP, undefined)), [
    `DELETE policy warmup:${IP}:&gmail`,
    `DELETE policy warmup:${IP}:&yahoo`,
  ]);
  assert.equal(state.snapshot(), { policies: [], suspends: [], shadow: { policies: [], suspends: [] } });
});

test('replaceAll deletes the IPs a full re-read no longer has', () => {
  const state = new PolicyState(TODAY);
  state.setIp(IP, stored(1, auto('&gmail', '2025-03-08')));
  state.setIp('192.0.2.2', stored(2, auto('&gmail', '2025-03-08')));
  const changes = state.replaceAll([{ ip: '192.0.2.2', ...stored(3, auto('&gmail', '2025-03-08', { interval: 60 })) }]);
  assert.equal(summary(changes), ['UPDATE policy warmup:192.0.2.2:&gmail', `DELETE policy warmup:${IP}:&gmail`]);
});

test('the snapshot lists policies and suspensions sorted by id and is rebuilt only after a change', () => {
  const state = new PolicyState(TODAY);
  state.setIp('192.0.2.9', stored(1, auto('&b', '2025-03-08'), auto('&a', '2025-03-08')));
  state.setIp('192.0.2.3', stored(2, auto('&a', '2025-04-01')));
  const first = state.snapshot();
  assert.equal(
    first.policies.map((o) => o.id),
    ['warmup:192.0.2.9:&a', 'warmup:192.0.2.9:&b'],
  );
  assert.equal(
    first.suspends.map((o) => o.id),
    ['warmup-hold:192.0.2.3'],
  );
  assert.is(state.snapshot(), first);
  state.setIp('192.0.2.3', undefined);
  assert.is.not(state.snapshot(), first);
});

test('applied policies join the snapshot until they lapse, and an escalated one is an UPDATE', () => {
  const state = new PolicyState(TODAY);
  const now = Date.parse('2025-03-10T12:00:00Z');
  const policy = (level: number, expires: number) => ({
    id: 'backoff:X?localip=a',
    kind: 'policy' as const,
    level,
    expires,
    object: {
      id: 'backoff:X?localip=a',
      type: 'BACKOFF',
      fields: ['LOCALIP'],
      if: { localip: 'a' },
      then: { concurrency: 4 >> level, tag: 'X' },
      ttl: 60 << level,
    },
  });
  const suspend = {
    id: 'backoff:Y?jobid=j',
    kind: 'suspend' as const,
    level: 0,
    expires: now + 1000,
    object: { id: 'backoff:Y?jobid=j', type: 'BACKOFF', jobid: 'j', tag: 'Y', ttl: 1 },
  };
  assert.equal(
    summary(state.setApplied([policy(0, now + 60_000), suspend, { ...suspend, id: 'old', expires: now }], now)),
    ['CREATE policy backoff:X?localip=a', 'CREATE suspend backoff:Y?jobid=j'],
  );
  assert.equal(
    state.snapshot().suspends.map((o) => o.id),
    ['backoff:Y?jobid=j'],
  );
  assert.equal(state.setApplied([policy(0, now + 60_000), suspend], now), [], 'read back unchanged');
  assert.equal(summary(state.setApplied([policy(1, now + 120_000), suspend], now + 1000)), [
    'UPDATE policy backoff:X?localip=a',
    'DELETE suspend backoff:Y?jobid=j',
  ]);
});

test('diff deletes and creates a policy whose type, fields or if changed, and any changed suspension', () => {
  const p = (then: object, extra: object = {}) =>
    feedObject('policy', { id: 'p', type: 'WARMUP', fields: ['LOCALIP'], if: { localip: IP }, then, ...extra });
  const s = (tag: string) => feedObject('suspend', { id: 's', type: 'WARMUP', localip: IP, tag });
  const map = (...objects: ReturnType<typeof feedObject>[]) => new Map(objects.map((o) => [`${o.kind}:${o.id}`, o]));
  assert.equal(summary(diff(map(p({ tag: 'a' })), map(p({ tag: 'b' })))), ['UPDATE policy p']);
  assert.equal(
    summary(diff(map(p({ tag: 'a' })), map(p({ tag: 'a' }, { ttl: 60 })))),
    ['UPDATE policy p'],
    'ttl is an update',
  );
  assert.equal(summary(diff(map(p({})), map(p({}, { if: { localip: '192.0.2.2' } })))), [
    'DELETE policy p',
    'CREATE policy p',
  ]);
  assert.equal(summary(diff(map(p({})), map(p({}, { fields: ['LOCALIP', 'GROUPING'] })))), [
    'DELETE policy p',
    'CREATE policy p',
  ]);
  assert.equal(summary(diff(map(p({})), map(p({}, { type: 'BACKOFF' })))), ['DELETE policy p', 'CREATE policy p']);
  assert.equal(summary(diff(map(s('a')), map(s('b')))), ['DELETE suspend s', 'CREATE suspend s']);
  assert.equal(summary(diff(map(p({})), map(p({})))), []);
});

test("frames are the protocol's JSON text: action and the object under policy or suspend", () => {
  const object = feedObject('suspend', { id: 's', type: 'WARMUP', localip: IP });
  assert.equal(JSON.parse(frame({ action: 'DELETE', object }).toString()), {
    action: 'DELETE',
    suspend: { id: 's', type: 'WARMUP', localip: IP },
  });
});

test('status counts follow record writes, deletes and the day turning, from the records held', () => {
  const state = new PolicyState(TODAY);
  state.setIp(IP, stored(1, auto('&gmail', '2025-03-08'), auto('&yahoo', '2025-03-11')));
  state.setIp('192.0.2.2', stored(1, auto('&gmail', '2025-03-10', { paused: true })));
  const first = state.statusCounts();
  assert.equal(first, { NOTSTARTED: 1, ONSCHEDULE: 1, PAUSED: 1, FINISHED: 0 });
  assert.is(state.statusCounts(), first, 'the same object until something changes');
  state.setIp(IP, stored(1, auto('&gmail', '2025-03-08')));
  assert.is(state.statusCounts(), first, 'an unchanged version changes nothing');
  state.setIp('192.0.2.2', undefined);
  assert.equal(state.statusCounts(), { NOTSTARTED: 1, ONSCHEDULE: 1, PAUSED: 0, FINISHED: 0 });
  state.setDay(parseDate('2025-03-20')!);
  assert.equal(state.statusCounts(), { NOTSTARTED: 0, ONSCHEDULE: 0, PAUSED: 0, FINISHED: 2 });
});

test.run();
