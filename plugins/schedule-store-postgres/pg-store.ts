/**
 * A schedule store in PostgreSQL. Each write is one statement whose WHERE clause is the compare-and-set,
 * so hosts sharing the database see each other's writes at once and never lose an update. Versions come
 * from one sequence: they never repeat, even when an IP is deleted and created again.
 */
import pg from 'pg';
import type {
  AppliedPolicy,
  AuditEntry,
  AuditQuery,
  CountBatch,
  CountClaim,
  IpRecord,
  Logger,
  NotificationListener,
  ScheduleStore,
  StoreChangeListener,
  StoredIp,
  WriteCondition,
  WriteOptions,
} from '../../runtime/mod.ts';
import { terminatedByServer } from '../../runtime/mod.ts';
import { AuditTable } from './audit.ts';
import { Health, unreachable } from './availability.ts';
import { errors } from './errors.ts';
import { migrate } from './migrations.ts';
import { channelOf, POLICY_NOTICE, storeListener, watchStore } from './watch.ts';

/** Batches of counts answered at most per call (a few tens of kB each): a host far behind reads on (`more`) */
const MAX_BATCHES = 100;
/** Expired counts and claims are deleted at most this often */
const PRUNE_MS = 10_000;

interface Row {
  ip: string;
  record: IpRecord;
  version: string;
}

/** What the store connects to and how long it waits for it; times in milliseconds */
export interface PostgresOptions {
  connectionString: string;
  schema: string;
  poolSize: number;
  /** Names the store's connections in `pg_stat_activity`; the listening one adds `-watch` */
  applicationName: string;
  /** For a connection, and for a free one of the pool */
  connectTimeout: number;
  statementTimeout: number;
  lockTimeout: number;
  idleInTransactionTimeout: number;
  /** Client side: a query with no answer by then fails even when the server never hears of it (a partition) */
  queryTimeout: number;
  /** Queries waiting for a connection past which more are refused at once */
  maxWaiting: number;
  log: Logger;
  /** Days audit entries are kept */
  auditRetentionDays: number;
  /** Told when deleting old audit entries fails (it is tried again within the hour) */
  onAuditError: (error: unknown) => void;
}

/** Schedule store over a `pg` pool, tables in `schema` */
export class PostgresStore implements ScheduleStore {
  readonly #pool: pg.Pool;
  readonly #maxWaiting: number;
  readonly #poolSize: number;
  readonly #health: Health;
  readonly #table: string;
  readonly #sequence: string;
  readonly #channel: string;
  readonly #policies: string;
  readonly #counts: string;
  readonly #claims: string;
  /** Serialises appends of counts, so that they commit in the order of their sequence numbers */
  readonly #countsLock: string;
  #pruned = 0;
  /** The deletion of expired counts and claims under way, if any: one at a time, beside the exchanges */
  #pruning: Promise<void> | undefined;
  readonly #log: Logger;
  readonly #watch: NotificationListener;
  readonly #audit: AuditTable;

