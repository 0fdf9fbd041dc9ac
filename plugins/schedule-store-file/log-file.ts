/**
 * A schedule store kept in one append-only file (format 2, `log-format.ts`). Writes queue up and are committed in
 * groups: each group's changes are applied to the state in memory, appended to the file as one checksummed block,
 * fdatasync'ed, and only then acknowledged, so a commit costs what it changes, not what the store holds. A crash
 * mid-append leaves a torn last block, never acknowledged, cut off at the next start. A write that fails (a full
 * disk, a quota, an I/O error) is undone in memory and its bytes cut off the file, and the store is not ready until a
 * write succeeds again: readiness itself retries one while the store is failing.
 *
 * Once the file holds twice what its last compaction wrote (and at least `compaction.minBytes`), it is compacted off
 * the hot path: a snapshot of the state is written to a temporary file while commits go on appending to the old one;
 * then, between two group commits, the blocks committed meanwhile are appended to it, it is fsynced and renamed over
 * the file, and the folder fsynced. A crash at any moment leaves the old file or the new one, each holding every
 * acknowledged write. A format 1 file (one JSON object, rewritten whole by each commit) is migrated when opened, and
 * kept beside it as `<name>.format-1`.
 *
 * A write's audit entry goes in its group's block, so one fdatasync makes both durable; the audit file
 * (`audit-log.ts`) is then written without one, synced at each compaction's switch (which drops the entries from the
 * store file), and completed from the store file when it is opened.
 */
import { constants } from 'node:fs';
import { access, link, open, readdir, readFile, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { encodeBlock, makeFolder, SYNC_POINT, writeFileAtomic } from '../../runtime/mod.ts';
import { AuditLog, type AuditRetention } from './audit-log.ts';
import { errors } from './errors.ts';
import { readFormat1, type Refuse } from './format-1.ts';
import { changeLine, replay, snapshotBlocks, TAG, type Change } from './log-format.ts';
import { deepFreeze, type State } from './records.ts';
import type {
  AppliedPolicy,
  AuditEntry,
  AuditQuery,
  IpRecord,
  Logger,
  ScheduleStore,
  StoreChange,
  StoreChangeListener,
  StoredIp,
  WriteCondition,
  WriteOptions,
} from '../../runtime/mod.ts';

/** Least time between the writes readiness retries while the store is failing */
const PROBE_MS = 1000;
/**
 * Bytes readiness's retry appends (empty lines, skipped when read back): a small append can succeed on a full disk, in
 * the slack of the file's last page, so the retry asks for room for a write of a good size
 */
const PROBE_BYTES = 64 * 1024;
/** Least time between a compaction that failed and the next try */
const COMPACT_RETRY_MS = 60_000;

/** The state as the writes of one group change it: every change is logged, and can be undone if the commit fails */
class Group {
  readonly lines: string[] = [];
  readonly #undo: Array<() => void> = [];
  constructor(readonly state: State) {}

  put(ip: string, record: IpRecord): number {
    const { state } = this;
    const before = state.ips.get(ip);
    const version = ++state.sequence;
    state.ips.set(ip, { record, version });
    this.#log({ ip, version, record }, () => {
      state.sequence--;
      if (before) state.ips.set(ip, before);
      else state.ips.delete(ip);
    });
    return version;
  }

  delete(ip: string): void {
    const before = this.state.ips.get(ip)!;
    this.state.ips.delete(ip);
    this.#log({ delete: ip }, () => this.state.ips.set(ip, before));
  }

  putPolicy(policy: AppliedPolicy): void {
    const before = this.state.policies.get(policy.id);
    this.state.policies.set(policy.id, policy);
    this.#log({ policy }, () =>
      before ? this.state.policies.set(policy.id, before) : this.state.policies.delete(policy.id),
    );
  }

  deletePolicy(id: string): void {
    const before = this.state.policies.get(id)!;
    this.state.policies.delete(id);
    this.#log({ deletePolicy: id }, () => this.state.policies.set(id, before));
  }

  /** Puts the state back as it was before the group, newest change first */
  undo(): void {
    for (const step of this.#undo.reverse()) step();
  }

  #log(change: Change, undo: () => void): void {
    this.lines.push(changeLine(change));
    this.#undo.push(undo);
  }
}

