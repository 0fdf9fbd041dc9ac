/**
 * The connected feed clients: each gets the full state on connect (VERSION, a CREATE per object, SYNCED), then every
 * change. Memory per client is bounded: the replay is written as the socket drains, changes arriving meanwhile wait
 * in a queue, and a client found more than `maxBufferedBytes` behind (queued or in the socket) when a change comes is
 * cut off, so it holds at most that plus one change; it reconnects and gets the full state again. A ping goes out every `pingIntervalMs`; a client that has not answered the previous one
 * is cut off too.
 */
import type { WebSocket } from 'ws';
import type { Logger } from '../../../runtime/mod.ts';
import { SYNCED_FRAME, VERSION_FRAME } from './protocol.ts';

/** Bytes the replay puts in a socket before it waits for them to be written */
const REPLAY_CHUNK_BYTES = 256 * 1024;
const TEXT = { binary: false };

/** Settings of the client set */
export interface ClientOptions {
  maxBufferedBytes: number;
  pingIntervalMs: number;
  log: Logger;
}

interface Client {
  ws: WebSocket;
  alive: boolean;
  /** Frames that came while the replay was being written, sent after it */
  queued: Buffer[] | undefined;
  queuedBytes: number;
}

/** Every client of one feed */
export class FeedClients {
  readonly #options: ClientOptions;
  readonly #clients = new Set<Client>();
  readonly #timer: NodeJS.Timeout;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#timer = setInterval(() => this.#ping(), options.pingIntervalMs);
    this.#timer.unref();
  }

  /** Number of connected clients */
  get size(): number {
    return this.#clients.size;
  }

  /** Takes a new client and replays `objects` (CREATE frames of the state at this instant) to it */
  add(ws: WebSocket, objects: readonly Buffer[]): void {
    const client: Client = { ws, alive: true, queued: [], queuedBytes: 0 };
    this.#clients.add(client);
    ws.on('close', () => this.#clients.delete(client));
    ws.on('pong', () => (client.alive = true));
    // The protocol has nothing for a client to say; ws itself closes a client sending malformed frames
    ws.on('message', () => {});
    this.#replay(client, [VERSION_FRAME, ...objects, SYNCED_FRAME], 0);
  }

  /** Sends `frames` to every client, in order */
  broadcast(frames: readonly Buffer[]): void {
    if (frames.length === 0) return;
    const bytes = frames.reduce((sum, f) => sum + f.length, 0);
    for (const client of this.#clients) {
      if (!client.queued) {
        this.#send(client, frames);
        continue;
      }
      if (client.queuedBytes > this.#options.maxBufferedBytes) {
        this.#drop(client, 'too far behind while catching up');
        continue;
      }
      client.queued.push(...frames);
      client.queuedBytes += bytes;
    }
  }

  /** Stops pinging and cuts off every client */
  close(): void {
    clearInterval(this.#timer);
    for (const client of this.#clients) client.ws.terminate();
    this.#clients.clear();
  }

  /** Writes the replay from `from` on, a chunk at a time, each once the previous one has left the socket */
  #replay(client: Client, frames: readonly Buffer[], from: number): void {
    const { ws } = client;
    if (ws.readyState !== ws.OPEN) return;
    let index = from;
    let bytes = 0;
    while (index < frames.length - 1 && bytes < REPLAY_CHUNK_BYTES) {
      bytes += frames[index]!.length;
      ws.send(frames[index++]!, TEXT);
    }
    if (index < frames.length - 1) {
      // The chunk's last frame tells when the chunk has been written
      const next = index + 1;
      ws.send(frames[index]!, TEXT, (error) => {
        if (!error) this.#replay(client, frames, next);
      });
      return;
    }
    ws.send(frames[index]!, TEXT);
    const queued = client.queued!;
    client.queued = undefined;
    client.queuedBytes = 0;
    if (queued.length > 0) this.#send(client, queued);
  }

  /** Sends frames to one client unless it is already more than the bound behind (one change is never split) */
  #send(client: Client, frames: readonly Buffer[]): void {
    if (client.ws.bufferedAmount > this.#options.maxBufferedBytes) {
      this.#drop(client, 'too far behind');
      return;
    }
    for (const frame of frames) client.ws.send(frame, TEXT);
  }

  #ping(): void {
    for (const client of this.#clients) {
      if (!client.alive) {
        this.#drop(client, 'no answer to the last ping');
        continue;
      }
      client.alive = false;
      client.ws.ping();
    }
  }

  #drop(client: Client, reason: string): void {
    this.#options.log.info('feed client dropped', { reason, buffered: client.ws.bufferedAmount + client.queuedBytes });
    this.#clients.delete(client);
    // terminate, not close: a close frame would wait behind everything the client has not read
    client.ws.terminate();
  }
}
