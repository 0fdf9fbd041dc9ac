import { EventEmitter } from 'node:events';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { IpRecord, ScheduleStore, StoreChangeListener, StoredIp } from '../../../runtime/mod.ts';
import { PolicyFeed, type Clock } from './feed.ts';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** A clock whose timers run when the test moves time on */
class FakeClock implements Clock {
  time: number;
  timers = new Map<number, { run: () => void; at: number }>();
  #next = 0;
  constructor(iso: string) {
    this.time = Date.parse(iso);
  }
  now = () => this.time;
  setTimeout = (run: () => void, ms: number) => {
    this.timers.set(++this.#next, { run, at: this.time + ms });
    return this.#next;
  };
  clearTimeout = (handle: unknown) => void this.timers.delete(handle as number);
  /** Moves time on by `ms`, running the timers that fall due, in order */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = until;
  }
}

/** A store in memory whose reads can be made to fail */
class TestStore implements ScheduleStore {
  ips = new Map<string, StoredIp>();
  failReads = 0;
  listener: StoreChangeListener | undefined;
  #version = 0;
  async get(ip: string) {
    if (this.failReads-- > 0) throw new Error('connection lost');
    return this.ips.get(ip);
  }
  async list() {
    return [...this.ips.values()];
  }
  async put(ip: string, record: IpRecord) {
    this.ips.set(ip, { ip, record, version: ++this.#version });
    this.listener?.({ ip });
    return this.#version;
  }
  async delete(ip: string) {
    this.listener?.({ ip });
    return this.ips.delete(ip);
  }
  async watch(listener: StoreChangeListener) {
    this.listener = listener;
    return () => (this.listener = undefined);
  }
}

/** The unmasked text frames in `data` (whole ones only, as the replay writes them), parsed */
function frames(data: Buffer): any[] {
  const parsed = [];
  for (let at = 0; at < data.length;) {
    let length = data[at + 1]!;
    let start = at + 2;
    if (length === 126) [length, start] = [data.readUInt16BE(at + 2), at + 4];
    else if (length === 127) [length, start] = [Number(data.readBigUInt64BE(at + 2)), at + 10];
    parsed.push(JSON.parse(data.subarray(start, start + length).toString()));
    at = start + length;
  }
  return parsed;
}

/** Enough of a ws WebSocket for the feed: records what is sent, through ws or to its socket */
class FakeSocket extends EventEmitter {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  sent: any[] = [];
  _socket = Object.assign(new EventEmitter(), { write: (data: Buffer) => (this.sent.push(...frames(data)), true) });
  send(data: Buffer, _options: unknown, done?: (error?: Error) => void) {
    this.sent.push(JSON.parse(data.toString()));
    done?.();
  }
  ping() {}
  terminate() {
    this.readyState = 3;
    this.emit('close');
  }
}

const grouping = (start: string) => ({
  grouping: '&gmail',
  mode: 'AUTO' as const,
  start: { date: start, volume: 100 },
  end: { date: '2025-03-20', volume: 1000 },
  paused: false,
  algorithm: 'TOKENBUCKET' as const,
  interval: 86400,
  properties: null,
});
const turn = () => new Promise((done) => setImmediate(done));

async function startFeed(iso: string, store = new TestStore()) {
  const clock = new FakeClock(iso);
  const feed = await PolicyFeed.start({
    store,
    timezone: 'Europe/Stockholm',
    log: silent,
    maxBufferedBytes: 1 << 20,
    pingIntervalMs: 60_000,
    clock,
  });
  const socket = new FakeSocket();
  feed.connect(socket as never);
  // The replay is written on the next turn of the event loop
  await turn();
  return { clock, feed, store, socket };
}

test("the feed sends the day's UPDATE at local midnight from one timer set for it", async () => {
  const store = new TestStore();
  await store.put('192.0.2.1', { groupings: [grouping('2025-03-10')] });
  // 23:59 in Stockholm (UTC+1)
  const { clock, feed, socket } = await startFeed('2025-03-10T22:59:00Z', store);
  assert.equal(
    socket.sent.map((f) => f.action),
    ['VERSION', 'CREATE', 'SYNCED'],
  );
  assert.is(socket.sent[1].policy.then.tag, 'Day_1');
  assert.equal(
    [...clock.timers.values()].map((t) => t.at - clock.time),
    [60_000],
    'one timer, due at midnight',
  );
  clock.advance(59_999);
  assert.is(socket.sent.length, 3, 'nothing before midnight');
  clock.advance(1);
  assert.equal(
    socket.sent.slice(3).map((f) => `${f.action} ${f.policy.then.tag} ${f.policy.then.rate.count}`),
    ['UPDATE Day_2 126'],
  );
  assert.equal(
    [...clock.timers.values()].map((t) => t.at - clock.time),
    [86_400_000],
    'the next midnight is set',
  );
  feed.close();
});

test('the feed creates a policy at the midnight a schedule starts and deletes it at the midnight after its end', async () => {
  const store = new TestStore();
  await store.put('192.0.2.1', { groupings: [{ ...grouping('2025-03-11'), end: { date: '2025-03-11', volume: 5 } }] });
  const { clock, feed, socket } = await startFeed('2025-03-10T12:00:00Z', store);
  assert.equal(socket.sent[1], {
    action: 'CREATE',
    suspend: { id: 'warmup-hold:192.0.2.1', type: 'WARMUP', localip: '192.0.2.1', tag: 'Hold' },
  });
  clock.advance(12 * 3_600_000);
  assert.equal(
    socket.sent.slice(3).map((f) => `${f.action} ${f.policy?.id ?? f.suspend.id}`),
    ['CREATE warmup:192.0.2.1:&gmail', 'DELETE warmup-hold:192.0.2.1'],
  );
  clock.advance(86_400_000);
  assert.equal(
    socket.sent.slice(5).map((f) => `${f.action} ${f.policy?.id ?? f.suspend.id}`),
    ['DELETE warmup:192.0.2.1:&gmail'],
  );
  feed.close();
});

test('settled waits for the notices given before it, and changes go out to connected clients', async () => {
  const { feed, store, socket } = await startFeed('2025-03-12T12:00:00Z');
  await store.put('192.0.2.1', { groupings: [grouping('2025-03-10')] });
  await feed.settled();
  assert.is(feed.snapshot().policies.length, 1);
  assert.equal(
    socket.sent.map((f) => f.action),
    ['VERSION', 'SYNCED', 'CREATE'],
  );
  feed.close();
});

test('the feed reads everything again a second after the store failed, and catches up', async () => {
  const { clock, feed, store, socket } = await startFeed('2025-03-12T12:00:00Z');
  store.failReads = 1;
  await store.put('192.0.2.1', { groupings: [grouping('2025-03-10')] });
  await feed.settled();
  assert.is(feed.snapshot().policies.length, 0, 'the read failed');
  clock.advance(1000);
  await feed.settled();
  await turn();
  assert.is(feed.snapshot().policies.length, 1);
  assert.equal(socket.sent.at(-1).action, 'CREATE');
  feed.close();
});

test('a client that falls too far behind is cut off; the others keep getting changes', async () => {
  const { feed, store, socket } = await startFeed('2025-03-12T12:00:00Z');
  const slow = new FakeSocket();
  feed.connect(slow as never);
  slow.bufferedAmount = (1 << 20) + 1;
  await store.put('192.0.2.1', { groupings: [grouping('2025-03-10')] });
  await feed.settled();
  assert.is(slow.readyState, 3, 'terminated');
  assert.is(feed.clients, 1);
  assert.equal(socket.sent.at(-1).action, 'CREATE');
  feed.close();
});

test.run();