/** A write waiting for the next group commit: it decides its result against the state it is applied to */
interface Pending {
  /** What its success changes, for the watchers; none for readiness's retry, which changes nothing */
  change: StoreChange | undefined;
  /** Kept when the write succeeds */
  audit?: AuditEntry;
  apply(group: Group): number | boolean | undefined;
  resolve(result: number | boolean | undefined): void;
  reject(error: unknown): void;
}

/** When the file is compacted */
export interface CompactionSettings {
  /** Bytes the file holds at least before it is compacted */
  minBytes: number;
}

/** Schedule store in an append-only file, with group commit and compaction */
export class LogFileStore implements ScheduleStore {
  readonly path: string;
  readonly #state: State;
  #queue: Pending[] = [];
  #flushing: Promise<void> | undefined;
  #listeners = new Set<StoreChangeListener>();
  readonly #log: Logger;
  /** Why the last write failed, until one succeeds */
  #failing: string | undefined;
  #probed = 0;
  readonly #audit: AuditLog;
  readonly #onAuditError: (error: unknown) => void;
  #file: FileHandle;
  /** Bytes of whole blocks in the file: a failed append is cut back to it */
  #size: number;
  /** A failed append may have left part of its block: cut off before the next one */
  #torn = false;
  /** Bytes the last compaction (or the open) left */
  #compacted: number;
  readonly #compaction: CompactionSettings;
  /** Blocks committed since the running compaction took its snapshot, to append to its file */
  #since: string[] | undefined;
  #compacting: Promise<void> | undefined;
  #compactFailed = -Infinity;
  /** Resolves once the last committed group is acknowledged */
  #acknowledged: Promise<void> = Promise.resolve();
  /** Group commits and the compaction's switch of files run one after another */
  #serial: Promise<unknown> = Promise.resolve();

  private constructor(
    path: string,
    state: State,
    file: FileHandle,
    size: number,
    log: Logger,
    audit: AuditLog,
    retention: AuditRetention,
    compaction: CompactionSettings,
  ) {
    this.path = path;
    this.#state = state;
    this.#file = file;
    this.#size = size;
    this.#compacted = size;
    this.#log = log;
    this.#audit = audit;
    this.#onAuditError = retention.onError;
    this.#compaction = compaction;
  }

  /**
   * Opens (or starts) the store file at `path` and its audit file beside it (`<name>.audit.jsonl`), creating their
   * folder, removing temporary files a kill left, cutting off a torn last block and migrating a format 1 file
   */
  static async open(
    path: string,
    log: Logger,
    retention: AuditRetention,
    compaction: CompactionSettings,
  ): Promise<LogFileStore> {
    await makeFolder(dirname(path));
    const auditPath = join(dirname(path), `${basename(path, '.json')}.audit.jsonl`);
    await removeLeftovers(path);
    await removeLeftovers(auditPath);
    const { state, size, audit } = await readState(path, log);
    const file = await open(path, 'a');
    try {
      await file.truncate(size);
    } catch (error) {
      await file.close();
      throw error;
    }
    let auditLog: AuditLog;
    try {
      auditLog = await AuditLog.open(auditPath, retention);
      await auditLog.recover(audit);
    } catch (error) {
      await file.close();
      throw error;
    }
    return new LogFileStore(path, state, file, size, log, auditLog, retention, compaction);
  }

  /**
   * Resolves when the next write can succeed: while writes fail, that is known only by writing, so a block of empty
   * lines is appended (at most once per PROBE_MS; it changes nothing)
   */
  async ready(): Promise<void> {
    if (this.#failing !== undefined && performance.now() - this.#probed >= PROBE_MS) {
      this.#probed = performance.now();
      await this.#enqueue(undefined, () => undefined).catch(() => undefined);
    }
    if (this.#failing !== undefined) throw new Error(`Store file "${this.path}" cannot be written: ${this.#failing}`);
    try {
      await access(dirname(this.path), constants.W_OK);
    } catch (error) {
      throw new Error(`Store folder "${dirname(this.path)}" is not writable: ${(error as Error).message}`);
    }
  }

  async get(ip: string): Promise<StoredIp | undefined> {
    const entry = this.#state.ips.get(ip);
    return entry && { ip, record: entry.record, version: entry.version };
  }

  async list(): Promise<StoredIp[]> {
    return [...this.#state.ips.keys()].sort(compare).map((ip) => {
      const entry = this.#state.ips.get(ip)!;
      return { ip, record: entry.record, version: entry.version };
    });
  }

