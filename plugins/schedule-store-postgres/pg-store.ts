/**
 * A schedule store in PostgreSQL. Each write is one statement whose WHERE clause is the compare-and-set,
 * so hosts sharing the database see each other's writes at once and never lose an update. Versions come
 * from one sequence: they never repeat, even when an IP is deleted and created again.
 */
import pg from 'pg';
import type { AppliedPolicy, AuditEntry, AuditQuery, IpRecord, ScheduleStore, StoreChangeListener, StoredIp, WriteCondition, WriteOptions } from '../../runtime/mod.ts';
import { AuditTable } from './audit.ts';
import { migrate } from './migrations.ts';
import { channelOf, POLICY_NOTICE, StoreWatch } from './watch.ts';

/** What a store is opened with */
interface StoreOptions {
  connectionString: string;
  schema: string;
  /** Days audit entries are kept */
  auditRetentionDays: number;
  /** Told when deleting old audit entries fails (it is tried again within the hour) */
  onAuditError: (error: unknown) => void;
}

interface Row {
  ip: string;
  record: IpRecord;
  version: string;
}

/** Schedule store over a `pg` pool, tables in `schema` */
export class PostgresStore implements ScheduleStore {
  readonly #pool: pg.Pool;
  readonly #table: string;
  readonly #sequence: string;
  readonly #channel: string;
  readonly #policies: string;
  readonly #watch: StoreWatch;
  readonly #audit: AuditTable;

  private constructor(pool: pg.Pool, options: StoreOptions) {
    this.#pool = pool;
    this.#table = `"${options.schema}".ip_schedules`;
    this.#sequence = `'"${options.schema}".ip_schedule_versions'`;
    this.#channel = channelOf(options.schema);
    this.#policies = `"${options.schema}".applied_policies`;
    this.#watch = new StoreWatch(options.connectionString, options.schema);
    this.#audit = new AuditTable(pool, options.schema, options.auditRetentionDays, options.onAuditError);
  }

  /** Connects and migrates the schema */
  static async open(options: StoreOptions & { poolSize: number }): Promise<PostgresStore> {
    const pool = new pg.Pool({ connectionString: options.connectionString, max: options.poolSize });
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

  /** Resolves when the database answers a query */
  async ready(): Promise<void> {
    try {
      await this.#pool.query('SELECT 1');
    } catch (error) {
      throw new Error(`Database does not answer: ${(error as Error).message}`);
    }
  }

  async get(ip: string): Promise<StoredIp | undefined> {
    const { rows } = await this.#pool.query<Row>(`SELECT ip, record, version FROM ${this.#table} WHERE ip = $1`, [ip]);
    return rows[0] && stored(rows[0]);
  }

  async list(): Promise<StoredIp[]> {
    // Records come as text and are parsed on first access: a caller that keeps what it read before (GET /status
    // reuses each IP's encoded status while its version holds) then skips parsing thousands of unchanged records
    const { rows } = await this.#pool.query<{ ip: string; record: string; version: string }>(
      `SELECT ip, record::text AS record, version FROM ${this.#table} ORDER BY ip`,
    );
    return rows.map((row) => {
      let record: IpRecord | undefined;
      return { ip: row.ip, version: Number(row.version), get record() { return (record ??= JSON.parse(row.record) as IpRecord); } };
    });
  }

  async put(ip: string, record: IpRecord, condition: WriteCondition, options?: WriteOptions): Promise<number | undefined> {
    const json = JSON.stringify(record);
    const audit = this.#audit.cte(options?.audit, condition.expected === null ? 4 : 5);
    // The notice goes out in the write's own statement: delivered when it commits, never for a write that did not
    const { rows } = condition.expected === null
      ? await this.#pool.query<Row>(
        `WITH w AS (INSERT INTO ${this.#table} (ip, record, version) VALUES ($1, $2, nextval(${this.#sequence}))
         ON CONFLICT (ip) DO NOTHING RETURNING ip, version)${audit.sql} SELECT version, pg_notify($3, ip) FROM w`, [ip, json, this.#channel, ...audit.params])
      : await this.#pool.query<Row>(
        `WITH w AS (UPDATE ${this.#table} SET record = $2, version = nextval(${this.#sequence})
         WHERE ip = $1 AND version = $3 RETURNING ip, version)${audit.sql} SELECT version, pg_notify($4, ip) FROM w`, [ip, json, condition.expected, this.#channel, ...audit.params]);
    return rows[0] && Number(rows[0].version);
  }

  async delete(ip: string, condition: { expected: number }, options?: WriteOptions): Promise<boolean> {
    const audit = this.#audit.cte(options?.audit, 4);
    const { rowCount } = await this.#pool.query(
      `WITH w AS (DELETE FROM ${this.#table} WHERE ip = $1 AND version = $2 RETURNING ip)${audit.sql} SELECT pg_notify($3, ip) FROM w`,
      [ip, condition.expected, this.#channel, ...audit.params],
    );
    return rowCount === 1;
  }

  async listPolicies(): Promise<AppliedPolicy[]> {
    const { rows } = await this.#pool.query<{ id: string; kind: AppliedPolicy['kind']; object: AppliedPolicy['object']; expires: string; level: number }>(
      `SELECT id, kind, object, expires, level FROM ${this.#policies} ORDER BY id`,
    );
    return rows.map((row) => ({ ...row, expires: Number(row.expires) }));
  }

  async putPolicy(policy: AppliedPolicy, options?: WriteOptions): Promise<void> {
    const audit = this.#audit.cte(options?.audit, 8);
    await this.#pool.query(
      `WITH w AS (INSERT INTO ${this.#policies} (id, kind, object, expires, level) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET kind = $2, object = $3, expires = $4, level = $5 RETURNING id)${audit.sql}
       SELECT pg_notify($6, $7 || id) FROM w`,
      [policy.id, policy.kind, JSON.stringify(policy.object), policy.expires, policy.level, this.#channel, POLICY_NOTICE, ...audit.params],
    );
  }

  async deletePolicy(id: string, condition: { expires: number }, options?: WriteOptions): Promise<boolean> {
    const audit = this.#audit.cte(options?.audit, 5);
    const { rowCount } = await this.#pool.query(
      `WITH w AS (DELETE FROM ${this.#policies} WHERE id = $1 AND expires = $2 RETURNING id)${audit.sql} SELECT pg_notify($3, $4 || id) FROM w`,
      [id, condition.expires, this.#channel, POLICY_NOTICE, ...audit.params],
    );
    return rowCount === 1;
  }

  /** Notices of every host's writes through PostgreSQL's LISTEN/NOTIFY, on a connection of their own */
  watch(listener: StoreChangeListener): Promise<() => void> {
    return this.#watch.add(listener);
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
    await this.#watch.close();
    await this.#pool.end();
  }
}

function stored(row: Row): StoredIp {
  // bigint arrives as text; sequence values stay far below 2^53
  return { ip: row.ip, record: row.record, version: Number(row.version) };
}
