/** The `ip-schedule` operations, bound by operationId, over a compare-and-set schedule store */
import { components } from '../../generated/validators/ip-schedule.ts';
import { errors } from './errors.ts';
import type {
  AuditChange,
  GroupingRecord,
  Handler,
  HandlerRequest,
  HandlerResult,
  IpRecord,
  PluginAudit,
  ScheduleStore,
  StoredIp,
} from '../../runtime/mod.ts';
import { compileChecker } from '../../runtime/mod.ts';
import { offsetMinutes, today } from './dates.ts';
import { canonicalIp } from './ip.ts';
import { toRecord, type IpConfigInput } from './records.ts';
import { groupingStatus } from './schedule.ts';
import { bulkHandlers } from './bulk.ts';
import { csvHandlers } from './csv.ts';
import { isTableQuery, statusRowJson, type ScheduleTable, type TableQuery } from './table.ts';
import { copyEncoded, encodeIpStatus, JsonWriter, timeSlice, writeGroupingStatus } from './status-json.ts';

// The spec's GroupingName: the path parameter is a bare string there (so a bad name keeps its own error), checked here
const checkGroupingName = compileChecker({ $ref: '#/components/schemas/GroupingName', components });
/** Compare-and-set attempts before a write under heavy contention gives up */
const MAX_ATTEMPTS = 50;
/** Writes one IP may have waiting; past it a client is better told to come back than left hanging */
const MAX_WAITING_WRITES = 128;
/** Seconds a refused writer is asked to wait: about what the waiting writes of one IP take to commit */
const RETRY_AFTER = 1;
/** Longest the status encoders hold the event loop before letting other requests run */
const SLICE_MS = 10;
const SUCCESS = { body: { status: 'success' } };
const OPEN_GROUPINGS = Buffer.from('{"groupings":[');
/**
 * Bytes GET /status writes at a time: enough that writes are few, few enough that the client reads the first while
 * the next are encoded
 */
const BATCH_BYTES = 512 * 1024;

/** What the handlers need: the store and the time zone days are counted in */
export interface HandlerOptions {
  store: ScheduleStore;
  timezone: string;
  /** Told of every write this host committed (the policy feed), before its answer is sent */
  changed?: (ip: string) => void;
  /** Records every write with the store, in its commit (`ctx.audit`) */
  audit: PluginAudit;
  /** The table pages and bulk selections are served from */
  table: ScheduleTable;
}

/** A write's action and subject; `before`/`after` are the IP's records, or the grouping's when `grouping` is named */
interface Audited {
  action: string;
  grouping?: string;
  reason?: Record<string, unknown>;
}

/** What a write of one IP does to the record it reads (`undefined`: none): `next` null deletes the IP */
export interface IpChange extends Audited {
  next: IpRecord | null;
}

/**
 * Read-modify-write of one IP by the bulk and import routes, with the single routes' queue, compare-and-set and
 * audit entry: `change` sees the current record (undefined: no such IP) and may run again after a lost
 * compare-and-set. Answers whether it wrote, or `busy` when the IP's queue was full or the writes kept losing
 */
export type IpWriter = (
  ip: string,
  principal: string | undefined,
  change: (record: IpRecord | undefined) => IpChange | undefined,
) => Promise<boolean | 'busy'>;

