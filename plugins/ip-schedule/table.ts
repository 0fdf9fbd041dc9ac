/**
 * The schedules as a table, a row per grouping: what `GET /status` and `GET /config` answer with table parameters,
 * what bulk actions select by filter and what the CSV export writes. Filtered, sorted and paged on the server, so a
 * page of 10,000 IPs costs what the page holds, not what the store holds.
 */
import type { GroupingRecord, ScheduleStore, StoredIp } from '../../runtime/mod.ts';
import { formatDate, parseDate } from './dates.ts';
import { cidrMatcher, ipNumber, type IpNumber } from './ip.ts';
import { scheduleDay, scheduleLength, type GroupingStatus, type ScheduleDay } from './schedule.ts';
import { encodeIpStatus, JsonWriter, timeSlice, type Encoded } from './status-json.ts';

export type SortColumn = 'ip' | 'grouping' | 'status' | 'day' | 'volume';

/** The table filters (`q`, `status`, `grouping`), shared by the table routes, bulk actions and the export */
export interface TableFilter {
  q?: string;
  status?: GroupingStatus['status'];
  grouping?: string;
}

export interface TableQuery extends TableFilter {
  offset?: number;
  limit?: number;
  sort?: SortColumn;
  order?: 'asc' | 'desc';
}

/** The query parameters that ask for a table page instead of the whole map */
const TABLE_PARAMETERS = ['offset', 'limit', 'sort', 'order', 'q', 'status', 'grouping'];
const DEFAULT_LIMIT = 100;
/** Filtered and sorted row lists kept for paging through them: each costs a pointer per row */
const KEPT_VIEWS = 8;
/**
 * Milliseconds without a write before the IPs' GET /status members are encoded again: a stream of writes is left to
 * run, and the members are encoded once it has calmed down
 */
const IDLE_MS = 500;
/** Longest the idle encoding holds the event loop before letting requests run */
const SLICE_MS = 5;
/**
 * Own bytes of encoded members idle time makes at most (IPs of one plan share their schedule arrays: at 10,000 IPs ×
 * 5 groupings of 30 days, 12 MB of an 82 MB answer are the IPs' own): past it, members are encoded by the GET /status
 * that needs them, so a host whose clients never ask for the whole answer keeps its memory for its other work
 */
const IDLE_BYTES = 128 * 2 ** 20;

/**
 * One grouping of one IP, as of a store version and day. Where it stands that day (status, day, messages) is worked
 * out on first use: a page in IP order needs it for its own rows only, so the first page after a start costs a row
 * object per grouping, not a schedule per grouping
 */
export class TableRow {
  /** Position in IP order (numeric IP, then the IP's grouping order): the order of ties */
  position = 0;
  /** IP, grouping, status and mode in lower case, for the word filter; made on the first filter that needs it */
  text?: string;
  /** The row's status JSON, encoded on first use */
  json?: string;
  #where: ScheduleDay | undefined;
  #days: number | undefined;

  constructor(
    readonly ip: string,
    readonly config: GroupingRecord,
    readonly number: IpNumber,
    private readonly today: number,
  ) {}

