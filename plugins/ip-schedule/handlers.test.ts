import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type {
  GroupingRecord,
  HandlerRequest,
  IpRecord,
  PluginAudit,
  ScheduleStore,
  StoredIp,
} from '../../runtime/mod.ts';
import { startHost } from '../../runtime/mod.ts';
import { document, quietLog, tempDir, writePlugin } from '../../test/host/_fixtures.ts';
import { ScheduleTable } from './table.ts';
import { createHandlers } from './handlers.ts';

const GROUPINGS = 5;
const IPS = 600;

/**
 * A store plugin of `IPS` IPs whose groupings count the reads of `algorithm` in `globalThis.algorithmReads`: the
 * groupings have not started, so the feed and the table never read it, and only encoding a status does; and the
 * listings of the store in `globalThis.listings`. Each is a year
 * long: encoding every IP takes far longer than a start
 */
const dir = tempDir();
const countingStore = writePlugin(dir, 'counting-store', {
  'mod.ts': `
import { definePlugin, Type } from '@capstan';
globalThis.algorithmReads = 0;
globalThis.listings = 0;
const grouping = (name) => ({
  grouping: name,
  mode: 'AUTO',
  start: { date: '2999-01-01', volume: 10 },
  end: { date: '2999-12-31', volume: 100000 },
  paused: false,
  get algorithm() {
    globalThis.algorithmReads++;
    return 'TOKENBUCKET';
  },
  interval: 86400,
  properties: null,
});
const stored = Array.from({ length: ${IPS} }, (_, i) => ({
  ip: '10.0.' + (i >> 8) + '.' + (i & 255),
  version: 1,
  record: { groupings: Array.from({ length: ${GROUPINGS} }, (_, k) => grouping('&g' + k)) },
}));
const store = {
  list: async () => {
    globalThis.listings++;
    return stored;
  },
  // Watched, so that the table reads again only what it is told changed
  watch: async () => () => {},
  get: async (ip) => stored.find((s) => s.ip === ip),
  // A written record counts its encodings as the stored ones do
  put: async (ip, record, condition) => {
    const at = stored.findIndex((s) => s.ip === ip);
    if (at < 0 || stored[at].version !== condition.expected) return undefined;
    // Not spread: a spread would read the counting getter once and copy its value
    const groupings = record.groupings.map((g) => Object.assign(grouping(g.grouping), { end: { ...g.end } }));
    stored[at] = { ip, version: stored[at].version + 1, record: { groupings } };
    return stored[at].version;
  },
  delete: async () => false,
};
export default definePlugin({
  id: 'counting-store',
  kind: 'store',
  apiVersion: '^1.2.0',
  config: Type.Object({}),
  setup: () => ({ service: store }),
});
`,
});

const encoded = () => (globalThis as { algorithmReads?: number }).algorithmReads ?? 0;
const listings = () => (globalThis as { listings?: number }).listings ?? 0;

test('start lists the store once and encodes nothing; idle time encodes each IP once and a written IP again; GET /status nothing', async () => {
  const host = await startHost(
    document([
      { id: 'counting-store', path: countingStore },
      { id: 'ip-schedule', config: { store: 'counting-store' } },
    ]),
    { baseDir: dir, ephemeralPorts: true, log: quietLog },
  );
  try {
    const all = IPS * GROUPINGS;
    assert.is(listings(), 1, 'the feed and the warm-up table start from one listing');
    assert.ok(encoded() < all, `the host listened after encoding ${encoded()} of ${all} groupings: start waited`);
    for (let waited = 0; encoded() < all && waited < 20_000; waited += 50) await sleep(50);
    assert.is(encoded(), all, 'each grouping encoded once in idle time');
    for (let i = 0; i < 2; i++) {
      const answer = (await (await fetch(`${host.urls[0]}/status`)).json()) as { ips: Record<string, unknown> };
      assert.is(Object.keys(answer.ips).length, IPS);
    }
    assert.is(encoded(), all, 'GET /status encoded nothing more');

    // A write: idle time encodes that IP again once writes calm down, so GET /status still encodes nothing
    const groupings = Array.from({ length: GROUPINGS }, (_, k) => ({
      grouping: '&g' + k,
      mode: 'AUTO',
      start: { date: '2999-01-01', volume: 10 },
      end: { date: '2999-12-31', volume: 200_000 },
    }));
    const put = await fetch(`${host.urls[0]}/config/10.0.0.7`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ groupings }),
    });
    assert.is(put.status, 200, await put.text());
    // The write's own answer reads the record back; idle time waits for writes to calm down
    const written = encoded();
    for (let waited = 0; encoded() < written + GROUPINGS && waited < 10_000; waited += 50) await sleep(50);
    await sleep(200);
    assert.is(encoded(), written + GROUPINGS, 'the written IP encoded again in idle time, and only it');
    const answer = (await (await fetch(`${host.urls[0]}/status`)).json()) as {
      ips: Record<string, { groupings: { end: { volume: number } }[] }>;
    };
    assert.is(answer.ips['10.0.0.7']!.groupings[0]!.end.volume, 200_000);
    assert.is(encoded(), written + GROUPINGS, 'GET /status encoded nothing after the write either');
  } finally {
    await host.close();
  }
});

