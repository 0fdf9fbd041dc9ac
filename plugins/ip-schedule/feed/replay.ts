/**
 * The replay a connecting client gets (VERSION, a CREATE per object in force, SYNCED), encoded once per state and
 * shared by every client connecting while that state holds. It is kept as WebSocket frames already framed (the
 * server's frames are not masked, so the bytes are the same for every client), joined into chunks of about
 * `REPLAY_CHUNK_BYTES`: a reconnect storm then costs one socket write per chunk and client instead of two per object
 * and client, and the host holds one copy of the replay however many clients are reading it.
 */
import {
  SYNCED_FRAME,
  VERSION_FRAME,
  headerBytes,
  writeHeader,
  type FeedObject,
  type FeedObjects,
} from './protocol.ts';

/** Bytes of one replay chunk: one socket write, at most one per client and turn of the event loop */
export const REPLAY_CHUNK_BYTES = 64 * 1024;

/**
 * One state's replay. Its chunks are encoded as the first client reading them needs them, from the state's objects
 * (maps the state replaces, never alters): encoding 50,000 objects at once would itself stall the event loop, a
 * chunk at a time fits in the pump's slices, and every later client gets the same chunks
 */
export class Replay {
  /** CREATE frames in it (for the sent counters) */
  readonly creates: number;
  readonly #objects: Iterator<FeedObject>;
  readonly #chunks: Buffer[] = [];
  /** An object that did not fit in the last chunk */
  #carried: FeedObject | undefined;
  #ended = false;

  /** The replay of the objects of `groups`, in order */
  constructor(groups: readonly FeedObjects[]) {
    const list = (objects: FeedObjects): Iterable<FeedObject> =>
      Array.isArray(objects) ? objects : (objects as ReadonlyMap<string, FeedObject>).values();
    this.creates = groups.reduce(
      (sum, objects) =>
        sum + (Array.isArray(objects) ? objects.length : (objects as ReadonlyMap<string, FeedObject>).size),
      0,
    );
    this.#objects = (function* () {
      for (const objects of groups) yield* list(objects);
    })();
  }

  /** Chunk number `index`, encoded on first use; undefined past the last */
  chunk(index: number): Buffer | undefined {
    while (this.#chunks.length <= index && !this.#ended) this.#encodeChunk();
    return this.#chunks[index];
  }

  /** Encodes the next chunk's worth of frames (VERSION before the first object, SYNCED after the last) */
  #encodeChunk(): void {
    let chunk = Buffer.allocUnsafe(REPLAY_CHUNK_BYTES);
    let offset = 0;
    const append = (payload: string | Buffer): boolean => {
      const length = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
      const size = headerBytes(length) + length;
      if (offset + size > chunk.length) {
        if (offset > 0) return false;
        // A frame larger than a chunk gets a chunk of its own size
        chunk = Buffer.allocUnsafe(size);
      }
      offset = writeHeader(chunk, offset, length);
      offset += typeof payload === 'string' ? chunk.write(payload, offset) : payload.copy(chunk, offset);
      return true;
    };
    if (this.#chunks.length === 0) append(VERSION_FRAME);
    for (let object = this.#carried ?? this.#objects.next().value; object; object = this.#objects.next().value) {
      this.#carried = object;
      if (!append(`{"action":"CREATE","${object.kind}":${object.json}}`))
        return void this.#chunks.push(chunk.subarray(0, offset));
    }
    this.#carried = undefined;
    this.#ended = append(SYNCED_FRAME);
    this.#chunks.push(chunk.subarray(0, offset));
  }
}
