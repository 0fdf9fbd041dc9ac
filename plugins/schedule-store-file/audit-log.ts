/**
 * The audit trail of the file store: one JSON line per entry in an append-only file beside the store file
 * (`schedules.audit.jsonl` for `schedules.json`). The entries of a store write are made durable by the store's own
 * block, which holds them too: they are appended here without a sync of their own (one fdatasync per group commit,
 * not two), synced before a compaction drops them from the store file, and those a crash of the machine lost are
 * appended again from the store file when it is opened. Only an index (id, time, the filtered fields, offset and
 * length: about 150 bytes an entry) stays in memory; a query reads the lines it answers. A crash mid-append leaves a
 * torn last line, cut off at the next start. Past the retention (days, or entries) the file is rewritten without the
 * oldest entries, atomically.
 */
import { createReadStream } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { AuditEntry, AuditQuery } from '../../runtime/mod.ts';
import { writeFileAtomic } from '../../runtime/mod.ts';

/** How often the age of the oldest entry is looked at */
const PRUNE_CHECK_MS = 60_000;
const DAY_MS = 24 * 60 * 60 * 1000;

interface Indexed {
  id: string;
  ms: number;
  action: string;
  ip?: string;
  grouping?: string;
  policy?: string;
  principal: string;
  offset: number;
  length: number;
}

/** The file as queries read it: replaced whole by a rewrite, closed once the queries reading it are done */
interface View {
  index: Indexed[];
  reader: FileHandle;
  readers: number;
  retired: boolean;
}

/** Bounds of what the file keeps, and who hears of a rewrite that failed (it is tried again a minute later) */
export interface AuditRetention {
  days: number;
  entries: number;
  onError(error: unknown): void;
}

function indexed(entry: AuditEntry, offset: number, length: number): Indexed {
  const { ip, grouping, policy } = entry.subject;
  return {
    id: entry.id,
    ms: Date.parse(entry.time),
    action: entry.action,
    ip,
    grouping,
    policy,
    principal: entry.principal,
    offset,
    length,
  };
}

/** One store's audit file; its operations run one after another */
export class AuditLog {
  readonly path: string;
  readonly #retention: AuditRetention;
  #view: View;
  #appender: FileHandle;
  #size: number;
  /** Entries of committed writes whose append failed: written before the next ones */
  #backlog: AuditEntry[] = [];
  /** Lines were appended since the last fdatasync */
  #unsynced = false;
  #tail: Promise<unknown> = Promise.resolve();
  #checked = 0;

  private constructor(path: string, retention: AuditRetention, view: View, appender: FileHandle, size: number) {
    this.path = path;
    this.#retention = retention;
    this.#view = view;
    this.#appender = appender;
    this.#size = size;
  }

  /** Opens (or starts) the file, cutting off a torn last line, and drops what is past the retention */
  static async open(path: string, retention: AuditRetention): Promise<AuditLog> {
    const { index, size } = await readIndex(path);
    const appender = await open(path, 'a');
    await appender.truncate(size);
    const log = new AuditLog(
      path,
      retention,
      { index, reader: await open(path, 'r'), readers: 0, retired: false },
      appender,
      size,
    );
    await log.#prune(Date.now());
    return log;
  }

  /** Appends entries durably (fdatasync'ed): should that fail, the caller is told and nothing is kept */
  append(entries: readonly AuditEntry[]): Promise<void> {
    return this.#serial(() => this.#write(entries, false, true));
  }

  /**
   * Appends entries a store block has already made durable, without a sync (`sync` comes before the block is
   * dropped). The writes they record are committed, so entries of an append that fails are kept and written before
   * the next ones
   */
  keep(entries: readonly AuditEntry[]): Promise<void> {
    return this.#serial(() => this.#write(entries, true, false));
  }

  /** Makes every entry kept durable: writes what is still owed, then fdatasyncs */
  sync(): Promise<void> {
    return this.#serial(() => this.#write([], true, true));
  }

