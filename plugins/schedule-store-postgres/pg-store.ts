/**
 * A schedule store in PostgreSQL. Each write is one statement whose WHERE clause is the compare-and-set,
 * so hosts sharing the database see each other's writes at once and never lose an update. Versions come
 * from one sequence: they never repeat, even when an IP is deleted and created again.
 */
import pg from 'pg';
import type { AppliedPolicy, IpRecord, ScheduleStore, StoreChangeListener, StoredIp, WriteCondition } from '../../runtime/mod.ts';
import { migrate } from './migrations.ts';
import { channelOf, POLICY_NOTICE, StoreWatch } from './watch.ts';

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

  private constructor(pool: pg.Pool, options: { connectionString: string; schema: string }) {
    this.#pool = pool;
    this.#table = `"${options.schema}".ip_schedules`;
    this.#sequence = `'"${options.schema}".ip_schedule_versions'`;
    this.#channel = channelOf(options.schema);
    this.#policies = `"${options.schema}".applied_policies`;
    this.#watch = new StoreWatch(options.connectionString, options.schema);
  }

  /** Connects and migrates the schema */
  static async open(options: { connectionString: string; schema: string; poolSize: number }): Promise<PostgresStore> {
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

  async put(ip: string, record: IpRecord, condition: WriteCondition): Promise<number | undefined> {
    const json = JSON.stringify(record);
    // The notice goes out in the write's own statement: delivered when it commits, never for a write that did not
    const { rows } = condition.expected === null
      ? await this.#pool.query<Row>(
        `WITH w AS (INSERT INTO ${this.#table} (ip, record, version) VALUES ($1, $2, nextval(${this.#sequence}))
         ON CONFLICT (ip) DO NOTHING RETURNING ip, version) SELECT version, pg_notify($3, ip) FROM w`, [ip, json, this.#channel])
      : await this.#pool.query<Row>(
        `WITH w AS (UPDATE ${this.#table} SET record = $2, version = nextval(${this.#sequence})
         WHERE ip = $1 AND version = $3 RETURNING ip, version) SELECT version, pg_notify($4, ip) FROM w`, [ip, json, condition.expected, this.#channel]);
    return rows[0] && Number(rows[0].version);
  }

  async delete(ip: string, condition: { expected: number }): Promise<boolean> {
    const { rowCount } = await this.#pool.query(
      `WITH w AS (DELETE FROM ${this.#table} WHERE ip = $1 AND version = $2 RETURNING ip) SELECT pg_notify($3, ip) FROM w`,
      [ip, condition.expected, this.#channel],
    );
    return rowCount === 1;
  }

  async listPolicies(): Promise<AppliedPolicy[]> {
    const { rows } = await this.#pool.query<{ id: string; kind: AppliedPolicy['kind']; object: AppliedPolicy['object']; expires: string; level: number; reason: AppliedPolicy['reason'] | null }>(
      `SELECT id, kind, object, expires, level, reason FROM ${this.#policies} ORDER BY id`,
    );
    return rows.map(({ reason, ...row }) => ({ ...row, expires: Number(row.expires), ...(reason ? { reason } : {}) }));
  }

  async putPolicy(policy: AppliedPolicy): Promise<void> {
    await this.#pool.query(
      `WITH w AS (INSERT INTO ${this.#policies} (id, kind, object, expires, level, reason) VALUES ($1, $2, $3, $4, $5, $8)
       ON CONFLICT (id) DO UPDATE SET kind = $2, object = $3, expires = $4, level = $5, reason = $8 RETURNING id)
       SELECT pg_notify($6, $7 || id) FROM w`,
      [policy.id, policy.kind, JSON.stringify(policy.object), policy.expires, policy.level, this.#channel, POLICY_NOTICE, policy.reason ? JSON.stringify(policy.reason) : null],
    );
  }

  async deletePolicy(id: string, condition: { expires: number }): Promise<boolean> {
    const { rowCount } = await this.#pool.query(
      `WITH w AS (DELETE FROM ${this.#policies} WHERE id = $1 AND expires = $2 RETURNING id) SELECT pg_notify($3, $4 || id) FROM w`,
      [id, condition.expires, this.#channel, POLICY_NOTICE],
    );
    return rowCount === 1;
  }

  /** Notices of every host's writes through PostgreSQL's LISTEN/NOTIFY, on a connection of their own */
  watch(listener: StoreChangeListener): Promise<() => void> {
    return this.#watch.add(listener);
  }

  /** Stops listening and closes the pool once in-flight queries finish */
  async close(): Promise<void> {
    await this.#watch.close();
    await this.#pool.end();
  }
}

function stored(row: Row): StoredIp {
  // bigint arrives as text; sequence values stay far below 2^53
  return { ip: row.ip, record: row.record, version: Number(row.version) };
}
