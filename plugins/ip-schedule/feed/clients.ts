/**
 * The connected feed clients: each gets the full state on connect (VERSION, a CREATE per object, SYNCED), then every
 * change. Memory per client is bounded: the replay is written as the socket drains, changes arriving meanwhile wait
 * in a queue, and a client found more than `maxBufferedBytes` behind (queued or in the socket) when a change comes is
 * cut off, so it holds at most that plus one change; it reconnects and gets the full state again.
 * A ping goes out every `pingIntervalMs`; a client that has not answered the previous one is cut off too. What is sent and who is dropped is counted through `FeedCounters` (the plugin's metrics).
 */
import type { WebSocket } from 'ws';
import type { Logger } from '../../../runtime/mod.ts';
import { frameAction, SYNCED_FRAME, VERSION_FRAME, type FrameAction } from './protocol.ts';

/** Bytes the replay puts in a socket before it waits for them to be written */
const REPLAY_CHUNK_BYTES = 256 * 1024;
const TEXT = { binary: false };

/** Why a client was cut off: over the buffer bound, no answer to a ping, or a frame ws refused (malformed) */
export type DropReason = 'slow_reader' | 'missed_ping' | 'malformed_frame';

/** What the clients count: frames sent (once per client) by action, and clients dropped by reason */
export interface FeedCounters {
  sent(action: FrameAction, count: number): void;
  dropped(reason: DropReason): void;
}

const NOT_COUNTED: FeedCounters = { sent() {}, dropped() {} };

/** Settings of the client set */
export interface ClientOptions {
  maxBufferedBytes: number;
  pingIntervalMs: number;
  log: Logger;
  counters?: FeedCounters;
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
  readonly #counters: FeedCounters;
  readonly #clients = new Set<Client>();
  readonly #timer: NodeJS.Timeout;

  constructor(options: ClientOptions) {
    this.#options = options;
    this.#counters = options.counters ?? NOT_COUNTED;
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
    // The protocol has nothing for a client to say; ws itself closes a client sending malformed frames (the host logs it)
    ws.on('message', () => {});
    ws.on('error', () => this.#counters.dropped('malformed_frame'));
    this.#replay(client, [VERSION_FRAME, ...objects, SYNCED_FRAME], 0);
  }

  /** Sends `frames` to every client, in order */
  broadcast(frames: readonly Buffer[]): void {
    if (frames.length === 0) return;
    const bytes = frames.reduce((sum, f) => sum + f.length, 0);
    let sentTo = 0;
    for (const client of this.#clients) {
      if (!client.queued) {
        if (this.#send(client, frames)) sentTo++;
        continue;
      }
      if (client.queuedBytes > this.#options.maxBufferedBytes) {
        this.#drop(client, 'slow_reader', 'too far behind while catching up');
        continue;
      }
      client.queued.push(...frames);
      client.queuedBytes += bytes;
    }
    // Counted once for every client that got them (those catching up count them when their queue goes out)
    if (sentTo > 0) this.#count(frames, 0, frames.length, sentTo);
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
      this.#count(frames, from, next, 1);
      return;
    }
    ws.send(frames[index]!, TEXT);
    this.#count(frames, from, frames.length, 1);
    const queued = client.queued!;
    client.queued = undefined;
    client.queuedBytes = 0;
    if (queued.length > 0 && this.#send(client, queued)) this.#count(queued, 0, queued.length, 1);
  }

  /** Sends frames to one client unless it is already more than the bound behind (one change is never split) */
  #send(client: Client, frames: readonly Buffer[]): boolean {
    if (client.ws.bufferedAmount > this.#options.maxBufferedBytes) {
      this.#drop(client, 'slow_reader', 'too far behind');
      return false;
    }
    for (const frame of frames) client.ws.send(frame, TEXT);
    return true;
  }

  /** Counts `frames[from..to)` by action, each sent `times` (to that many clients): one increment per action */
  #count(frames: readonly Buffer[], from: number, to: number, times: number): void {
    let create = 0;
    let update = 0;
    let remove = 0;
    for (let i = from; i < to; i++) {
      const action = frameAction(frames[i]!);
      if (action === 'CREATE') create++;
      else if (action === 'UPDATE') update++;
      else if (action === 'DELETE') remove++;
      else this.#counters.sent(action, times);
    }
    if (create > 0) this.#counters.sent('CREATE', create * times);
    if (update > 0) this.#counters.sent('UPDATE', update * times);
    if (remove > 0) this.#counters.sent('DELETE', remove * times);
  }

  #ping(): void {
    for (const client of this.#clients) {
      if (!client.alive) {
        this.#drop(client, 'missed_ping', 'no answer to the last ping');
        continue;
      }
      client.alive = false;
      client.ws.ping();
    }
  }

  #drop(client: Client, counted: DropReason, reason: string): void {
    this.#counters.dropped(counted);
    this.#options.log.info('feed client dropped', { reason, buffered: client.ws.bufferedAmount + client.queuedBytes });
    this.#clients.delete(client);
    // terminate, not close: a close frame would wait behind everything the client has not read
    client.ws.terminate();
  }
}