  /**
   * Appends, durably, those of `entries` (read back from the store file) that the file lacks: a crash of the machine
   * loses the unsynced tail of the file. One older than the file's first entry was dropped by the retention, not lost
   */
  recover(entries: readonly AuditEntry[]): Promise<void> {
    return this.#serial(() => {
      const { index } = this.#view;
      const lost = entries.filter(
        (entry) =>
          (index.length === 0 || entry.id > index[0]!.id) && index[sortedIndex(index, entry.id)]?.id !== entry.id,
      );
      return this.#write(lost, false, true);
    });
  }

  async #write(entries: readonly AuditEntry[], retry: boolean, durable: boolean): Promise<void> {
    const all = [...this.#backlog, ...entries];
    if (all.length === 0 && !(durable && this.#unsynced)) return;
    const lines = all.map((entry) => Buffer.from(`${JSON.stringify(entry)}\n`));
    try {
      if (lines.length > 0) await this.#appender.writev(lines);
      if (durable) await this.#appender.datasync();
    } catch (error) {
      this.#backlog = retry ? all : this.#backlog;
      // A part written would leave a torn line in the middle of the file: cut it off
      await this.#appender.truncate(this.#size).catch(() => undefined);
      throw error;
    }
    this.#backlog = [];
    this.#unsynced = !durable;
    const { index } = this.#view;
    all.forEach((entry, at) => {
      const item = indexed(entry, this.#size, lines[at]!.length - 1);
      this.#size += lines[at]!.length;
      // Ids of one host rise; one made by a clock set back goes where it sorts
      if (index.length === 0 || index[index.length - 1]!.id < item.id) index.push(item);
      else index.splice(sortedIndex(index, item.id), 0, item);
    });
    const now = Date.now();
    if (index.length > this.#retention.entries || now - this.#checked > PRUNE_CHECK_MS) {
      // The entries are kept: a rewrite that fails leaves the file as it was
      await this.#prune(now).catch((error: unknown) => this.#retention.onError(error));
    }
  }

  /** Entries matching `query`, newest first */
  async query(query: AuditQuery): Promise<AuditEntry[]> {
    const view = this.#view;
    view.readers++;
    try {
      const from = query.from === undefined ? -Infinity : Date.parse(query.from);
      const to = query.to === undefined ? Infinity : Date.parse(query.to);
      const found: Indexed[] = [];
      const { index } = view;
      const start = query.before === undefined ? index.length : sortedIndex(index, query.before);
      for (let at = start - 1; at >= 0 && found.length < query.limit; at--) {
        const item = index[at]!;
        if (item.ms < from || item.ms >= to) continue;
        if (query.action !== undefined && item.action !== query.action) continue;
        if (query.ip !== undefined && item.ip !== query.ip) continue;
        if (query.grouping !== undefined && item.grouping !== query.grouping) continue;
        if (query.policy !== undefined && item.policy !== query.policy) continue;
        if (query.principal !== undefined && item.principal !== query.principal) continue;
        found.push(item);
      }
      return await Promise.all(
        found.map(async (item) => {
          const buffer = Buffer.alloc(item.length);
          await view.reader.read(buffer, 0, item.length, item.offset);
          return JSON.parse(buffer.toString('utf8')) as AuditEntry;
        }),
      );
    } finally {
      view.readers--;
      if (view.retired && view.readers === 0) await view.reader.close();
    }
  }

  /** Writes what is still owed, then closes the file */
  close(): Promise<void> {
    return this.#serial(async () => {
      await this.#write([], true, true).catch(() => undefined);
      await this.#appender.close();
      this.#view.retired = true;
      if (this.#view.readers === 0) await this.#view.reader.close();
    });
  }

  #serial<T>(run: () => Promise<T>): Promise<T> {
    const next = this.#tail.then(run);
    this.#tail = next.catch(() => undefined);
    return next;
  }

  /** Rewrites the file without the entries past the retention; a tenth below the entry bound, so rewrites stay rare */
  async #prune(now: number): Promise<void> {
    this.#checked = now;
    const { index, reader } = this.#view;
    const cutoff = now - this.#retention.days * DAY_MS;
    let first = index.length > this.#retention.entries ? index.length - Math.floor(this.#retention.entries * 0.9) : 0;
    while (first < index.length && index[first]!.ms < cutoff) first++;
    if (first === 0) return;
    const kept = index.slice(first);
    const next: Indexed[] = [];
    let size = 0;
    async function* lines() {
      for (const item of kept) {
        const buffer = Buffer.alloc(item.length + 1);
        await reader.read(buffer, 0, item.length + 1, item.offset);
        next.push({ ...item, offset: size });
        size += buffer.length;
        yield buffer;
      }
    }
    await writeFileAtomic(this.path, lines());
    await this.#appender.close();
    this.#appender = await open(this.path, 'a');
    this.#size = size;
    const old = this.#view;
    this.#view = { index: next, reader: await open(this.path, 'r'), readers: 0, retired: false };
    old.retired = true;
    if (old.readers === 0) await old.reader.close();
  }
}

/** Position of the first entry whose id is not below `id` */
function sortedIndex(index: readonly Indexed[], id: string): number {
  let low = 0;
  let high = index.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (index[mid]!.id < id) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The index of the file's whole lines, sorted by id, and the bytes they take (a torn last line is not counted) */
async function readIndex(path: string): Promise<{ index: Indexed[]; size: number }> {
  const exists = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!exists) return { index: [], size: 0 };
  const index: Indexed[] = [];
  let offset = 0;
  let sorted = true;
  for await (const line of createInterface({ input: createReadStream(path), crlfDelay: Infinity })) {
    const length = Buffer.byteLength(line);
    // The last line without its newline was torn by a crash mid-append: nothing acknowledged depends on it
    if (offset + length + 1 > exists.size) break;
    let entry: AuditEntry | undefined;
    try {
      entry = JSON.parse(line) as AuditEntry;
    } catch {
      entry = undefined;
    }
    if (entry?.id && entry.subject && typeof entry.time === 'string') {
      const item = indexed(entry, offset, length);
      if (index.length > 0 && index[index.length - 1]!.id > item.id) sorted = false;
      index.push(item);
    }
    offset += length + 1;
  }
  if (!sorted) index.sort((a, b) => (a.id < b.id ? -1 : 1));
  return { index, size: offset };
}
