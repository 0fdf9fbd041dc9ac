import { open, readdir, readFile, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeBlock, makeFolder, scanBlocks, writeFileAtomic, type Logger } from '../../../runtime/mod.ts';

/** One persisted cache entry: model, normalised text, class, probability */
export type LogRecord = readonly [model: string, text: string, label: string, probability: number];

/** Options of `FileLog.open` */
export interface FileLogOptions {
  log: Logger;
  /** Classifier version: blocks of other versions are not read back */
  version: string;
  /** Bytes the segments may hold on disk */
  maxBytes: number;
  /** Called when the segments are full and no compaction runs: the owner answers with `compact` */
  onFull: () => void;
}

const SEGMENT_RE = /^cache-(\d{8})\.log$/;
const NEWLINE = 0x0a;
/** Appends are gathered for this long so a burst of misses costs one write and one checksum */
const FLUSH_DELAY_MS = 20;
/** Payload characters of one block, about: a corrupt block loses only these, and a write holds no more in one string */
const BLOCK_BYTES = 64 * 1024;
/** Share of `maxBytes` that may wait in memory for the disk; records past it are not persisted */
const WAIT_SHARE = 1 / 16;
/** Share of `maxBytes` a compaction writes, so compactions stay rare */
const COMPACT_SHARE = 1 / 2;

/** What `FileLog.open` read back, beyond what it logged per segment (damaged stretches, unreadable segments) */
export interface LoadReport {
  /** Records of other classifier versions ignored: logged once for the folder by the caller */
  otherVersion: number;
}

/**
 * An append-only, checksummed cache log in a folder. The log is a series of blocks: a header line
 * `B <crc32 hex> <payload bytes> <version as JSON>` and a payload of records, one per line
 * `model<TAB>class<TAB>probability<TAB><text as JSON>`. A block whose header, length, checksum or record shape
 * is wrong (a torn tail after a crash, a corrupt sector) is skipped and logged, never trusted; blocks of
 * another classifier version are ignored. Sizes are counted in bytes as written (UTF-8 of the JSON text, lone
 * surrogates escaped), and an append that would take the segments past `maxBytes` is refused and asks for a
 * compaction. Compaction writes a fresh segment atomically (temporary file, fsync, rename) and then drops the
 * older ones, so a crash at any point leaves readable segments; only one runs at a time.
 */
export class FileLog {
  readonly folder: string;
  readonly #log: Logger;
  readonly #header: string;
  readonly #maxBytes: number;
  readonly #waitBytes: number;
  readonly #onFull: () => void;
  /** Readable segment numbers on disk, ascending; the last one takes appends */
  #segments: number[] = [];
  #handle: FileHandle | undefined;
  /** Bytes on disk, plus those queued for it, plus the share reserved for a compaction under way */
  #bytes = 0;
  /** Bytes encoded but not yet written: pending records and blocks queued behind other writes */
  #waiting = 0;
  #pending: string[] = [];
  #pendingBytes = 0;
  #torn = false;
  #timer: NodeJS.Timeout | undefined;
  #chain: Promise<void> = Promise.resolve();
  #failed = false;
  #compacting = false;
  #full = false;
  #closed = false;

  private constructor(folder: string, options: FileLogOptions) {
    this.folder = folder;
    this.#log = options.log;
    this.#header = JSON.stringify(options.version);
    this.#maxBytes = options.maxBytes;
    this.#onFull = options.onFull;
    this.#waitBytes = Math.max(BLOCK_BYTES, Math.floor(options.maxBytes * WAIT_SHARE));
  }

