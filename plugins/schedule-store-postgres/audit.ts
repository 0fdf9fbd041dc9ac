/**
 * The audit trail of the PostgreSQL store: table `audit_log` of the store's schema. An entry that goes with a write
 * is inserted by the write's own statement (a data-modifying CTE reading the write's `w`), so it commits exactly when
 * the write does, in one round trip. Entries older than the retention are deleted a minute after start, then every
 * hour.
 */
import type pg from 'pg';
import type { AuditEntry, AuditQuery } from '../../runtime/mod.ts';

/** How the table reaches the database: the store's own queries, with its timeouts and its 503 on an outage */
export interface AuditDatabase {
  read<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>>;
  write<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>>;
}

const PRUNE_MS = 60 * 60 * 1000;
/** The first deletion waits this long: a host restarting often still prunes, and start-up has the pool to itself */
const FIRST_PRUNE_MS = 60 * 1000;
const COLUMNS = 'id, time, action, subject_ip, subject_grouping, subject_policy, principal, entry';
/** The column types, cast in the CTE: parameters of an `INSERT ... SELECT` take no type from the columns */
const TYPES = ['text', 'timestamptz', 'text', 'text', 'text', 'text', 'text', 'json'];

/** The values of an entry's columns, in `COLUMNS` order */
function values(entry: AuditEntry): unknown[] {
  const { ip, grouping, policy } = entry.subject;
  return [
    entry.id,
    entry.time,
    entry.action,
    ip ?? null,
    grouping ?? null,
    policy ?? null,
    entry.principal,
    JSON.stringify(entry),
  ];
}

/** One schema's audit table */
export class AuditTable {
  readonly #db: AuditDatabase;
  readonly #table: string;
  readonly #retentionDays: number;
  #timer: NodeJS.Timeout;

  constructor(db: AuditDatabase, schema: string, retentionDays: number, onError: (error: unknown) => void) {
    this.#db = db;
    this.#table = `"${schema}".audit_log`;
    this.#retentionDays = retentionDays;
    const prune = () => void this.prune().catch(onError);
    this.#timer = setTimeout(() => {
      prune();
      this.#timer = setInterval(prune, PRUNE_MS).unref();
    }, FIRST_PRUNE_MS).unref();
  }

  /**
   * The CTE inserting `entry` once per row of the write's CTE `w` (none when the write changed nothing), to append to
   * the write's `WITH w AS (...)`, and its parameters, numbered from `$first`; nothing without an entry
   */
  cte(entry: AuditEntry | undefined, first: number): { sql: string; params: unknown[] } {
    if (!entry) return { sql: '', params: [] };
    const placeholders = TYPES.map((type, index) => `$${first + index}::${type}`);
    return {
      sql: `, audited AS (INSERT INTO ${this.#table} (${COLUMNS}) SELECT ${placeholders.join(', ')} FROM w)`,
      params: values(entry),
    };
  }

  async append(entries: readonly AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map(
      (_, row) => `(${TYPES.map((__, index) => `$${row * TYPES.length + index + 1}`).join(', ')})`,
    );
    await this.#db.write(`INSERT INTO ${this.#table} (${COLUMNS}) VALUES ${rows.join(', ')}`, entries.flatMap(values));
  }

  async query(query: AuditQuery): Promise<AuditEntry[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    const match = (condition: string, value: unknown) => {
      if (value === undefined) return;
      params.push(value);
      where.push(condition.replace('?', `$${params.length}`));
    };
    match('time >= ?::timestamptz', query.from);
    match('time < ?::timestamptz', query.to);
    match('action = ?', query.action);
    match('subject_ip = ?', query.ip);
    match('subject_grouping = ?', query.grouping);
    match('subject_policy = ?', query.policy);
    match('principal = ?', query.principal);
    match('id < ?', query.before);
    params.push(query.limit);
    const { rows } = await this.#db.read<{ entry: string }>(
      `SELECT entry::text AS entry FROM ${this.#table} ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT $${params.length}`,
      params,
    );
    return rows.map((row) => JSON.parse(row.entry) as AuditEntry);
  }

  /** Deletes the entries past the retention */
  async prune(): Promise<void> {
    await this.#db.write(`DELETE FROM ${this.#table} WHERE time < now() - make_interval(days => $1)`, [
      this.#retentionDays,
    ]);
  }

  close(): void {
    clearTimeout(this.#timer);
  }
}
