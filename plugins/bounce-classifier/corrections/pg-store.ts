/**
 * Corrections in PostgreSQL, shared by every host on one schema. Each write notifies the schema's channel in its
 * transaction, so the notice arrives when it commits; each host listens on a connection of its own and re-reads the
 * table (a few hundred rows at most: corrections are made by hand). A lost listening connection reconnects, backing
 * off up to 5 s, and counts as a change, since notices sent meanwhile are gone
 */
import pg from 'pg';
import type { Logger } from '../../../runtime/mod.ts';
import type { Correction, CorrectionStore } from './store.ts';

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5000;
const HEARTBEAT_MS = 5000;
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
  const pool = new pg.Pool({ ...config, max: 2 });
  pool.on('error', (error) => options.log.warn('corrections database connection lost', { error: error.message }));
  const table = `"${options.schema}".bounce_corrections`;
  const channel = `capstan_corrections_${options.schema}`.slice(0, 63);
  await transaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, normalised text NOT NULL UNIQUE, correction jsonb NOT NULL, created timestamptz NOT NULL)`,
    );
  });
  const listener = new Listener(config, channel, options.log);
  return {
    async list() {
      const { rows } = await pool.query<{ correction: Correction }>(
        `SELECT correction FROM ${table} ORDER BY created, id`,
      );
      return rows.map((row) => row.correction);
    },
    put: (correction) =>
      transaction(pool, async (client) => {
        const { rows } = await client.query<{ correction: Correction }>(
          `DELETE FROM ${table} WHERE normalised = $1 RETURNING correction`,
          [correction.normalised],
        );
        await client.query(`INSERT INTO ${table} (id, normalised, correction, created) VALUES ($1, $2, $3, $4)`, [
          correction.id,
          correction.normalised,
          correction,
          correction.created,
        ]);
        await client.query('SELECT pg_notify($1, $2)', [channel, correction.id]);
        return rows[0]?.correction;
      }),
    delete: (id) =>
      transaction(pool, async (client) => {
        const { rows } = await client.query<{ correction: Correction }>(
          `DELETE FROM ${table} WHERE id = $1 RETURNING correction`,
          [id],
        );
        if (rows[0]) await client.query('SELECT pg_notify($1, $2)', [channel, id]);
        return rows[0]?.correction;
      }),
    watch: (onChange) => listener.start(onChange),
    async close() {
      await listener.close();
      await pool.end();
    },
  };
}

async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The listening connection: tells of every notice on the channel, and of every reconnection */
class Listener {
  readonly #config: pg.ClientConfig;
  readonly #channel: string;
  readonly #log: Logger;
  #onChange: () => void = () => {};
  #client: pg.Client | undefined;
  #retry: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #retryMs = FIRST_RETRY_MS;
  #closed = false;

  constructor(config: pg.ClientConfig, channel: string, log: Logger) {
    this.#config = config;
    this.#channel = channel;
    this.#log = log;
  }

  async start(onChange: () => void): Promise<void> {
    this.#onChange = onChange;
    await this.#connect();
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    clearInterval(this.#heartbeat);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const client = new pg.Client(this.#config);
    const lost = (error?: Error) => this.#lost(client, error);
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === this.#channel) this.#onChange();
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.#channel}"`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#retryMs = FIRST_RETRY_MS;
    this.#heartbeat = setInterval(() => client.query('SELECT 1').catch(lost), HEARTBEAT_MS).unref();
  }

  #lost(client: pg.Client, error?: Error): void {
    if (this.#client !== client || this.#closed) return;
    this.#log.warn('corrections listening connection lost; reconnecting, then re-reading the corrections', {
      error: error?.message ?? 'closed',
    });
    this.#client = undefined;
    clearInterval(this.#heartbeat);
    client.end().catch(() => undefined);
    this.#reconnect();
  }

  #reconnect(): void {
    this.#retry = setTimeout(() => {
      this.#connect().then(
        () => this.#onChange(),
        () => {
          this.#retryMs = Math.min(this.#retryMs * 2, LAST_RETRY_MS);
          if (!this.#closed) this.#reconnect();
        },
      );
    }, this.#retryMs);
  }
}