  get status(): GroupingStatus['status'] {
    return (this.#where ??= scheduleDay(this.config, this.today)).status;
  }

  get day(): number {
    return (this.#where ??= scheduleDay(this.config, this.today)).day;
  }

  get messages(): number {
    return (this.#where ??= scheduleDay(this.config, this.today)).messages;
  }

  get days(): number {
    return (this.#days ??= scheduleLength(this.config));
  }
}

interface CachedIp {
  version: number;
  day: number;
  number: IpNumber;
  rows: TableRow[];
  /**
   * The IP's `"ip":{"groupings":[…]}` member of the GET /status answer as of `version` and `day`: encoded in idle time
   * after start and after writes, or by the first GET /status that needed it
   */
  status?: Encoded;
}

export function isTableQuery(query: Record<string, unknown>): boolean {
  return TABLE_PARAMETERS.some((name) => query[name] !== undefined);
}

const compareNumbers = (a: IpNumber, b: IpNumber) =>
  a.v6 === b.v6 ? (a.value < b.value ? -1 : a.value > b.value ? 1 : 0) : a.v6 ? 1 : -1;

/** What each column sorts by */
const KEYS: Record<Exclude<SortColumn, 'ip'>, (row: TableRow) => string | number> = {
  grouping: (row) => row.config.grouping,
  status: (row) => row.status,
  day: (row) => row.day,
  volume: (row) => row.messages,
};

/**
 * The rows of every IP in the store. With a store that has `watch`, only the IPs it names (and the host's own writes,
 * `invalidate`) are read again, so a request after a write costs what the write changed; without it, or after the
 * day turns or notices were lost, every IP is listed again, and rows are rebuilt only for IPs whose version changed.
 * It also keeps each IP's encoded GET /status member, made in idle time: the first GET /status after a start then
 * joins encoded parts, as every later one does
 */
export class ScheduleTable {
  #ips = new Map<string, CachedIp>();
  /** IPs in numeric order, sorted again only when IPs come or go */
  #order: string[] = [];
  #rows: TableRow[] = [];
  #views = new Map<string, TableRow[]>();
  #dirty = new Set<string>();
  #full = true;
  #day = -1;
  #watching: Promise<void> | undefined;
  #refreshing: Promise<void> | undefined;
  #unwatch: (() => void) | undefined;
  #closed = false;
  #idle: NodeJS.Timeout | undefined;
  #encoding: Promise<void> | undefined;

  constructor(
    private readonly store: ScheduleStore,
    private readonly today: () => number,
  ) {}

  /** The IP was written here: its rows are read again before the next answer */
  invalidate(ip: string): void {
    this.#dirty.add(ip);
    this.#encodeLater(IDLE_MS);
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#idle);
    this.#unwatch?.();
  }

  /**
   * Builds the table from one listing of the store, which it answers: the policy feed starts from the same listing,
   * so that a start lists the store once. The IPs' GET /status members are encoded after it, in idle time
   */
  async fill(): Promise<readonly StoredIp[]> {
    let listed: readonly StoredIp[] = [];
    await this.#current(async () => (listed = await this.store.list()));
    this.#encodeLater(0);
    return listed;
  }

  /** Every row in IP order, current as of this call */
  rows(): Promise<TableRow[]> {
    return this.#current();
  }

  /** The rows brought up to date; with `list`, from a full listing it makes */
  async #current(list?: () => Promise<readonly StoredIp[]>): Promise<TableRow[]> {
    await this.#watch();
    // One refresh at a time: a read begun before a write must not land after the read that saw the write
    while (this.#refreshing) await this.#refreshing;
    const day = this.today();
    if (!list && this.store.watch && !this.#full && day === this.#day && this.#dirty.size === 0) return this.#rows;
    this.#refreshing = this.#refresh(day, list).finally(() => (this.#refreshing = undefined));
    await this.#refreshing;
    return this.#rows;
  }

  /** The IP's encoded GET /status member, if the table holds it as of the store's `version` and day number `day` */
  statusOf(ip: string, version: number, day: number): Encoded | undefined {
    const cached = this.#ips.get(ip);
    return cached?.version === version && cached.day === day ? cached.status : undefined;
  }

  /** Keeps an IP's member encoded by a GET /status, if the table holds the same version and day */
  keepStatus(ip: string, version: number, day: number, json: Encoded): void {
    const cached = this.#ips.get(ip);
    if (cached?.version === version && cached.day === day) cached.status = json;
  }

  #watch(): Promise<void> {
    const { watch } = this.store;
    this.#watching ??= watch
      ? watch
          .call(this.store, (change) => {
            if ('ip' in change) this.#dirty.add(change.ip);
            else if ('lost' in change) this.#full = true;
            this.#encodeLater(IDLE_MS);
          })
          .then((stop) => void (this.#unwatch = stop))
      : Promise.resolve();
    return this.#watching;
  }

  async #refresh(day: number, list?: () => Promise<readonly StoredIp[]>): Promise<void> {
    let changed: boolean;
    const turned = day !== this.#day;
    if (list || !this.store.watch || this.#full || turned) {
      // Cleared before reading: what is noticed during the read is read again next time
      this.#full = false;
      this.#dirty.clear();
      changed = await this.#readAll(day, await (list ?? (() => this.store.list()))());
    } else {
      const ips = [...this.#dirty];
      this.#dirty.clear();
      changed = await this.#readSome(ips, day);
    }
    this.#day = day;
    if (changed) this.#reindex();
    // Every IP's member is of the day before
    if (turned) this.#encodeLater(IDLE_MS);
  }

  #reindex(): void {
    this.#rows = this.#order.flatMap((ip) => this.#ips.get(ip)!.rows);
    this.#rows.forEach((row, index) => (row.position = index));
    this.#views.clear();
  }

  /** Encodes the IPs' GET /status members `delay` ms from now, unless a write comes first (which puts it off again) */
  #encodeLater(delay: number): void {
    if (this.#closed) return;
    clearTimeout(this.#idle);
    this.#idle = setTimeout(() => {
      this.#encoding ??= this.#encodeAll().finally(() => {
        this.#encoding = undefined;
        if (this.#dirty.size > 0) this.#encodeLater(IDLE_MS);
      });
    }, delay);
    // Idle work: it keeps no process alive
    this.#idle.unref();
  }

  /** Encodes the member of every IP that has none for today, a slice of the event loop at a time */
  async #encodeAll(): Promise<void> {
    // A store that cannot be read now leaves the members to the GET /status that needs them
    const rows = await this.rows().catch(() => undefined);
    if (!rows) return;
    const day = this.#day;
    const out = new JsonWriter();
    const slice = timeSlice(SLICE_MS);
    let bytes = 0;
    for (const [ip, cached] of this.#ips) {
      if (this.#closed || this.#day !== day || bytes >= IDLE_BYTES) return;
      if (cached.day !== day) continue;
      if (cached.status === undefined) {
        const groupings = cached.rows.map((row) => row.config);
        const json = await encodeIpStatus(out, ip, groupings, day, slice);
        // Kept only if the IP was not written meanwhile
        if (this.#ips.get(ip) === cached) cached.status = json;
      }
      bytes += cached.status?.own.length ?? 0;
    }
  }

  async #readAll(day: number, listed: readonly StoredIp[]): Promise<boolean> {
    let changed = listed.length !== this.#ips.size;
    const fresh = new Map<string, CachedIp>();
    for (const stored of listed) {
      let cached = this.#ips.get(stored.ip);
      if (cached?.version !== stored.version || cached.day !== day) {
        changed = true;
        // `stored.record` only here: a store may parse records on first access
        cached = { version: stored.version, day, number: cached?.number ?? ipNumber(stored.ip)!, rows: [] };
        cached.rows = ipRows(stored.ip, stored.record.groupings, day, cached.number);
      }
      fresh.set(stored.ip, cached);
    }
    if (changed) {
      this.#order = sortedIps(fresh);
      this.#ips = fresh;
    }
    return changed;
  }

  async #readSome(ips: string[], day: number): Promise<boolean> {
    let changed = false;
    let reorder = false;
    for (const ip of ips) {
      const stored = await this.store.get(ip);
      const cached = this.#ips.get(ip);
      if (!stored) {
        if (cached) this.#ips.delete(ip);
        changed ||= cached !== undefined;
        reorder ||= cached !== undefined;
        continue;
      }
      if (cached?.version === stored.version && cached.day === day) continue;
      const number = cached?.number ?? ipNumber(ip)!;
      this.#ips.set(ip, {
        version: stored.version,
        day,
        number,
        rows: ipRows(ip, stored.record.groupings, day, number),
      });
      changed = true;
      reorder ||= cached === undefined;
    }
    if (reorder) this.#order = sortedIps(this.#ips);
    return changed;
  }

