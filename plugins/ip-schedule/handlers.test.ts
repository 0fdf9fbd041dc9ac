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

test('with warmStatus every IP is encoded in the background from start, and the first GET /status encodes nothing', async () => {
  const { store, reads } = countingStore(50);
  const handlers = createHandlers({
    store,
    timezone: 'UTC',
    audit,
    table: new ScheduleTable(store, () => 0),
    warmStatus: true,
  });
  for (let waited = 0; reads() < 50 && waited < 5000; waited += 10) await sleep(10);
  assert.is(reads(), 50, 'encoded before any request');
  const answer = await handlers.getStatusAll!(request);
  assert.is(reads(), 50, 'the request found every IP encoded');
  assert.equal(Object.keys(JSON.parse(Buffer.concat(answer.json as Buffer[]).toString()).ips).length, 50);
});

test('without it nothing is encoded until asked', async () => {
  const { store, reads } = countingStore(50);
  const handlers = createHandlers({ store, timezone: 'UTC', audit, table: new ScheduleTable(store, () => 0) });
  await sleep(100);
  assert.is(reads(), 0);
  await handlers.getStatusAll!(request);
  assert.is(reads(), 50);
});

test.run();
