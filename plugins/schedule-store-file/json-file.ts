/**
 * A schedule store kept in one JSON file. Writes queue up and are committed in groups: each group is
 * applied to a copy of the state, written to a temporary file, fsynced, renamed over the file and the folder
 * fsynced, and only then acknowledged. A crash at any moment leaves either the old or the new file, whole.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CapstanError, writeFileAtomic } from '../../runtime/mod.ts';
import type { IpRecord, ScheduleStore, StoredIp, WriteCondition } from '../../runtime/mod.ts';

const FORMAT = 1;

interface Entry {
  record: IpRecord;
  version: number;
}

interface State {
  /** Last version handed out; versions never repeat, so a stale reader cannot match a re-created IP */
  sequence: number;
  ips: Map<string, Entry>;
}

/** A write waiting for the next group commit: it decides its result against the state it is applied to */
interface Pending {
  apply(state: State): number | boolean | undefined;
  resolve(result: number | boolean | undefined): void;
  reject(error: unknown): void;
}

/** Schedule store in a JSON file, written atomically with group commit */
export class JsonFileStore implements ScheduleStore {
  readonly path: string;
  #state: State;
  #queue: Pending[] = [];
  #flushing: Promise<void> | undefined;

  private constructor(path: string, state: State) {
    this.path = path;
    this.#state = state;
  }

  /** Opens (or starts) the store file at `path`, creating its folder */
  static async open(path: string): Promise<JsonFileStore> {
    await mkdir(dirname(path), { recursive: true });
    return new JsonFileStore(path, await readState(path));
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

  put(ip: string, record: IpRecord, condition: WriteCondition): Promise<number | undefined> {
    // frozen copy: readers share stored objects without copying, and the caller may reuse its own
    const frozen = deepFreeze(structuredClone(record));
    return this.#enqueue((state) => {
      if ((state.ips.get(ip)?.version ?? null) !== condition.expected) return undefined;
      const version = ++state.sequence;
      state.ips.set(ip, { record: frozen, version });
      return version;
    }) as Promise<number | undefined>;
  }

  delete(ip: string, condition: { expected: number }): Promise<boolean> {
    return this.#enqueue((state) => state.ips.get(ip)?.version === condition.expected && state.ips.delete(ip)) as Promise<boolean>;
  }

  /** Waits for queued writes to be committed */
  async close(): Promise<void> {
    while (this.#flushing) await this.#flushing;
  }

  #enqueue(apply: Pending['apply']): Promise<number | boolean | undefined> {
    return new Promise((resolve, reject) => {
      this.#queue.push({ apply, resolve, reject });
      this.#flushing ??= this.#flush();
    });
  }

  async #flush(): Promise<void> {
    while (this.#queue.length > 0) {
      const group = this.#queue;
      this.#queue = [];
      const next: State = { sequence: this.#state.sequence, ips: new Map(this.#state.ips) };
      const results = group.map((pending) => pending.apply(next));
      try {
        await writeFileAtomic(this.path, serialize(next));
        this.#state = next;
        group.forEach((pending, index) => pending.resolve(results[index]));
      } catch (error) {
        const failure = new CapstanError('STORE_ERR_IO', `Cannot write schedule store "${this.path}": ${(error as Error).message}`, { cause: error });
        for (const pending of group) pending.reject(failure);
      }
    }
    this.#flushing = undefined;
  }
}

async function readState(path: string): Promise<State> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { sequence: 0, ips: new Map() };
    throw new CapstanError('STORE_ERR_IO', `Cannot read schedule store "${path}": ${(error as Error).message}`, { cause: error });
  }
  const data = JSON.parse(text) as { format: number; sequence: number; ips: Record<string, Entry> };
  if (data.format !== FORMAT) throw new CapstanError('STORE_ERR_IO', `Cannot read schedule store "${path}": unknown format "${data.format}"`);
  return { sequence: data.sequence, ips: new Map(Object.entries(data.ips).map(([ip, entry]) => [ip, deepFreeze(entry)])) };
}

function serialize(state: State): string {
  return JSON.stringify({ format: FORMAT, sequence: state.sequence, ips: Object.fromEntries(state.ips) });
}


function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