  put(ip: string, record: IpRecord, condition: WriteCondition, options?: WriteOptions): Promise<number | undefined> {
    // frozen copy: readers share stored objects without copying, and the caller may reuse its own
    const frozen = deepFreeze(structuredClone(record));
    return this.#enqueue(
      { ip },
      (group) => {
        if ((group.state.ips.get(ip)?.version ?? null) !== condition.expected) return undefined;
        return group.put(ip, frozen);
      },
      options?.audit,
    ) as Promise<number | undefined>;
  }

  delete(ip: string, condition: { expected: number }, options?: WriteOptions): Promise<boolean> {
    return this.#enqueue(
      { ip },
      (group) => {
        if (group.state.ips.get(ip)?.version !== condition.expected) return false;
        group.delete(ip);
        return true;
      },
      options?.audit,
    ) as Promise<boolean>;
  }

  async listPolicies(): Promise<AppliedPolicy[]> {
    return [...this.#state.policies.keys()].sort(compare).map((id) => this.#state.policies.get(id)!);
  }

  async putPolicy(policy: AppliedPolicy, options?: WriteOptions): Promise<void> {
    const frozen = deepFreeze(structuredClone(policy));
    await this.#enqueue(
      { policy: policy.id },
      (group) => {
        group.putPolicy(frozen);
        return true;
      },
      options?.audit,
    );
  }

  deletePolicy(id: string, condition: { expires: number }, options?: WriteOptions): Promise<boolean> {
    return this.#enqueue(
      { policy: id },
      (group) => {
        if (group.state.policies.get(id)?.expires !== condition.expires) return false;
        group.deletePolicy(id);
        return true;
      },
      options?.audit,
    ) as Promise<boolean>;
  }

  replacePolicy(policy: AppliedPolicy, condition: { expires: number }, options?: WriteOptions): Promise<boolean> {
    const frozen = deepFreeze(structuredClone(policy));
    return this.#enqueue(
      { policy: policy.id },
      (group) => {
        if (group.state.policies.get(policy.id)?.expires !== condition.expires) return false;
        group.putPolicy(frozen);
        return true;
      },
      options?.audit,
    ) as Promise<boolean>;
  }

  appendAudit(entries: readonly AuditEntry[]): Promise<void> {
    return this.#audit.append(entries);
  }

  queryAudit(query: AuditQuery): Promise<AuditEntry[]> {
    return this.#audit.query(query);
  }

  /** One host owns the file, so every write passes through here: listeners hear of it right after its commit */
  async watch(listener: StoreChangeListener): Promise<() => void> {
    // A wrapper per call: the same function watching twice is told twice, and each stop ends only its own watch
    const own: StoreChangeListener = (change) => listener(change);
    this.#listeners.add(own);
    return () => void this.#listeners.delete(own);
  }

  /** Waits for queued writes to be committed and a running compaction to end */
  async close(): Promise<void> {
    while (this.#flushing || this.#compacting) await (this.#flushing ?? this.#compacting);
    await this.#acknowledged;
    await this.#file.close();
    await this.#audit.close();
  }

  #enqueue(
    change: StoreChange | undefined,
    apply: Pending['apply'],
    audit?: AuditEntry,
  ): Promise<number | boolean | undefined> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ change, apply, resolve, reject, audit });
      this.#flushing ??= this.#flush();
    });
  }

  async #flush(): Promise<void> {
    while (this.#queue.length > 0) {
      const pending = this.#queue;
      this.#queue = [];
      await this.#exclusive(() => this.#commit(pending));
      // Writers told of their commit often write again at once, a few promise steps later: with nothing queued, let
      // them (the acknowledgements, then one turn of the event loop) so their writes make one group, not many small
      // ones
      if (this.#queue.length === 0) {
        await this.#acknowledged;
        await new Promise(setImmediate);
      }
    }
    this.#flushing = undefined;
  }

  /** Runs `work` once the group commit or file switch before it is done */
  #exclusive<T>(work: () => Promise<T>): Promise<T> {
    const done = this.#serial.then(work);
    this.#serial = done.catch(() => undefined);
    return done;
  }

  async #commit(pending: Pending[]): Promise<void> {
    const group = new Group(this.#state);
    const results = pending.map((write) => write.apply(group));
    // Conflicts only change nothing; readiness's retry (no change to notify) must reach the disk all the same
    if (group.lines.length === 0 && pending.every((write) => write.change !== undefined)) {
      pending.forEach((write, index) => write.resolve(results[index]));
      return;
    }
    const audit = pending.filter((write, index) => results[index] && write.audit).map((write) => write.audit!);
    for (const entry of audit) group.lines.push(changeLine({ audit: entry }));
    const block = encodeBlock(TAG, group.lines.length > 0 ? group.lines.join('') : '\n'.repeat(PROBE_BYTES));
    try {
      if (this.#torn) await this.#file.truncate(this.#size);
      this.#torn = false;
      await this.#file.appendFile(block);
      await this.#file.datasync();
    } catch (error) {
      group.undo();
      // Cut off what part of the block was written now; should that fail too, before the next append
      this.#torn = !(await this.#file.truncate(this.#size).then(
        () => true,
        () => false,
      ));
      // The client sees the system's code only: the message names the server's paths
      const reason = (error as NodeJS.ErrnoException).code ?? 'unknown error';
      if (this.#failing === undefined)
        this.#log.error('schedule store cannot be written; writes answer 503 until one succeeds', {
          path: this.path,
          error,
        });
      this.#failing = reason;
      const failure = errors.STORE_ERR_FILE_WRITE(reason, { cause: error });
      for (const write of pending) write.reject(failure);
      return;
    }
    this.#size += Buffer.byteLength(block);
    this.#since?.push(block);
    if (this.#failing !== undefined) this.#log.info('schedule store writable again', { path: this.path });
    this.#failing = undefined;
    // Durable in the block: appended to the audit file (no sync) before the acknowledgement, so a query right after a
    // write finds its entry
    this.#acknowledged = this.#keepAudit(audit).then(() => {
      this.#notify(pending.filter((_, index) => results[index]).map((write) => write.change!));
      pending.forEach((write, index) => write.resolve(results[index]));
    });
    this.#maybeCompact();
  }

  #maybeCompact(): void {
    if (this.#compacting || this.#size < this.#compaction.minBytes || this.#size < 2 * this.#compacted) return;
    if (performance.now() - this.#compactFailed < COMPACT_RETRY_MS) return;
    this.#compacting = this.#compact().finally(() => {
      this.#compacting = undefined;
      this.#since = undefined;
      // Writes go on during a compaction, and those blocks are copied whole: when they outgrew the snapshot, the new
      // file is already due for another, which no later write may come to start
      this.#maybeCompact();
    });
  }

  /** Writes the state as a fresh file and switches to it; commits go on meanwhile, and wait only for the switch */
  async #compact(): Promise<void> {
    const started = performance.now();
    // The snapshot shares the frozen records: only the maps are copied
    const snapshot: State = {
      sequence: this.#state.sequence,
      ips: new Map(this.#state.ips),
      policies: new Map(this.#state.policies),
    };
    const since: string[] = [];
    this.#since = since;
    let release: () => void = () => undefined;
    let size = 0;
    let snapshotSize = 0;
    const blocks = async function* (this: LogFileStore) {
      for (const block of snapshotBlocks(snapshot)) {
        size += Buffer.byteLength(block);
        yield block;
      }
      snapshotSize = size;
      // Made durable before the switch, which then flushes only the blocks committed since: commits wait for the
      // switch, and a snapshot's fsync at 10,000 IPs was their slowest wait
      yield SYNC_POINT;
      // The snapshot holds no audit entries: those of the blocks it replaces must be durable in the audit file. Each
      // of those blocks handed its entries to the audit file before the snapshot was taken, and the audit file runs
      // its operations in order; the blocks committed since are copied, entries and all
      await this.#audit.sync();
      // The switch: no commit until the file is replaced, so every block committed before it is in the new file
      await new Promise<void>(
        (held) =>
          void this.#exclusive(
            () =>
              new Promise<void>((done) => {
                release = done;
                held();
              }),
          ),
      );
      for (const block of since) {
        size += Buffer.byteLength(block);
        yield block;
      }
    };
    try {
      await writeFileAtomic(this.path, blocks.call(this));
      const file = await open(this.path, 'a');
      await this.#file.close();
      this.#file = file;
      const before = this.#size;
      this.#size = size;
      this.#compacted = snapshotSize;
      this.#log.info('schedule store compacted', {
        path: this.path,
        bytesBefore: before,
        bytesAfter: size,
        ms: Math.round(performance.now() - started),
      });
    } catch (error) {
      this.#compactFailed = performance.now();
      this.#log.warn(
        'schedule store compaction failed: the file goes on growing, compaction is tried again in a minute',
        { path: this.path, error },
      );
    } finally {
      release();
    }
  }

  /**
   * Appends the audit entries of a committed group before it is acknowledged. Never rejects: the block holds them, so
   * an append that fails loses nothing; they are kept and appended with the next group
   */
  async #keepAudit(entries: AuditEntry[]): Promise<void> {
    try {
      await this.#audit.keep(entries);
    } catch (error) {
      this.#onAuditError(error);
    }
  }

  #notify(changes: StoreChange[]): void {
    const seen = new Set<string>();
    const distinct = changes.filter((change) => {
      const key = JSON.stringify(change);
      return !seen.has(key) && seen.add(key);
    });
    for (const listener of this.#listeners) {
      for (const change of distinct) {
        try {
          listener(change);
        } catch {
          // A listener's failure is its own: the write is committed, and the other listeners must still hear of it
        }
      }
    }
  }
}

