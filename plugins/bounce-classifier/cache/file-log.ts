import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { writeFileAtomic } from '../../../runtime/mod.ts';
import type { Logger } from '../../../runtime/mod.ts';

/** One persisted cache entry: model, normalised text, class, probability */
export type LogRecord = readonly [model: string, text: string, label: string, probability: number];

const SEGMENT_RE = /^cache-(\d{8})\.log$/;
const HEADER_RE = /^B ([0-9a-f]{8}) (\d+) (.*)$/;
const NEWLINE = 0x0a;
/** Appends are gathered for this long so a burst of misses costs one write and one checksum */
const FLUSH_DELAY_MS = 20;
/** Records per block when compacting: a corrupt block loses only these */
const COMPACT_BLOCK = 1_000;

/**
 * An append-only, checksummed cache log in a folder. The log is a series of blocks: a header line
 * `B <crc32 hex> <payload bytes> <version as JSON>` and a payload of records, one per line
 * `model<TAB>class<TAB>probability<TAB><text as JSON>`. A block whose header, length, checksum or record shape
 * is wrong (a torn tail after a crash, a corrupt sector) is skipped and logged, never trusted; blocks of
 * another classifier version are ignored. Compaction writes a fresh segment atomically (temporary file,
 * fsync, rename) and then drops the older ones, so a crash at any point leaves readable segments.
 */
export class FileLog {
  readonly folder: string;
  readonly #log: Logger;
  readonly #header: string;
  /** Segment numbers on disk, ascending; the last one takes appends */
  #segments: number[] = [];
  #handle: FileHandle | undefined;
  #bytes = 0;
  #pending: LogRecord[] = [];
  #torn = false;
  #timer: NodeJS.Timeout | undefined;
  #chain: Promise<void> = Promise.resolve();
  #failed = false;

  private constructor(folder: string, options: { log: Logger; version: string }) {
    this.folder = folder;
    this.#log = options.log;
    this.#header = JSON.stringify(options.version);
  }

  /** Opens the log in `folder` (created when missing) and hands every valid record of `version`, oldest first, to `onRecord` */
  static async open(
    folder: string,
    options: { log: Logger; version: string },
    onRecord: (record: LogRecord) => void,
  ): Promise<FileLog> {
    const fileLog = new FileLog(folder, options);
    await mkdir(folder, { recursive: true });
    for (const name of (await readdir(folder)).sort()) {
      if (name.endsWith('.tmp')) await rm(join(folder, name), { force: true });
      const match = SEGMENT_RE.exec(name);
      if (!match) continue;
      fileLog.#segments.push(Number(match[1]));
      const data = await readFile(join(folder, name));
      fileLog.#bytes += data.length;
      const skipped = readBlocks(data, fileLog.#header, onRecord);
      if (skipped > 0) options.log.warn('Skipped corrupt cache records', { file: join(folder, name), count: skipped });
      // A torn tail must not swallow the next block appended after it
      fileLog.#torn = data.length > 0 && data[data.length - 1] !== NEWLINE;
    }
    if (fileLog.#segments.length === 0) fileLog.#segments.push(1);
    fileLog.#handle = await open(fileLog.#segmentPath(fileLog.#segments.at(-1)!), 'a');
    return fileLog;
  }

  /** Bytes the segments hold on disk, estimated for appends not yet written */
  get bytes(): number {
    return this.#bytes;
  }

  /** Queues a record; it reaches the disk within a few milliseconds */
  append(record: LogRecord): void {
    if (this.#failed) return;
    this.#pending.push(record);
    this.#bytes += record[1].length + 32;
    this.#timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS).unref();
  }

  /** Writes queued records as one block */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.length === 0) return this.#chain;
    const block = (this.#torn ? '\n' : '') + this.#block(this.#pending);
    this.#pending = [];
    this.#torn = false;
    return this.#enqueue(async () => {
      await this.#handle?.appendFile(block);
    });
  }

  /** Replaces every segment with one holding `records` (oldest first) */
  compact(records: readonly LogRecord[]): Promise<void> {
    const blocks: string[] = [];
    for (let start = 0; start < records.length; start += COMPACT_BLOCK) {
      blocks.push(this.#block(records.slice(start, start + COMPACT_BLOCK)));
    }
    const content = blocks.join('');
    this.#pending = [];
    this.#torn = false;
    this.#bytes = Buffer.byteLength(content);
    return this.#enqueue(async () => {
      const next = this.#segments.at(-1)! + 1;
      await writeFileAtomic(this.#segmentPath(next), content);
      await this.#handle?.close();
      this.#handle = await open(this.#segmentPath(next), 'a');
      for (const old of this.#segments) await rm(this.#segmentPath(old), { force: true });
      this.#segments = [next];
    });
  }

  /** Flushes and closes the active segment */
  async close(): Promise<void> {
    await this.flush();
    await this.#enqueue(async () => {
      await this.#handle?.close();
      this.#handle = undefined;
    });
  }

  #block(records: readonly LogRecord[]): string {
    let payload = '';
    for (const [model, text, label, probability] of records) {
      payload += `${model}\t${label}\t${probability}\t${JSON.stringify(text)}\n`;
    }
    const checksum = crc32(payload).toString(16).padStart(8, '0');
    return `B ${checksum} ${Buffer.byteLength(payload)} ${this.#header}\n${payload}`;
  }

  #segmentPath(segment: number): string {
    return join(this.folder, `cache-${String(segment).padStart(8, '0')}.log`);
  }

  // Disk trouble must not take the service down: the cache keeps working in memory only
  #enqueue(work: () => Promise<void>): Promise<void> {
    this.#chain = this.#chain.then(work).catch((error: unknown) => {
      if (this.#failed) return;
      this.#failed = true;
      this.#log.error('Cannot write cache file: persistence is off until restart', {
        folder: this.folder,
        error: String(error),
      });
    });
    return this.#chain;
  }
}

/** Hands the records of valid blocks of `header`'s version to `onRecord`; answers how many damaged stretches it skipped */
function readBlocks(data: Buffer, header: string, onRecord: (record: LogRecord) => void): number {
  let skipped = 0;
  let damaged = false;
  let start = 0;
  while (start < data.length) {
    const end = data.indexOf(NEWLINE, start);
    const match = end < 0 ? null : HEADER_RE.exec(data.toString('utf8', start, end));
    const length = match ? Number(match[2]) : -1;
    const payload = match && end + 1 + length <= data.length ? data.subarray(end + 1, end + 1 + length) : undefined;
    // An unreadable header or block: resynchronise on the next line, which may start a good block
    if (!payload || crc32(payload).toString(16).padStart(8, '0') !== match![1]) {
      if (!damaged) skipped++;
      damaged = true;
      start = end < 0 ? data.length : end + 1;
      continue;
    }
    damaged = false;
    start = end + 1 + length;
    if (match![3] !== header) continue;
    const records = decodePayload(payload.toString('utf8'));
    if (records) records.forEach(onRecord);
    else skipped++;
  }
  return skipped;
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
