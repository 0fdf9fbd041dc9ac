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
import { ScheduleTable } from './table.ts';
import { createHandlers } from './handlers.ts';

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

/** A store of `n` IPs that counts how often a record is read (what encoding a status costs) */
function countingStore(n: number): { store: ScheduleStore; reads: () => number } {
  let reads = 0;
  const record: IpRecord = Object.freeze({ groupings: Object.freeze([grouping]) }) as IpRecord;
  const stored = Array.from({ length: n }, (_, i): StoredIp => ({
    ip: `192.0.2.${i}`,
    version: 1,
    get record() {
      reads++;
      return record;
    },
  }));
  const store = { list: async () => stored, get: async () => undefined } as unknown as ScheduleStore;
  return { store, reads: () => reads };
}

const audit: PluginAudit = { record: (_change, commit) => commit({} as never) };
const request = { params: {}, query: {}, headers: {} } as unknown as HandlerRequest;

/** The whole GET /status answer, its batches read as a client would */
async function answered(handlers: ReturnType<typeof createHandlers>): Promise<{ ips: Record<string, unknown> }> {
  const parts: Buffer[] = [];
  const { json } = await handlers.getStatusAll!(request);
  for await (const batch of json as AsyncIterable<Buffer[]>) parts.push(...batch);
  return JSON.parse(Buffer.concat(parts).toString());
}

test('nothing is encoded until GET /status asks, then each IP once until its record changes', async () => {
  const { store, reads } = countingStore(50);
  const handlers = createHandlers({ store, timezone: 'UTC', audit, table: new ScheduleTable(store, () => 0) });
  await sleep(100);
  assert.is(reads(), 0, 'nothing encoded at start');
  assert.is(Object.keys((await answered(handlers)).ips).length, 50);
  assert.is(reads(), 50, 'each IP encoded by the first request');
  assert.is(Object.keys((await answered(handlers)).ips).length, 50);
  assert.is(reads(), 50, 'the second request encoded nothing');
});

test('a client that stops reading stops the encoding', async () => {
  // Enough IPs for several batches: an IP of one 30-day grouping is about 1.6 KB
  const { store, reads } = countingStore(2000);
  const handlers = createHandlers({ store, timezone: 'UTC', audit, table: new ScheduleTable(store, () => 0) });
  const batches = (await handlers.getStatusAll!(request)).json as AsyncIterable<Buffer[]>;
  for await (const _ of batches) break;
  assert.ok(reads() < 2000, `encoded ${reads()} of 2000 IPs for a client that took one batch`);
});

test("a CSV import reads the store once for all its IPs, and checks its cells with the spec's limits", async () => {
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