  /**
   * Opens the log in `folder` (created when missing) and hands every valid record of the version, oldest
   * first, to `onRecord`. Segments that cannot be read are left alone and reported; a folder that cannot be
   * used rejects.
   */
  static async open(
    folder: string,
    options: FileLogOptions,
    onRecord: (record: LogRecord) => void,
  ): Promise<{ fileLog: FileLog; report: LoadReport }> {
    const fileLog = new FileLog(folder, options);
    const report: LoadReport = { otherVersion: 0 };
    await makeFolder(folder);
    let highest = 0;
    for (const name of (await readdir(folder)).sort()) {
      const path = join(folder, name);
      // Only a file can be a temporary one of ours; anything else under that name is left alone
      if (name.endsWith('.tmp')) await rm(path, { force: true }).catch(() => undefined);
      const match = SEGMENT_RE.exec(name);
      if (!match) continue;
      highest = Math.max(highest, Number(match[1]));
      let data: Buffer;
      try {
        data = await readFile(path);
      } catch (error) {
        options.log.warn('Skipped unreadable cache segment', { file: path, error: String(error) });
        continue;
      }
      fileLog.#segments.push(Number(match[1]));
      fileLog.#bytes += data.length;
      const counts = readBlocks(data, fileLog.#header, onRecord);
      report.otherVersion += counts.otherVersion;
      if (counts.corrupt > 0) options.log.warn('Skipped corrupt cache records', { file: path, count: counts.corrupt });
      // A torn tail must not swallow the next block appended after it
      fileLog.#torn = data.length > 0 && data[data.length - 1] !== NEWLINE;
    }
    // Appends go past every segment name, readable or not, so an unreadable one is never written into
    if (fileLog.#segments.at(-1) !== highest || highest === 0) {
      fileLog.#segments.push(highest + 1);
      fileLog.#torn = false;
    }
    fileLog.#handle = await open(fileLog.#segmentPath(fileLog.#segments.at(-1)!), 'a');
    return { fileLog, report };
  }

  /** Bytes the segments hold on disk, counting what waits to be written */
  get bytes(): number {
    return this.#bytes;
  }

  /**
   * Queues a record; it reaches the disk within a few milliseconds. Answers false when it is not persisted: the
   * segments are full (the owner is asked to compact) or too much already waits for the disk.
   */
  append(record: LogRecord): boolean {
    if (this.#failed || this.#closed) return false;
    const line = encodeRecord(record);
    const bytes = Buffer.byteLength(line);
    // A record no compaction could keep would ask for one on every miss
    if (bytes > this.#maxBytes * COMPACT_SHARE) return false;
    // Appends would land in a segment the compaction is about to drop, beside its new one: keep them in memory
    // for the next compaction, so the folder never holds more than the old segments plus the compacted one
    if (this.#compacting) {
      this.#full = true;
      return false;
    }
    if (this.#bytes + bytes > this.#maxBytes) {
      this.#full = true;
      if (!this.#compacting) this.#onFull();
      return false;
    }
    if (this.#waiting + bytes > this.#waitBytes) return false;
    this.#pending.push(line);
    this.#pendingBytes += bytes;
    this.#waiting += bytes;
    this.#bytes += bytes;
    if (this.#pendingBytes >= BLOCK_BYTES) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS).unref();
    return true;
  }

  /** Writes queued records as one block */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.length === 0) return this.#chain;
    const block = (this.#torn ? '\n' : '') + this.#block(this.#pending.join(''));
    const bytes = this.#pendingBytes;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#torn = false;
    return this.#enqueue(async () => {
      try {
        await this.#handle?.appendFile(block);
      } finally {
        this.#waiting -= bytes;
      }
    });
  }

  /**
   * Replaces every segment with one holding the first records of `newestFirst` that fit in half of `maxBytes`,
   * written oldest first so they load back in the same recency. `newestFirst(i)` is read while the compaction
   * runs. Does nothing while another compaction is under way.
   */
  compact(count: number, newestFirst: (index: number) => LogRecord): void {
    if (this.#compacting || this.#failed || this.#closed) return;
    this.#compacting = true;
    this.#full = false;
    const budget = Math.floor(this.#maxBytes * COMPACT_SHARE);
    // Pending records are in the caller's snapshot, so they are not written twice
    this.#waiting -= this.#pendingBytes;
    this.#pending = [];
    this.#pendingBytes = 0;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#torn = false;
    this.#bytes = budget;
    void this.#enqueue(async () => {
      try {
        const written = await this.#writeCompacted(count, newestFirst, budget);
        this.#bytes += written - budget;
      } finally {
        this.#compacting = false;
      }
      // Records refused while it ran are only in memory: the next compaction takes them
      if (this.#full) this.#onFull();
    });
  }

  /** Flushes and closes the active segment */
  async close(): Promise<void> {
    await this.flush();
    // What was refused while the last compaction ran is in memory only: persist it before the files close
    if (this.#full) this.#onFull();
    this.#closed = true;
    await this.#enqueue(async () => {
      await this.#handle?.close();
      this.#handle = undefined;
    });
  }

  async #writeCompacted(count: number, newestFirst: (index: number) => LogRecord, budget: number): Promise<number> {
    // Block headers come out of the budget too
    const room = budget - (Math.ceil(budget / BLOCK_BYTES) + 1) * (24 + Buffer.byteLength(this.#header));
    let keep = 0;
    for (let used = 0; keep < count; keep++) {
      used += Buffer.byteLength(encodeRecord(newestFirst(keep)));
      if (used > room) break;
    }
    const next = this.#segments.at(-1)! + 1;
    const path = this.#segmentPath(next);
    let written = 0;
    const blocks = function* (this: FileLog): Generator<string> {
      let payload = '';
      for (let index = keep - 1; index >= 0; index--) {
        payload += encodeRecord(newestFirst(index));
        if (payload.length >= BLOCK_BYTES || index === 0) {
          const block = this.#block(payload);
          payload = '';
          written += Buffer.byteLength(block);
          yield block;
        }
      }
    };
    await writeFileAtomic(path, blocks.call(this));
    await this.#handle?.close();
    this.#handle = await open(path, 'a');
    for (const old of this.#segments) await rm(this.#segmentPath(old), { force: true });
    this.#segments = [next];
    return written;
  }

  #block(payload: string): string {
    return encodeBlock(this.#header, payload);
  }

  #segmentPath(segment: number): string {
    return join(this.folder, `cache-${String(segment).padStart(8, '0')}.log`);
  }

  // Disk trouble must not take the service down: the cache keeps working in memory only
  #enqueue(work: () => Promise<void>): Promise<void> {
    this.#chain = this.#chain.then(work).catch((error: unknown) => {
      if (this.#failed) return;
      this.#failed = true;
      this.#pending = [];
      this.#log.error('Cannot write cache file: persistence is off until restart', {
        folder: this.folder,
        error: String(error),
      });
    });
    return this.#chain;
  }
}

