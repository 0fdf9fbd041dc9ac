/** The `ip-schedule` operations, bound by operationId, over a compare-and-set schedule store */
import { httpError } from '../../runtime/mod.ts';
import type { GroupingRecord, Handler, HandlerRequest, IpRecord, ScheduleStore, StoredIp } from '../../runtime/mod.ts';
import { offsetMinutes, today } from './dates.ts';
import { canonicalIp } from './ip.ts';
import { toRecord, type IpConfigInput } from './records.ts';
import { groupingStatus } from './schedule.ts';

/** One IP's `"ip":{"groupings":[…]}` member of the GET /status answer, as of a store version and day */
interface EncodedStatus {
  version: number;
  day: number;
  json: Buffer;
}

const OPEN_IPS = Buffer.from('{"ips":{');
const COMMA = Buffer.from(',');
const CLOSE_IPS = Buffer.from('}}');

const GROUPING = /^&[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
/** Compare-and-set attempts before a write under heavy contention gives up */
const MAX_ATTEMPTS = 50;
const SUCCESS = { body: { status: 'success' } };

/** What the handlers need: the store and the time zone days are counted in */
export interface HandlerOptions {
  store: ScheduleStore;
  timezone: string;
}

/** Every operation of the IP schedule API */
export function createHandlers(options: HandlerOptions): Record<string, Handler> {
  const { store, timezone } = options;

  const load = async (request: HandlerRequest): Promise<StoredIp> => {
    const ip = pathIp(request);
    const stored = await store.get(ip);
    if (!stored) throw httpError(404, `IP "${ip}" not found`);
    return stored;
  };

  /** Read-modify-write of one IP, retried when another writer got there first */
  const update = async (request: HandlerRequest, change: (record: IpRecord, ip: string) => IpRecord) => {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const stored = await load(request);
      const version = await store.put(stored.ip, change(stored.record, stored.ip), { expected: stored.version });
      if (version !== undefined) return SUCCESS;
    }
    throw httpError(503, `Too many concurrent writes to IP "${pathIp(request)}": try again`);
  };

  const setPaused = (paused: boolean): Handler => (request) =>
    update(request, (record) => ({ groupings: record.groupings.map((g) => ({ ...g, paused })) }));

  /** Changes the grouping named in the path; the name is checked before the store is read */
  const updateGrouping = (change: (record: IpRecord, index: number) => IpRecord): Handler => (request) => {
    const name = pathGrouping(request);
    return update(request, (record, ip) => change(record, groupingIndex(record, name, ip)));
  };

  const setGroupingPaused = (paused: boolean) =>
    updateGrouping((record, index) => ({ groupings: record.groupings.map((g, i) => (i === index ? { ...g, paused } : g)) }));

  /** The grouping named in the path, with its IP's record */
  const loadGrouping = async (request: HandlerRequest): Promise<GroupingRecord> => {
    const name = pathGrouping(request);
    const { ip, record } = await load(request);
    return record.groupings[groupingIndex(record, name, ip)]!;
  };

  const currentDay = () => today(timezone, new Date());
  // Each IP's encoded status, reused until its record changes (store version) or the day turns: encoding tens of
  // thousands of expanded schedules for every GET /status costs far more than joining the encoded parts
  let statusCache = new Map<string, EncodedStatus>();

  return {
    getConfigAll: async () => {
      const ips: Record<string, IpRecord> = {};
      for (const { ip, record } of await store.list()) ips[ip] = record;
      return { body: { ips } };
    },
    getConfig: async (request) => ({ body: (await load(request)).record }),
    getGroupingConfig: async (request) => ({ body: await loadGrouping(request) }),
    createConfig: async (request) => {
      const ip = pathIp(request);
      const version = await store.put(ip, toRecord(request.body as IpConfigInput), { expected: null });
      if (version === undefined) throw httpError(400, 'IP already exists');
      return SUCCESS;
    },
    replaceConfig: (request) => update(request, (record) => toRecord(request.body as IpConfigInput, record)),
    deleteConfig: async (request) => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const stored = await load(request);
        if (await store.delete(stored.ip, { expected: stored.version })) return SUCCESS;
      }
      throw httpError(503, `Too many concurrent writes to IP "${pathIp(request)}": try again`);
    },
    pauseIp: setPaused(true),
    resumeIp: setPaused(false),
    pauseGrouping: setGroupingPaused(true),
    resumeGrouping: setGroupingPaused(false),
    deleteGrouping: updateGrouping((record, index) => ({ groupings: record.groupings.filter((_, i) => i !== index) })),
    getStatusAll: async () => {
      const day = currentDay();
      const parts: Buffer[] = [OPEN_IPS];
      const fresh = new Map<string, EncodedStatus>();
      for (const stored of await store.list()) {
        const { ip, version } = stored;
        let encoded = statusCache.get(ip);
        if (encoded?.version !== version || encoded.day !== day) {
          // `stored.record` only here: a store may parse records on first access
          const status = JSON.stringify({ groupings: stored.record.groupings.map((g) => groupingStatus(g, day)) });
          encoded = { version, day, json: Buffer.from(`${JSON.stringify(ip)}:${status}`) };
        }
        fresh.set(ip, encoded);
        if (parts.length > 1) parts.push(COMMA);
        parts.push(encoded.json);
      }
      statusCache = fresh;
      parts.push(CLOSE_IPS);
      return { json: parts };
    },
    getStatus: async (request) => {
      const { record } = await load(request);
      const now = new Date();
      const day = today(timezone, now);
      return {
        body: {
          groupings: record.groupings.map((g) => groupingStatus(g, day, { named: true })),
          timezone_offset: offsetMinutes(timezone, now),
        },
      };
    },
    getGroupingStatus: async (request) => ({ body: groupingStatus(await loadGrouping(request), currentDay()) }),
  };
}

function pathIp(request: HandlerRequest): string {
  const text = String(request.params.ip);
  const ip = canonicalIp(text);
  if (ip === undefined) throw httpError(400, `Invalid IP address "${text}"`);
  return ip;
}

function pathGrouping(request: HandlerRequest): string {
  const name = String(request.params.grouping);
  if (!GROUPING.test(name)) {
    throw httpError(400, `Invalid grouping "${name}": must be "&" then 1 to 63 letters, digits, ".", "_" or "-"`);
  }
  return name;
}

function groupingIndex(record: IpRecord, name: string, ip: string): number {
  const index = record.groupings.findIndex((g) => g.grouping === name);
  if (index < 0) throw httpError(404, `Grouping "${name}" of IP "${ip}" not found`);
  return index;
}
