/**
 * The connected feed clients: each gets the full state on connect (the shared, pre-framed replay of that state), then
 * every change. The replays of all connecting clients are written by one pump, a chunk per client at a time, each
 * once that client's socket has taken the previous one, and for at most `PUMP_SLICE_MS` before the pump yields to the
 * event loop: a reconnect storm cannot hold up other requests. Memory per client is bounded: a replay is shared and
 * goes into a socket only as it drains, changes arriving meanwhile wait in the client's queue (sent after SYNCED), and
 * a client found more than `maxBufferedBytes` behind (queued or in the socket) when a change comes or when its replay
 * moves on is cut off, so it holds at most that plus one change; it reconnects and gets the full state again.
 * A ping goes out every `pingIntervalMs`; a client that has not answered the previous one (nor, in its replay, taken
 * a chunk since) is cut off too: a client that stopped reading mid-replay, with no change coming, is cut off this way.
 * What is sent and who is dropped is
 * counted through `FeedCounters` (the plugin's metrics).
 */
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Logger } from '../../../runtime/mod.ts';
import { frameAction, wireFrames, type FrameAction } from './protocol.ts';
import type { Replay } from './replay.ts';

/** Longest run of replay writes before the pump lets the event loop serve others */
const PUMP_SLICE_MS = 4;

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
  /** The connection under ws: the replay and the changes are framed here once for every client, so they go to it as they are */
  socket: Duplex;
  alive: boolean;
  /** The replay being written and the index of its next chunk; undefined once SYNCED is in the socket */
  replay: Replay | undefined;
  next: number;
  /** Frames that came while the replay was being written, sent after it */
  queued: Buffer[];
  queuedBytes: number;
}

/**
 * The socket ws writes to. ws keeps it private, but writing whole frames to it between ws's own writes is sound: with
 * compression off (the host's setting) ws writes each frame to it at once, in call order, and counts what it holds
 * in `bufferedAmount`
 */
function socketOf(ws: WebSocket): Duplex {
  return (ws as unknown as { _socket: Duplex })._socket;
}

/** Every client of one feed */
export class FeedClients {
  readonly #options: ClientOptions;
  readonly #counters: FeedCounters;
  readonly #clients = new Set<Client>();
  readonly #timer: NodeJS.Timeout;
  /** Clients in replay whose socket has taken what it was given: the pump writes their next chunk */
  readonly #ready = new Set<Client>();
  #pumping: NodeJS.Immediate | undefined;

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

  /** Takes a new client and writes it `replay`, the state at this instant; changes from now on follow it */
  add(ws: WebSocket, replay: Replay): void {
    const client: Client = { ws, socket: socketOf(ws), alive: true, replay, next: 0, queued: [], queuedBytes: 0 };
    this.#clients.add(client);
    ws.on('close', () => this.#forget(client));
    ws.on('pong', () => (client.alive = true));
    // The protocol has nothing for a client to say; ws itself closes a client sending malformed frames (the host logs
    // it)
    ws.on('message', () => {});
    ws.on('error', () => this.#counters.dropped('malformed_frame'));
    client.socket.on('drain', () => {
      // A socket in replay drains only when the client reads: that answers for it as a pong would. A ping waits in
      // the socket behind the chunks the kernel holds, which a client busy with a storm may take longer to reach
      if (client.replay) client.alive = true;
      this.#wake(client);
    });
    this.#wake(client);
  }

  /** Sends `frames` to every client, in order */
  broadcast(frames: readonly Buffer[]): void {
    if (frames.length === 0) return;
    const bytes = frames.reduce((sum, f) => sum + f.length, 0);
    // Framed once for all: at 500 clients, framing and writing each frame per client through ws was most of a change's way out
    let wire: Buffer | undefined;
    let sentTo = 0;
    for (const client of this.#clients) {
      if (!client.replay) {
        if (this.#send(client, (wire ??= wireFrames(frames)))) sentTo++;
        continue;
      }
      if (this.#behind(client) > this.#options.maxBufferedBytes) {
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
    if (this.#pumping) clearImmediate(this.#pumping);
    for (const client of this.#clients) client.ws.terminate();
    this.#clients.clear();
    this.#ready.clear();
  }

  /** Bytes a client is behind: what its socket holds and the changes waiting for its replay to end */
  #behind(client: Client): number {
    return client.ws.bufferedAmount + client.queuedBytes;
  }

  /** Puts a client in replay whose socket can take more on the pump's list */
  #wake(client: Client): void {
    if (!client.replay || !this.#clients.has(client)) return;
    this.#ready.add(client);
    this.#pumping ??= setImmediate(() => this.#pump());
  }

  /**
   * Writes the next chunk of each ready client's replay, round robin, until none is ready or the slice is used up;
   * what is left waits for the next turn of the event loop
   */
  #pump(): void {
    this.#pumping = undefined;
    const until = performance.now() + PUMP_SLICE_MS;
    for (const client of this.#ready) {
      this.#ready.delete(client);
      this.#write(client);
      if (performance.now() >= until) break;
    }
    if (this.#ready.size > 0) this.#pumping ??= setImmediate(() => this.#pump());
  }

  /** Writes replay chunks to one client until its socket holds one it has not sent (it says when: 'drain') */
  #write(client: Client): void {
    const { ws, socket } = client;
    const replay = client.replay!;
    if (ws.readyState !== ws.OPEN) return;
    if (this.#behind(client) > this.#options.maxBufferedBytes) {
      this.#drop(client, 'slow_reader', 'too far behind while catching up');
      return;
    }
    for (let chunk = replay.chunk(client.next); chunk; chunk = replay.chunk(client.next)) {
      client.next++;
      if (!socket.write(chunk)) return;
    }
    this.#synced(client, replay);
  }

  /** The replay is in the socket: counts it, sends what was queued meanwhile and switches the client to changes */
  #synced(client: Client, replay: Replay): void {
    this.#counters.sent('VERSION', 1);
    if (replay.creates > 0) this.#counters.sent('CREATE', replay.creates);
    this.#counters.sent('SYNCED', 1);
    const { queued } = client;
    client.replay = undefined;
    client.queued = [];
    client.queuedBytes = 0;
    if (queued.length > 0 && this.#send(client, wireFrames(queued))) this.#count(queued, 0, queued.length, 1);
  }

  #forget(client: Client): void {
    this.#clients.delete(client);
    this.#ready.delete(client);
    // What it would have been sent goes with it: the replay is shared, the queue is its own
    client.replay = undefined;
    client.queued = [];
    client.queuedBytes = 0;
  }

  /**
   * Sends frames, as `wireFrames` framed them, to one client unless it is already more than the bound behind (one
   * change is never split) or closing
   */
  #send(client: Client, wire: Buffer): boolean {
    if (client.ws.bufferedAmount > this.#options.maxBufferedBytes) {
      this.#drop(client, 'slow_reader', 'too far behind');
      return false;
    }
    if (client.ws.readyState !== client.ws.OPEN) return false;
    client.socket.write(wire);
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
    this.#forget(client);
    // terminate, not close: a close frame would wait behind everything the client has not read
    client.ws.terminate();
  }
}
