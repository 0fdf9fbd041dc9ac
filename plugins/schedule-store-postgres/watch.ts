/**
 * Change notices of the PostgreSQL store: every write runs `pg_notify` on the schema's channel in its own statement, so
 * the notice is delivered when the write commits, to every host listening. One dedicated connection per store
 * listens; when it is lost it reconnects (backing off up to 5 s) and tells the listeners to re-read everything,
 * since notices sent meanwhile are gone. A connection a partition cut says nothing, so a heartbeat query asks.
 */
import pg from 'pg';
import type { Logger, StoreChange, StoreChangeListener } from '../../runtime/mod.ts';

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5000;
/** Between heartbeats of the listening connection; each waits at most the connection's query timeout */
const HEARTBEAT_MS = 5000;

/** Payload prefix of a notice about an applied policy; IP notices carry the IP alone (no IP starts with "p") */
export const POLICY_NOTICE = 'policy:';

/** The channel of a schema: PostgreSQL cuts identifiers at 63 bytes, and a shared prefix only causes spurious notices */
export function channelOf(schema: string): string {
  return `capstan_ips_${schema}`.slice(0, 63);
}

/** The listening connection of one store and the listeners it serves */
export class StoreWatch {
  readonly #config: pg.ClientConfig;
  readonly #channel: string;
  readonly #log: Logger;
  readonly #listeners = new Set<StoreChangeListener>();
  #client: pg.Client | undefined;
  #connecting: Promise<void> | undefined;
  #retry: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #retryMs = FIRST_RETRY_MS;
  #closed = false;

  constructor(config: pg.ClientConfig, schema: string, log: Logger) {
    this.#config = config;
    this.#channel = channelOf(schema);
    this.#log = log;
  }

  /** Adds a listener once the connection listens; the first call opens it */
  async add(listener: StoreChangeListener): Promise<() => void> {
    const own: StoreChangeListener = (change) => listener(change);
    this.#connecting ??= this.#connect().catch((error) => {
      this.#connecting = undefined;
      throw error;
    });
    await this.#connecting;
    this.#listeners.add(own);
    return () => void this.#listeners.delete(own);
  }

  /** Stops listening for good */
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
      if (message.channel !== this.#channel || !message.payload) return;
      const { payload } = message;
      this.#tell(payload.startsWith(POLICY_NOTICE) ? { policy: payload.slice(POLICY_NOTICE.length) } : { ip: payload });
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
    clearInterval(this.#heartbeat);
    this.#heartbeat = setInterval(() => client.query('SELECT 1').catch(lost), HEARTBEAT_MS).unref();
  }

  #lost(client: pg.Client, error?: Error): void {
    if (this.#client !== client || this.#closed) return;
    this.#log.warn('schedule database listening connection lost; reconnecting, then the feed re-reads every schedule', {
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
        () => this.#tell({ lost: true }),
        () => {
          this.#retryMs = Math.min(this.#retryMs * 2, LAST_RETRY_MS);
          if (!this.#closed) this.#reconnect();
        },
      );
    }, this.#retryMs);
  }

  #tell(change: StoreChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // A listener's failure is its own; the others must still hear of the write
      }
    }
  }
}