  /** The rows matching the filter, in IP order */
  async matching(filter: TableFilter): Promise<TableRow[]> {
    return this.view({ ...filter, sort: 'ip', order: 'asc' });
  }

  /** One page of rows with the number of rows matching */
  async page(query: TableQuery): Promise<{ rows: TableRow[]; total: number; offset: number; limit: number }> {
    const offset = query.offset ?? 0;
    const limit = query.limit ?? DEFAULT_LIMIT;
    const view = await this.view(query);
    return { rows: view.slice(offset, offset + limit), total: view.length, offset, limit };
  }

  /** The filtered, sorted rows; the last few are kept, so that paging through them sorts once */
  private async view(query: TableQuery): Promise<TableRow[]> {
    const all = await this.rows();
    const key = JSON.stringify([
      query.q ?? '',
      query.status ?? '',
      query.grouping ?? '',
      query.sort ?? 'ip',
      query.order ?? 'asc',
    ]);
    let view = this.#views.get(key);
    if (view) return view;
    const test = rowTest(query);
    view = test ? all.filter(test) : all;
    const sort = query.sort ?? 'ip';
    const direction = query.order === 'desc' ? -1 : 1;
    if (sort !== 'ip') {
      // Each row's key read once, not twice per comparison: a row works out its day on first use
      const key = KEYS[sort];
      const keyed = view.map((row) => ({ row, key: key(row) }));
      keyed.sort((a, b) => direction * (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) || a.row.position - b.row.position);
      view = keyed.map((entry) => entry.row);
    } else if (direction < 0) view = [...view].reverse();
    if (this.#views.size >= KEPT_VIEWS) this.#views.delete(this.#views.keys().next().value!);
    this.#views.set(key, view);
    return view;
  }
}

/** The test a row must pass for the filter, or undefined when it lets every row through */
function rowTest(filter: TableFilter): ((row: TableRow) => boolean) | undefined {
  const tests: ((row: TableRow) => boolean)[] = [];
  for (const word of (filter.q ?? '').toLowerCase().split(/\s+/).filter(Boolean)) {
    const inPrefix = word.includes('/') ? cidrMatcher(word) : undefined;
    tests.push(inPrefix ? (row) => inPrefix(row.number) : (row) => searchText(row).includes(word));
  }
  if (filter.status) tests.push((row) => row.status === filter.status);
  if (filter.grouping) tests.push((row) => row.config.grouping === filter.grouping);
  return tests.length === 0 ? undefined : (row) => tests.every((test) => test(row));
}

// An adaptive grouping's words, so that the filter finds the holds in force (`held`): a hold is written to the stored
// grouping, so a row made before it is not the row after it
function searchText(row: TableRow): string {
  const { config } = row;
  const adaptive = config.adaptive ? ` adaptive${config.warmup?.hold ? ' held' : ''}` : '';
  row.text ??= `${row.ip} ${config.grouping} ${row.status} ${config.mode}${adaptive}`.toLowerCase();
  return row.text;
}

function sortedIps(ips: Map<string, CachedIp>): string[] {
  // Numbers beside their IPs: two map lookups per comparison cost more than the comparison
  const numbered = Array.from(ips, ([ip, cached]) => ({ ip, number: cached.number }));
  return numbered.sort((a, b) => compareNumbers(a.number, b.number)).map((entry) => entry.ip);
}

function ipRows(ip: string, groupings: readonly GroupingRecord[], today: number, number: IpNumber): TableRow[] {
  return groupings.map((config) => new TableRow(ip, config, number, today));
}

/** A row as `StatusRow` JSON: the status endpoints' fields without the expanded schedule, plus today's messages */
export function statusRowJson(row: TableRow): string {
  if (row.json !== undefined) return row.json;
  const { config } = row;
  const manual = config.schedule;
  const start = { date: config.start.date, volume: manual ? manual[0]!.messages : config.start.volume! };
  const end = manual
    ? {
        date: formatDate(parseDate(config.start.date)! + manual.length - 1),
        volume: manual[manual.length - 1]!.messages,
      }
    : config.end!;
  row.json = JSON.stringify({
    ip: row.ip,
    grouping: config.grouping,
    status: row.status,
    current_day: row.day,
    days: row.days,
    messages: row.messages,
    start,
    end: { date: end.date, volume: end.volume },
    mode: config.mode,
    paused: config.paused,
    algorithm: config.algorithm,
    interval: config.interval,
    properties: config.properties,
    ...(config.adaptive ? { adaptive: true } : {}),
    ...(config.warmup?.hold ? { hold: { since: config.warmup.hold.since, reason: config.warmup.hold.reason } } : {}),
  });
  return row.json;
}