/** A store of `n` IPs of one grouping that counts the reads of its `algorithm` (encoding a status) */
function countingMemory(n: number): { store: ScheduleStore; reads: () => number } {
  let reads = 0;
  const grouping = {
    grouping: '&gmail',
    mode: 'AUTO',
    start: { date: '2026-01-01', volume: 10 },
    end: { date: '2026-01-30', volume: 1000 },
    paused: false,
    get algorithm() {
      reads++;
      return 'TOKENBUCKET';
    },
    interval: 86400,
    properties: null,
  } as GroupingRecord;
  const record: IpRecord = { groupings: [grouping] };
  const stored = Array.from({ length: n }, (_, i): StoredIp => ({
    ip: `10.0.${i >> 8}.${i & 255}`,
    version: 1,
    record,
  }));
  const store = { list: async () => stored, get: async () => undefined } as unknown as ScheduleStore;
  return { store, reads: () => reads };
}

const audit: PluginAudit = { record: (_change, commit) => commit({} as never) };
const request = { params: {}, query: {}, headers: {} } as unknown as HandlerRequest;

test('a client that stops reading stops the encoding', async () => {
  // Enough IPs for several batches: an IP of one 30-day grouping is about 1.6 KB
  const { store, reads } = countingMemory(2000);
  const table = new ScheduleTable(store, () => 0);
  const handlers = createHandlers({ store, timezone: 'UTC', audit, table });
  const batches = (await handlers.getStatusAll!(request)).json as AsyncIterable<Buffer[]>;
  for await (const _ of batches) break;
  assert.ok(reads() < 2000, `encoded ${reads()} of 2000 IPs for a client that took one batch`);
  table.close();
});

test("a CSV import reads the store once for all its IPs, and checks its cells with the spec's limits", async () => {
  const grouping: GroupingRecord = {
    grouping: '&gmail',
    mode: 'AUTO',
    start: { date: '2026-01-01', volume: 10 },
    end: { date: '2026-01-30', volume: 1000 },
    paused: false,
    algorithm: 'TOKENBUCKET',
    interval: 86400,
    properties: null,
  };
  const stored = Array.from({ length: 3 }, (_, i): StoredIp => ({
    ip: `192.0.2.${i}`,
    version: 1,
    record: { groupings: [grouping] },
  }));
  const reads = { get: 0, list: 0 };
  const store = {
    get: async (ip: string) => (reads.get++, stored.find((s) => s.ip === ip)),
    list: async () => (reads.list++, stored),
  } as unknown as ScheduleStore;
  const handlers = createHandlers({ store, timezone: 'UTC', audit, table: new ScheduleTable(store, () => 0) });
  const lines = Array.from({ length: 5 }, (_, i) => `192.0.2.${i},&gmail,AUTO,2026-01-01,10,2026-01-30,1000,,,86401`);
  lines.push('192.0.2.9,&gmail,AUTO,2026-01-01,10,2026-01-30,1000,,,31536001');
  const body = Buffer.from(
    `ip,grouping,mode,start_date,start_volume,end_date,end_volume,schedule,algorithm,interval\n${lines.join('\n')}\n`,
  );
  const { body: answer } = await handlers.importSchedules!({ ...request, query: { dry_run: true }, body });
  const { changes, errors } = answer as { changes: { change: string }[]; errors: unknown[] };
  assert.equal(
    changes.map((c) => c.change),
    ['update', 'update', 'update', 'create', 'create'],
  );
  assert.equal(errors, [{ line: 7, error: 'Invalid "interval" "31536001": must be <= 31536000' }]);
  assert.equal(reads, { get: 0, list: 1 });
});

test.run();
