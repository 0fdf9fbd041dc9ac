/**
 * Corrections in PostgreSQL, shared by every host on one schema. Each write notifies the schema's channel in its
 * transaction, so the notice arrives when it commits; each host listens on a connection of its own (the runtime's
 * `NotificationListener`) and re-reads the table (at most `corrections.maxCount` rows; corrections are made by
 * hand). A lost listening connection reconnects and counts as a change, since notices sent meanwhile are gone. A host
 * hears its own changes as soon as they commit, before the write resolves, and skips their notices: one re-read per
 * change
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { NotificationListener, terminatedByServer, type Logger } from '../../../runtime/mod.ts';
import { CorrectionsFull, type Correction, type CorrectionStore } from './store.ts';

// Hosts starting together must not race to create the table: one migrates, the others wait on this lock
const MIGRATION_LOCK = 0x62_6f_75_6e;

export interface PgStoreOptions {
  connectionString: string;
  schema: string;
  applicationName: string;
  log: Logger;
}

export async function openPgStore(options: PgStoreOptions): Promise<CorrectionStore> {
  const config = {
    connectionString: options.connectionString,
    application_name: options.applicationName,
    connectionTimeoutMillis: 5000,
  };
  // A database out of reach answers a write within seconds (503), not when TCP gives up
  const pool = new pg.Pool({ ...config, max: 2, query_timeout: 5000 });
  pool.on('error', (error) => options.log.warn('corrections database connection lost', { error: error.message }));
  const table = `"${options.schema}".bounce_corrections`;
  const channel = `capstan_corrections_${options.schema}`.slice(0, 63);
  // The plugin's name alone would not tell the operator which of its databases failed to answer
  await transaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, normalised text NOT NULL UNIQUE, correction jsonb NOT NULL, created timestamptz NOT NULL)`,
    );
  }).catch(async (error: Error) => {
    await pool.end().catch(() => undefined);
    throw new Error(`Cannot open the corrections database ("corrections.connectionString"): ${error.message}`);
  });
  const listener = new NotificationListener({
    client: () => new pg.Client(config),
    channel,
    log: options.log,
    lostMessage: 'corrections listening connection lost; reconnecting, then re-reading the corrections',
  });
  // Notices carry the writing store's token: this host already told its listeners when its write committed, so its
  // own notices would only read the table a second time
  const token = randomUUID();
  const own = new Set<() => void>();
  const changed = () => own.forEach((listener) => listener());
  return {
    async list() {
      const { rows } = await pool.query<{ correction: Correction }>(
        `SELECT correction FROM ${table} ORDER BY created, id`,
      );
      return rows.map((row) => row.correction);
    },
    async newest(limit) {
      // One statement, so the count and the rows are of one snapshot
      const { rows } = await pool.query<{ correction: Correction | null; total: number }>(
        `SELECT newest.correction, counted.total FROM (SELECT count(*)::int AS total FROM ${table}) AS counted
         LEFT JOIN LATERAL (SELECT correction, created, id FROM ${table} ORDER BY created DESC, id DESC LIMIT $1) AS newest
         ON true ORDER BY newest.created, newest.id`,
        [limit],
      );
      return {
        corrections: rows.flatMap((row) => (row.correction ? [row.correction] : [])),
        total: rows[0]?.total ?? 0,
      };
    },
    put: async (correction, { replacing, maxCount }) => {
      const replaced = await transaction(pool, async (client) => {
        // Puts of every host one at a time, so the count cannot pass the limit between two of them
        await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [table]);
        const { rows } = await client.query<{ correction: Correction }>(
          `DELETE FROM ${table} WHERE normalised = $1 OR id = $2 RETURNING correction`,
          [correction.normalised, replacing ?? null],
        );
        const { rows: count } = await client.query<{ kept: number }>(`SELECT count(*)::int AS kept FROM ${table}`);
        if (count[0]!.kept >= maxCount) throw new CorrectionsFull(count[0]!.kept, maxCount);
        await client.query(`INSERT INTO ${table} (id, normalised, correction, created) VALUES ($1, $2, $3, $4)`, [
          correction.id,
          correction.normalised,
          correction,
          correction.created,
        ]);
        await client.query('SELECT pg_notify($1, $2)', [channel, `${token} ${correction.id}`]);
        return rows[0]?.correction;
      });
      changed();
      return replaced;
    },
    delete: async (id) => {
      const removed = await transaction(pool, async (client) => {
        const { rows } = await client.query<{ correction: Correction }>(
          `DELETE FROM ${table} WHERE id = $1 RETURNING correction`,
          [id],
        );
        if (rows[0]) await client.query('SELECT pg_notify($1, $2)', [channel, `${token} ${id}`]);
        return rows[0]?.correction;
      });
      if (removed) changed();
      return removed;
    },
    // Every other host's notice and every reconnection is a change: the listener re-reads the whole table
    async watch(onChange) {
      await listener.listen((notice) => {
        if ('lost' in notice || !notice.payload.startsWith(`${token} `)) onChange();
      });
      own.add(onChange);
    },
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}

/** BEGIN failed: nothing ran in the transaction */
class NotBegun extends Error {
  constructor(readonly reason: unknown) {
    super('BEGIN failed');
  }
}

/**
 * The server ended the connection, or its socket closed. Either way a BEGIN that failed on it ran nothing (a statement
 * in flight when a socket closes may have, which is why only the BEGIN is run again)
 */
function connectionEnded(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return (
    terminatedByServer(error) ||
    code === 'ECONNRESET' ||
    code === 'EPIPE' ||
    /connection terminated/i.test(message ?? '')
  );
}

/**
 * Runs `work` in a transaction. A connection the server ended while it sat idle in the pool (a restart) fails its next
 * statement, the BEGIN, before the pool has heard of it: nothing ran, so the transaction runs again, on the next
 * connection, until one answers or every idle one has been tried
 */
async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let tries = pool.idleCount + 1; ; tries--) {
    try {
      return await attempt(pool, work);
    } catch (error) {
      if (!(error instanceof NotBegun)) throw error;
      if (tries <= 1 || !connectionEnded(error.reason)) throw error.reason;
    }
  }
}

async function attempt<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  // A connection the server ends while it is checked out emits 'error' besides failing its query; the pool listens
  // only while it is idle, and an 'error' nobody hears ends the process
  const lost = () => (broken = true);
  client.on('error', lost);
  try {
    await client.query('BEGIN').catch((error: unknown) => {
      throw new NotBegun(error);
    });
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    // The server's own refusal or the limit leave a connection that answers: it rolls back. Any other (cut, timed
    // out mid-query) is closed instead, which rolls back on the server too: a rollback would wait behind the query
    // that timed out
    if (error instanceof NotBegun) {
      broken = true;
    } else if (error instanceof pg.DatabaseError || error instanceof CorrectionsFull) {
      await client.query('ROLLBACK').catch(() => (broken = true));
    } else {
      broken = true;
    }
    throw error;
  } finally {
    client.removeListener('error', lost);
    client.release(broken);
  }
}