/**
 * Removes `.<file>.<pid>.tmp` files beside `path`: a write killed before its rename leaves one, and nothing reads it.
 * One host owns the file, so at start none of them belongs to a write in progress
 */
async function removeLeftovers(path: string): Promise<void> {
  const folder = dirname(path);
  const prefix = `.${basename(path)}.`;
  for (const name of await readdir(folder)) {
    if (name.startsWith(prefix) && /^\d+\.tmp$/.test(name.slice(prefix.length)))
      await rm(join(folder, name), { force: true });
  }
}

/**
 * The file's state and the bytes of its whole blocks; a missing file is started, a format 1 file migrated. Refuses a
 * file it cannot trust, naming the file, what is wrong and what to do
 */
async function readState(path: string, log: Logger): Promise<{ state: State; size: number; audit: AuditEntry[] }> {
  const refuse: Refuse = (problem, advice, cause) =>
    errors.STORE_ERR_FILE_READ(path, `${problem}: ${advice}`, { cause });
  let data: Buffer | undefined;
  try {
    data = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw refuse((error as Error).message, 'check the file and its permissions', error);
  }
  if (data !== undefined && data.length > 0 && data.toString('latin1', 0, 2) === 'B ') return replay(data, refuse);
  let state: State = { sequence: 0, ips: new Map(), policies: new Map() };
  if (data !== undefined && data.length > 0) {
    state = readFormat1(data.toString('utf8'), refuse);
    // The old file stays beside the new one, for a downgrade; a migration killed halfway is simply done again
    const kept = `${path}.format-1`;
    await rm(kept, { force: true });
    await link(path, kept);
    log.info('schedule store migrated from format 1 to 2; the old file is kept', { path, kept, ips: state.ips.size });
  }
  // Written whole even when empty: the file then always starts with a block
  let size = 0;
  await writeFileAtomic(
    path,
    (function* () {
      for (const block of snapshotBlocks(state)) {
        size += Buffer.byteLength(block);
        yield block;
      }
    })(),
  );
  return { state, size, audit: [] };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