/** Every operation of the IP schedule API */
export function createHandlers(options: HandlerOptions): Record<string, Handler> {
  const { store, timezone, audit, table } = options;
  // Before the answer: a table page asked right after this write must show it, whenever the store's notice comes
  const changed = (ip: string) => {
    table.invalidate(ip);
    options.changed?.(ip);
  };

  const written = (ip: string): HandlerResult => {
    changed(ip);
    return SUCCESS;
  };

  const load = async (request: HandlerRequest): Promise<StoredIp> => {
    const ip = pathIp(request);
    const stored = await store.get(ip);
    if (!stored) throw errors.SCHEDULE_ERR_IP_NOT_FOUND(ip);
    return stored;
  };

  // Writes to one IP run one after another: racing read-modify-writes lose the compare-and-set to each other, and
  // a crowd of them ran out of attempts; queued, each commits at its first attempt unless another host wrote
  const queues = new Map<string, { tail: Promise<unknown>; waiting: number }>();
  const serialised = async <T = HandlerResult>(
    ip: string,
    write: () => Promise<T>,
    full: () => T = () => busy(`Too many writes waiting for IP "${ip}"`) as T,
  ): Promise<T> => {
    let queue = queues.get(ip);
    if (!queue) queues.set(ip, (queue = { tail: Promise.resolve(), waiting: 0 }));
    if (queue.waiting >= MAX_WAITING_WRITES) return full();
    queue.waiting++;
    const run = queue.tail.then(write);
    queue.tail = run.catch(() => undefined);
    try {
      return await run;
    } finally {
      if (--queue.waiting === 0) queues.delete(ip);
    }
  };

  /** The audit change of a write of `ip` from `before` to `after` (records; undefined: none) */
  const auditChange = (
    request: Pick<HandlerRequest, 'principal'>,
    ip: string,
    what: Audited,
    before?: IpRecord,
    after?: IpRecord,
  ): AuditChange => {
    const pick = (record?: IpRecord) =>
      (what.grouping === undefined ? record : record?.groupings.find((g) => g.grouping === what.grouping)) ?? null;
    const subject: Record<string, string> = what.grouping === undefined ? { ip } : { ip, grouping: what.grouping };
    return {
      action: what.action,
      subject,
      principal: request.principal,
      before: pick(before),
      after: pick(after),
      ...(what.reason ? { reason: what.reason } : {}),
    };
  };

  /**
   * Writes `next` over the `stored` version of `ip` (null: deletes the IP; `stored` undefined: creates it) with its
   * audit entry, as one compare-and-set: answers whether it won
   */
  const commit = async (
    request: Pick<HandlerRequest, 'principal'>,
    write: Audited & { ip: string; stored: StoredIp | undefined; next: IpRecord | null },
  ): Promise<boolean> => {
    const { ip, stored, next } = write;
    const done = await audit.record<number | boolean | undefined>(
      auditChange(request, ip, write, stored?.record, next ?? undefined),
      (entry) =>
        next === null
          ? store.delete(ip, { expected: stored!.version }, { audit: entry })
          : store.put(ip, next, { expected: stored?.version ?? null }, { audit: entry }),
    );
    return done !== undefined && done !== false;
  };

  /**
   * Read-modify-write of `ip` in its queue: `attempt` reads, changes and commits, answering undefined when another
   * host's writer won the compare-and-set; it runs again then, `MAX_ATTEMPTS` times at most before `lost` answers
   */
  const retried = <T>(
    ip: string,
    attempt: () => Promise<T | undefined>,
    options: { lost: () => T; full?: () => T },
  ): Promise<T> =>
    serialised<T>(
      ip,
      async () => {
        for (let count = 0; count < MAX_ATTEMPTS; count++) {
          const done = await attempt();
          if (done !== undefined) return done;
        }
        return options.lost();
      },
      options.full,
    );

  const tooMany = (ip: string) => () => busy(`Too many concurrent writes to IP "${ip}"`);

  const writeIp: IpWriter = (ip, principal, change) =>
    retried<boolean | 'busy'>(
      ip,
      async () => {
        const stored = await store.get(ip);
        const wanted = change(stored?.record);
        if (!wanted) return false;
        if (!(await commit({ principal }, { ...wanted, ip, stored }))) return undefined;
        changed(ip);
        return true;
      },
      { lost: () => 'busy', full: () => 'busy' },
    );

  /** Read-modify-write of one IP, retried when another host's writer got there first */
  const update = (request: HandlerRequest, what: Audited, change: (record: IpRecord, ip: string) => IpRecord) => {
    const ip = pathIp(request);
    return retried(
      ip,
      async () => {
        const stored = await load(request);
        const next = change(stored.record, stored.ip);
        return (await commit(request, { ...what, ip: stored.ip, stored, next })) ? written(stored.ip) : undefined;
      },
      { lost: tooMany(ip) },
    );
  };

  const setPaused =
    (paused: boolean): Handler =>
    (request) =>
      update(request, { action: paused ? 'schedule.pause' : 'schedule.resume' }, (record) => ({
        groupings: record.groupings.map((g) => ({ ...g, paused })),
      }));

  /** Changes the grouping named in the path; the name is checked before the store is read */
  const updateGrouping =
    (action: string, change: (record: IpRecord, index: number) => IpRecord): Handler =>
    (request) => {
      const name = pathGrouping(request);
      return update(request, { action, grouping: name }, (record, ip) =>
        change(record, groupingIndex(record, name, ip)),
      );
    };

  const setGroupingPaused = (paused: boolean) =>
    updateGrouping(paused ? 'schedule.pause' : 'schedule.resume', (record, index) => ({
      groupings: record.groupings.map((g, i) => (i === index ? { ...g, paused } : g)),
    }));

  /** The grouping named in the path, with its IP's record */
  const loadGrouping = async (request: HandlerRequest): Promise<GroupingRecord> => {
    const name = pathGrouping(request);
    const { ip, record } = await load(request);
    return record.groupings[groupingIndex(record, name, ip)]!;
  };

  const currentDay = () => today(timezone, new Date());

  /**
   * The GET /status answer from each IP's member the warm-up table keeps (encoded in idle time, or here where its
   * record or the day changed since), copied into batches of about `BATCH_BYTES`: one write each rather than one per
   * IP and shared schedule, and a request that finds IPs to encode sends the first batch while it encodes the next
   */
  async function* statusBatches(listed: readonly StoredIp[], day: number): AsyncGenerator<Buffer[]> {
    const slice = timeSlice(SLICE_MS);
    const out = new JsonWriter();
    let batch = Buffer.allocUnsafe(BATCH_BYTES);
    let at = batch.write('{"ips":{', 'latin1');
    for (const [index, stored] of listed.entries()) {
      const { ip, version } = stored;
      let json = table.statusOf(ip, version, day);
      if (!json) {
        // `stored.record` only here: a store may parse records on first access
        json = await encodeIpStatus(out, ip, stored.record.groupings, day, slice);
        table.keepStatus(ip, version, day, json);
      }
      // Room for the comma and the closing braces
      if (at + json.length + 3 > batch.length) {
        yield [batch.subarray(0, at)];
        batch = Buffer.allocUnsafe(Math.max(BATCH_BYTES, json.length + 3));
        at = 0;
      }
      if (index > 0) batch[at++] = 0x2c;
      at = copyEncoded(json, batch, at);
    }
    at += batch.write('}}', at, 'latin1');
    yield [batch.subarray(0, at)];
  }

  return {
    ...bulkHandlers({ table, write: writeIp }),
    ...csvHandlers({ table, store, write: writeIp }),
    getConfigAll: async (request) => {
      if (isTableQuery(request.query)) {
        const page = await table.page(request.query as TableQuery);
        const rows = page.rows.map((row) => ({ ip: row.ip, config: row.config }));
        return {
          headers: { 'X-Total-Count': String(page.total) },
          body: { rows, total: page.total, offset: page.offset, limit: page.limit },
        };
      }
      const ips: Record<string, IpRecord> = {};
      for (const { ip, record } of await store.list()) ips[ip] = record;
      return { body: { ips } };
    },
    getConfig: async (request) => ({ body: (await load(request)).record }),
    getGroupingConfig: async (request) => ({ body: await loadGrouping(request) }),
    createConfig: (request) => {
      const ip = pathIp(request);
      const record = toRecord(request.body as IpConfigInput);
      return serialised(ip, async () => {
        const what = { action: 'schedule.create', ip, stored: undefined, next: record };
        if (!(await commit(request, what))) throw errors.SCHEDULE_ERR_IP_EXISTS();
        return written(ip);
      });
    },
    replaceConfig: (request) =>
      update(request, { action: 'schedule.update' }, (record) => toRecord(request.body as IpConfigInput, record)),
    deleteConfig: (request) => {
      const ip = pathIp(request);
      return retried(
        ip,
        async () => {
          const stored = await load(request);
          const what = { action: 'schedule.delete', ip: stored.ip, stored, next: null };
          return (await commit(request, what)) ? written(stored.ip) : undefined;
        },
        { lost: tooMany(ip) },
      );
    },
    pauseIp: setPaused(true),
    resumeIp: setPaused(false),
    pauseGrouping: setGroupingPaused(true),
    resumeGrouping: setGroupingPaused(false),
    deleteGrouping: updateGrouping('schedule.delete', (record, index) => ({
      groupings: record.groupings.filter((_, i) => i !== index),
    })),
    getStatusAll: async (request) => {
      if (isTableQuery(request.query)) {
        const page = await table.page(request.query as TableQuery);
        const json = `{"rows":[${page.rows.map(statusRowJson).join(',')}],"total":${page.total},"offset":${page.offset},"limit":${page.limit}}`;
        return { headers: { 'X-Total-Count': String(page.total) }, json };
      }
      // The table first catches up with the writes it was told of, so that it holds the versions listed next
      await table.rows();
      return { json: statusBatches(await store.list(), currentDay()) };
    },
    getStatus: async (request) => {
      const { record } = await load(request);
      const now = new Date();
      const day = today(timezone, now);
      const slice = timeSlice(SLICE_MS);
      const out = new JsonWriter();
      const parts: Buffer[] = [OPEN_GROUPINGS];
      for (const [index, grouping] of record.groupings.entries()) {
        if (index > 0) out.ascii(',');
        writeGroupingStatus(out, grouping, day, true);
        parts.push(out.take());
        await slice();
      }
      parts.push(Buffer.from(`],"timezone_offset":${offsetMinutes(timezone, now)}}`));
      return { json: parts };
    },
    getGroupingStatus: async (request) => ({ body: groupingStatus(await loadGrouping(request), currentDay()) }),
  };
}

/** A 503 asking the client to retry: the write was not applied */
function busy(reason: string): HandlerResult {
  return {
    status: 503,
    headers: { 'Retry-After': String(RETRY_AFTER) },
    body: { error: `${reason}: retry after "${RETRY_AFTER}" s` },
  };
}

function pathIp(request: HandlerRequest): string {
  const text = String(request.params.ip);
  const ip = canonicalIp(text);
  if (ip === undefined) throw errors.SCHEDULE_ERR_IP_INVALID(text);
  return ip;
}

function pathGrouping(request: HandlerRequest): string {
  const name = String(request.params.grouping);
  if (checkGroupingName(name)) {
    throw errors.SCHEDULE_ERR_GROUPING_INVALID(name);
  }
  return name;
}

function groupingIndex(record: IpRecord, name: string, ip: string): number {
  const index = record.groupings.findIndex((g) => g.grouping === name);
  if (index < 0) throw errors.SCHEDULE_ERR_GROUPING_NOT_FOUND(name, ip);
  return index;
}
