/**
 * A PostgreSQL `LISTEN` connection for plugins whose hosts share a database: every write that runs `pg_notify` on
 * the channel reaches every host's listeners once it commits. One dedicated connection per listener; when it is lost
 * it reconnects (backing off up to 5 s) and tells the listeners `{ lost: true }`, since notices sent meanwhile are
 * gone. A connection a partition cut says nothing, so a heartbeat query asks. The host takes a client factory instead
 * of importing `pg`: the plugin chooses the driver version and the connection settings (timeouts, application name).
 */
import type { Logger } from '../core/types.ts';

const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5000;
/** Between heartbeats of the listening connection; each waits at most the connection's query timeout */
const HEARTBEAT_MS = 5000;

/** The part of a `pg.Client` the listener uses; `new pg.Client(config)` is one */
export interface NotificationClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  removeAllListeners(event: 'end'): unknown;
}

/** A notice's payload (`''` when it had none), or `lost`: notices may have been lost, so anything may have changed */
export type Notification = { payload: string } | { lost: true };

/** Where a `NotificationListener` listens. Since plugin API 1.7 */
export interface NotificationListenerOptions {
  /** A new, unconnected client, called for the first connection and for each reconnection */
  client: () => NotificationClient;
  /** Channel name as `pg_notify` gets it (at most 63 bytes: PostgreSQL cuts longer identifiers) */
  channel: string;
  log: Logger;
  /** Logged (warn) when the connection is lost: say what the plugin's listeners do next, such as re-read a table */
  lostMessage: string;
}

/** One listening connection and the listeners it serves. Since plugin API 1.7 */
export class NotificationListener {
  readonly #options: NotificationListenerOptions;
  readonly #listeners = new Set<(notification: Notification) => void>();
  #client: NotificationClient | undefined;
  #connecting: Promise<void> | undefined;
  #retry: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #retryMs = FIRST_RETRY_MS;
  #closed = false;

  constructor(options: NotificationListenerOptions) {
    this.#options = options;
  }

  /** Adds a listener once the connection listens (the first call opens it); resolves with the function removing it */
  async listen(listener: (notification: Notification) => void): Promise<() => void> {
    // Its own wrapper, so that adding one function twice gives two listeners and each remover removes one
    const own = (notification: Notification) => listener(notification);
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
    const { channel } = this.#options;
    const client = this.#options.client();
    const lost = (error?: Error) => this.#lost(client, error);
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === channel) this.#tell({ payload: message.payload ?? '' });
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${channel}"`);
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

  #lost(client: NotificationClient, error?: Error): void {
    if (this.#client !== client || this.#closed) return;
    this.#options.log.warn(this.#options.lostMessage, {
      channel: this.#options.channel,
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

  #tell(notification: Notification): void {
    for (const listener of this.#listeners) {
      try {
        listener(notification);
      } catch {
        // A listener's failure is its own; the others must still hear of the write
      }
    }
  }
}
