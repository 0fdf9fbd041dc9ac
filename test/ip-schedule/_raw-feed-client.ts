/**
 * A policy feed client on a raw socket, cheap enough to run hundreds beside a host: it walks the frames without
 * parsing their JSON, answers pings as the MTA's client does, hashes what the replay carried and resolves at SYNCED.
 * With `read: false` it opens the feed and never reads a byte (a stuck MTA).
 */
import { createHash } from 'node:crypto';
import { connect } from 'node:net';

/** What a raw client saw of its replay */
export interface RawReplay {
  /** Frames up to SYNCED */
  frames: number;
  /** SHA-256 of the frames up to SYNCED, as received: the same for every client replayed the same state */
  digest: string;
  /** Milliseconds from connecting to SYNCED */
  ms: number;
}

/** A raw feed client */
export interface RawFeedClient {
  /** Resolves at SYNCED; rejects when the connection closes before */
  synced: Promise<RawReplay>;
  close(): void;
}

const SYNCED = Buffer.from('{"action":"SYNCED"}');
const UPGRADE = (host: string, path: string) =>
  `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';

/** Opens the feed at `address` (`ws://host:port/path?query`) */
export function rawFeedClient(address: string, options: { read?: boolean } = {}): RawFeedClient {
  const { hostname, port, pathname, search } = new URL(address);
  const started = performance.now();
  const socket = connect(Number(port), hostname, () => {
    socket.write(UPGRADE(hostname, pathname + search));
    if (options.read === false) socket.pause();
  });
  const synced = new Promise<RawReplay>((done, fail) => {
    const hash = createHash('sha256');
    let pending: Buffer = Buffer.alloc(0);
    let upgraded = false;
    let frames = 0;
    let ended = false;
    socket.on('error', fail);
    socket.on('close', () => fail(new Error(`feed connection closed after ${frames} frames`)));
    socket.on('data', (chunk: Buffer) => {
      let data: Buffer = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      if (!upgraded) {
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) return void (pending = data);
        if (!data.subarray(0, 12).toString().startsWith('HTTP/1.1 101'))
          return fail(new Error(data.subarray(0, end).toString()));
        upgraded = true;
        data = data.subarray(end + 4);
      }
      // Hashed a run of frames at a time (hundreds of clients share this process): up to a ping, which is skipped, or
      // SYNCED
      let at = 0;
      let from = 0;
      const hashTo = (to: number) => {
        if (!ended && to > from) hash.update(data.subarray(from, to));
      };
      while (at + 2 <= data.length) {
        let length = data[at + 1]! & 0x7f;
        let start = at + 2;
        if (length === 126) {
          if (at + 4 > data.length) break;
          [length, start] = [data.readUInt16BE(at + 2), at + 4];
        } else if (length === 127) {
          if (at + 10 > data.length) break;
          [length, start] = [Number(data.readBigUInt64BE(at + 2)), at + 10];
        }
        const end = start + length;
        if (end > data.length) break;
        const opcode = data[at]! & 0x0f;
        if (opcode === 0x9) {
          // A pong, masked as a client's frames must be (a zero mask leaves the payload as it is)
          hashTo(at);
          from = end;
          socket.write(Buffer.concat([Buffer.from([0x8a, 0x80 | length, 0, 0, 0, 0]), data.subarray(start, end)]));
        } else if (!ended) {
          frames++;
          if (opcode === 0x1 && length === SYNCED.length && data.subarray(start, end).equals(SYNCED)) {
            hashTo(end);
            ended = true;
            done({ frames, digest: hash.digest('hex'), ms: performance.now() - started });
          }
        }
        at = end;
      }
      hashTo(at);
      pending = Buffer.from(data.subarray(at));
    });
  });
  // Callers that only close it do not wait for SYNCED
  synced.catch(() => {});
  return { synced, close: () => socket.destroy() };
}