// JSON.stringify escapes lone surrogates, so every line is valid UTF-8 and its byte length is what lands on disk
function encodeRecord([model, text, label, probability]: LogRecord): string {
  return `${model}\t${label}\t${probability}\t${JSON.stringify(text)}\n`;
}

/** Hands the records of valid blocks of `header`'s version to `onRecord`; counts what it skipped */
function readBlocks(
  data: Buffer,
  header: string,
  onRecord: (record: LogRecord) => void,
): { corrupt: number; otherVersion: number } {
  let corrupt = 0;
  let otherVersion = 0;
  for (const block of scanBlocks(data)) {
    if (block.kind === 'damage') {
      corrupt++;
      continue;
    }
    const records = decodePayload(block.payload.toString('utf8'));
    if (!records) corrupt++;
    else if (block.tag !== header) otherVersion += records.length;
    else records.forEach(onRecord);
  }
  return { corrupt, otherVersion };
}

function decodePayload(payload: string): LogRecord[] | undefined {
  const records: LogRecord[] = [];
  for (const line of payload.split('\n')) {
    if (line === '') continue;
    const [model, label, probabilityText, textJson] = line.split('\t', 4);
    const probability = Number(probabilityText);
    if (!model || !label || textJson === undefined || !(probability >= 0 && probability <= 1)) return undefined;
    try {
      const text: unknown = JSON.parse(textJson);
      if (typeof text !== 'string') return undefined;
      records.push([model, text, label, probability]);
    } catch {
      return undefined;
    }
  }
  return records;
}