  private constructor(pool: pg.Pool, options: PostgresOptions) {
    this.#pool = pool;
    this.#maxWaiting = options.maxWaiting;
    this.#poolSize = options.poolSize;
    this.#log = options.log;
    this.#health = new Health(async () => {
      // A standby after a failover answers reads and refuses writes: readiness is about writes
      const { rows } = await pool.query<{ standby: boolean; read_only: string }>(
        `SELECT pg_is_in_recovery() AS standby, current_setting('transaction_read_only') AS read_only`,
      );
      if (rows[0]!.standby || rows[0]!.read_only === 'on') throw new Error('the database is read-only (a standby?)');
    });
    this.#table = `"${options.schema}".ip_schedules`;
    this.#sequence = `'"${options.schema}".ip_schedule_versions'`;
    this.#channel = channelOf(options.schema);
    this.#policies = `"${options.schema}".applied_policies`;
    this.#counts = `"${options.schema}".backoff_counts`;
    this.#claims = `"${options.schema}".backoff_claims`;
    this.#countsLock = `capstan:backoff-counts:${options.schema}`;
    this.#watch = storeListener(
      { ...connection(options), application_name: `${options.applicationName}-watch` },
      options.schema,
      options.log,
    );
    this.#audit = new AuditTable(
      { read: (text, values) => this.#read(text, values), write: (text, values) => this.#write(text, values) },
      options.schema,
      options.auditRetentionDays,
      options.onAuditError,
    );
  }

  /** Connects and migrates the schema */
  static async open(options: PostgresOptions): Promise<PostgresStore> {
    const pool = new pg.Pool({
      ...connection(options),
      application_name: options.applicationName,
      max: options.poolSize,
    });
    // An idle connection the server ends (a failover, a restart, pg_terminate_backend, idle_session_timeout) is
    // reported here; unheard, the pool's 'error' event would end the process. The pool drops it and connects anew
    pool.on('error', (error) =>
      options.log.warn('schedule database connection lost; the pool opens a new one when needed', {
        error: error.message,
      }),
    );
    try {
      const client = await pool.connect();
      try {
        await migrate(client, options.schema);
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PostgresStore(pool, options);
  }

  /** Resolves when the database can take writes, judged from the last write or else a bounded probe */
  ready(): Promise<void> {
    return this.#health.ready();
  }

  async get(ip: string): Promise<StoredIp | undefined> {
    const { rows } = await this.#read<Row>(`SELECT ip, record, version FROM ${this.#table} WHERE ip = $1`, [ip]);
    return rows[0] && stored(rows[0]);
  }

  async list(): Promise<StoredIp[]> {
    // Records come as text and are parsed on first access: a caller that keeps what it read before (GET /status
    // reuses each IP's encoded status while its version holds) then skips parsing thousands of unchanged records
    const { rows } = await this.#read<{ ip: string; record: string; version: string }>(
      `SELECT ip, record::text AS record, version FROM ${this.#table} ORDER BY ip`,
    );
    return rows.map((row) => {
      let record: IpRecord | undefined;
      return {
        ip: row.ip,
        version: Number(row.version),
        get record() {
          return (record ??= JSON.parse(row.record) as IpRecord);
        },
      };
    });
  }

  async put(
    ip: string,
    record: IpRecord,
    condition: WriteCondition,
    options?: WriteOptions,
  ): Promise<number | undefined> {
    const json = JSON.stringify(record);
    const audit = this.#audit.cte(options?.audit, condition.expected === null ? 4 : 5);
    // The notice goes out in the write's own statement: delivered when it commits, never for a write that did not
    const { rows } =
      condition.expected === null
        ? await this.#write<Row>(
            `WITH w AS (INSERT INTO ${this.#table} (ip, record, version) VALUES ($1, $2, nextval(${this.#sequence}))
         ON CONFLICT (ip) DO NOTHING RETURNING ip, version)${audit.sql} SELECT version, pg_notify($3, ip) FROM w`,
            [ip, json, this.#channel, ...audit.params],
          )
        : await this.#write<Row>(
            `WITH w AS (UPDATE ${this.#table} SET record = $2, version = nextval(${this.#sequence})
         WHERE ip = $1 AND version = $3 RETURNING ip, version)${audit.sql} SELECT version, pg_notify($4, ip) FROM w`,
            [ip, json, condition.expected, this.#channel, ...audit.params],
          );
    return rows[0] && Number(rows[0].version);
  }

  async delete(ip: string, condition: { expected: number }, options?: WriteOptions): Promise<boolean> {
    const audit = this.#audit.cte(options?.audit, 4);
    const { rowCount } = await this.#write(
      `WITH w AS (DELETE FROM ${this.#table} WHERE ip = $1 AND version = $2 RETURNING ip)${audit.sql} SELECT pg_notify($3, ip) FROM w`,
      [ip, condition.expected, this.#channel, ...audit.params],
    );
    return rowCount === 1;
  }

  async listPolicies(): Promise<AppliedPolicy[]> {
    const { rows } = await this.#read<{
      id: string;
      kind: AppliedPolicy['kind'];
      object: AppliedPolicy['object'];
      expires: string;
      level: number;
      reason: AppliedPolicy['reason'] | null;
    }>(`SELECT id, kind, object, expires, level, reason FROM ${this.#policies} ORDER BY id`);
    return rows.map(({ reason, ...row }) => ({ ...row, expires: Number(row.expires), ...(reason ? { reason } : {}) }));
  }

  async putPolicy(policy: AppliedPolicy, options?: WriteOptions): Promise<void> {
    const audit = this.#audit.cte(options?.audit, 9);
    await this.#write(
      `WITH w AS (INSERT INTO ${this.#policies} (id, kind, object, expires, level, reason) VALUES ($1, $2, $3, $4, $5, $8)
       ON CONFLICT (id) DO UPDATE SET kind = $2, object = $3, expires = $4, level = $5, reason = $8 RETURNING id)${audit.sql}
       SELECT pg_notify($6, $7 || id) FROM w`,
      [
        policy.id,
        policy.kind,
        JSON.stringify(policy.object),
        policy.expires,
        policy.level,
        this.#channel,
        POLICY_NOTICE,
        policy.reason ? JSON.stringify(policy.reason) : null,
        ...audit.params,
      ],
    );
  }

  async deletePolicy(id: string, condition: { expires: number }, options?: WriteOptions): Promise<boolean> {
    const audit = this.#audit.cte(options?.audit, 5);
    const { rowCount } = await this.#write(
      `WITH w AS (DELETE FROM ${this.#policies} WHERE id = $1 AND expires = $2 RETURNING id)${audit.sql} SELECT pg_notify($3, $4 || id) FROM w`,
      [id, condition.expires, this.#channel, POLICY_NOTICE, ...audit.params],
    );
    return rowCount === 1;
  }

  async replacePolicy(policy: AppliedPolicy, condition: { expires: number }, options?: WriteOptions): Promise<boolean> {
    const audit = this.#audit.cte(options?.audit, 10);
    const { rowCount } = await this.#write(
      `WITH w AS (UPDATE ${this.#policies} SET kind = $2, object = $3, expires = $4, level = $5, reason = $8 WHERE id = $1 AND expires = $9 RETURNING id)${audit.sql}
       SELECT pg_notify($6, $7 || id) FROM w`,
      [
        policy.id,
        policy.kind,
        JSON.stringify(policy.object),
        policy.expires,
        policy.level,
        this.#channel,
        POLICY_NOTICE,
        policy.reason ? JSON.stringify(policy.reason) : null,
        condition.expires,
        ...audit.params,
      ],
    );
    return rowCount === 1;
  }

  async exchangeCounts(
    host: string,
    batch: CountBatch | undefined,
    after: number,
  ): Promise<{ cursor: number; batches: CountBatch[]; more: boolean }> {
    this.#prune(batch?.time);
    // The append waits for the advisory lock (held to its commit) before it takes its number, so batches commit in
    // number order: a reader that sees one has seen every lower one, and its cursor never skips a late commit. The
    // other hosts' batches are read in the same statement (its snapshot, taken before the append)
    const read = `SELECT seq, host, time, expires, data FROM ${this.#counts} WHERE seq > $1 AND host <> $2 ORDER BY seq LIMIT ${MAX_BATCHES}`;
    const { rows } =
      batch === undefined
        ? await this.#read<{ seq: string; host: string; time: string; expires: string; data: string }>(read, [
            after,
            host,
          ])
        : await this.#write<{ seq: string; host: string; time: string; expires: string; data: string }>(
            `WITH l AS (SELECT pg_advisory_xact_lock(hashtext($3))),
         w AS (INSERT INTO ${this.#counts} (host, time, expires, data) SELECT $2, $4, $5, $6 FROM l)
         ${read}`,
            [after, host, this.#countsLock, batch.time, batch.time + batch.retainMs, batch.data],
          );
    return {
      cursor: rows.length === 0 ? after : Number(rows[rows.length - 1]!.seq),
      batches: rows.map((row) => ({
        host: row.host,
        time: Number(row.time),
        retainMs: Number(row.expires) - Number(row.time),
        data: row.data,
      })),
      more: rows.length === MAX_BATCHES,
    };
  }

  async claimCounts(claims: readonly CountClaim[]): Promise<string[]> {
    if (claims.length === 0) return [];
    // One statement for every claim: a row claimed since `since` (its `at` later) is left alone and not returned
    const { rows } = await this.#write<{ key: string }>(
      `INSERT INTO ${this.#claims} AS c (key, at, expires)
       SELECT key, at, at + retain FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[]) AS i(key, at, since, retain)
       ON CONFLICT (key) DO UPDATE SET at = EXCLUDED.at, expires = EXCLUDED.expires
       WHERE c.at <= (SELECT since FROM unnest($1::text[], $3::bigint[]) AS s(key, since) WHERE s.key = c.key)
       RETURNING key`,
      [claims.map((c) => c.key), claims.map((c) => c.at), claims.map((c) => c.since), claims.map((c) => c.retainMs)],
    );
    return rows.map((row) => row.key);
  }

  /**
   * Deletes counts and claims past their retention, at most every PRUNE_MS and one deletion at a time. Not awaited:
   * the exchange that starts it answers without waiting on it; a failure is logged and waits for the next turn
   */
  #prune(now: number | undefined): void {
    if (now === undefined || this.#pruning || now - this.#pruned < PRUNE_MS) return;
    this.#pruned = now;
    this.#pruning = this.#write(
      `WITH c AS (DELETE FROM ${this.#counts} WHERE expires < $1) DELETE FROM ${this.#claims} WHERE expires < $1`,
      [now],
    )
      .then(
        () => undefined,
        (error: unknown) =>
          this.#log.warn('cannot delete backoff counts and claims past their retention: trying again', {
            error: (error as Error).message,
          }),
      )
      .finally(() => (this.#pruning = undefined));
  }

  /** Notices of every host's writes through PostgreSQL's LISTEN/NOTIFY, on a connection of their own */
  watch(listener: StoreChangeListener): Promise<() => void> {
    return watchStore(this.#watch, listener);
  }

  /** A query that changes nothing: its failure to reach the database counts against readiness, its success not */
  #read<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    return this.#query<R>(text, values, false);
  }

  /** A query that writes: whichever way it ends tells readiness whether the database can be written */
  #write<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    return this.#query<R>(text, values, true);
  }

  async #query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[],
    writes: boolean,
  ): Promise<pg.QueryResult<R>> {
    // Without a bound, every request during an outage would wait in the pool's queue, each holding its socket
    if (this.#pool.waitingCount >= this.#maxWaiting) throw errors.STORE_ERR_POSTGRES_BUSY(this.#pool.waitingCount);
    try {
      const result = await this.#runOnLiveConnection<R>(text, values);
      if (writes) this.#health.saw(undefined);
      return result;
    } catch (error) {
      const reason = unreachable(error);
      if (reason === undefined) throw error;
      this.#health.saw(reason);
      throw errors.STORE_ERR_POSTGRES_UNAVAILABLE(reason, { cause: error });
    }
  }

  /**
   * Runs the query, again on another connection while the one it got had been terminated by the server (a failover,
   * a restart, pg_terminate_backend): the pool hears of that only when the connection is next read, so the first
   * queries after it meet the dead connections it still holds. Such a connection ran nothing of the query: the
   * server rolls back what it had not committed when it terminates a connection
   */
  async #runOnLiveConnection<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#pool.query<R>(text, values);
      } catch (error) {
        if (!terminatedByServer(error) || attempt > this.#poolSize) throw error;
      }
    }
  }

  appendAudit(entries: readonly AuditEntry[]): Promise<void> {
    return this.#audit.append(entries);
  }

  queryAudit(query: AuditQuery): Promise<AuditEntry[]> {
    return this.#audit.query(query);
  }

  /** Stops listening and closes the pool once in-flight queries finish */
  async close(): Promise<void> {
    this.#audit.close();
    await this.#pruning;
    await this.#watch.close();
    await this.#pool.end();
  }
}

/** Connection settings shared by the pool and the listening connection */
function connection(options: PostgresOptions): pg.ClientConfig {
  return {
    connectionString: options.connectionString,
    connectionTimeoutMillis: options.connectTimeout,
    statement_timeout: options.statementTimeout,
    lock_timeout: options.lockTimeout,
    idle_in_transaction_session_timeout: options.idleInTransactionTimeout,
    query_timeout: options.queryTimeout,
    // An idle connection a partition cut is found by the kernel's probes, not by the first query that waits on it
    keepAlive: true,
  };
}

function stored(row: Row): StoredIp {
  // bigint arrives as text; sequence values stay far below 2^53
  return { ip: row.ip, record: row.record, version: Number(row.version) };
}
