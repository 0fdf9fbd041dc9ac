/**
 * An in-memory schedule store: the worked example of `docs/ip-schedule.md`. Everything is lost when the host
 * stops, which suits tests and demos. Being single-threaded JavaScript, each operation runs to completion
 * between awaits, so a plain version check is a correct compare-and-set.
 *
 * Swap it in by configuration alone:
 *
 * @example
 * ```yaml
 * plugins:
 *   - id: memory
 *     path: ./docs/examples/memory-store
 *   - id: ip-schedule
 *     config:
 *       store: memory
 * ```
 */
import { definePlugin, Type } from 'capstan';
import type {
  AppliedPolicy,
  IpRecord,
  ScheduleStore,
  StoreChange,
  StoreChangeListener,
  StoredIp,
  WriteCondition,
} from 'capstan';

class MemoryStore implements ScheduleStore {
  #ips = new Map<string, { record: IpRecord; version: number }>();
  /** One counter for all IPs: a version is never reused, even after a delete */
  #sequence = 0;
  #listeners = new Set<StoreChangeListener>();
  #policies = new Map<string, AppliedPolicy>();

  async get(ip: string): Promise<StoredIp | undefined> {
    const entry = this.#ips.get(ip);
    return entry && { ip, record: structuredClone(entry.record), version: entry.version };
  }

  async list(): Promise<StoredIp[]> {
    const ips = [...this.#ips.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return Promise.all(ips.map(async (ip) => (await this.get(ip))!));
  }

  async put(ip: string, record: IpRecord, condition: WriteCondition): Promise<number | undefined> {
    if ((this.#ips.get(ip)?.version ?? null) !== condition.expected) return undefined;
    const version = ++this.#sequence;
    this.#ips.set(ip, { record: structuredClone(record), version });
    this.#tell({ ip });
    return version;
  }

  async delete(ip: string, condition: { expected: number }): Promise<boolean> {
    const deleted = this.#ips.get(ip)?.version === condition.expected && this.#ips.delete(ip);
    if (deleted) this.#tell({ ip });
    return deleted;
  }

  async listPolicies(): Promise<AppliedPolicy[]> {
    return [...this.#policies.keys()].sort().map((id) => structuredClone(this.#policies.get(id)!));
  }

  async putPolicy(policy: AppliedPolicy): Promise<void> {
    this.#policies.set(policy.id, structuredClone(policy));
    this.#tell({ policy: policy.id });
  }

  async deletePolicy(id: string, condition: { expires: number }): Promise<boolean> {
    const deleted = this.#policies.get(id)?.expires === condition.expires && this.#policies.delete(id);
    if (deleted) this.#tell({ policy: id });
    return deleted;
  }

  async replacePolicy(policy: AppliedPolicy, condition: { expires: number }): Promise<boolean> {
    const replaced = this.#policies.get(policy.id)?.expires === condition.expires;
    if (replaced) {
      this.#policies.set(policy.id, structuredClone(policy));
      this.#tell({ policy: policy.id });
    }
    return replaced;
  }

  /** Every write passes through this object, so telling listeners after each one is all the policy feed needs */
  async watch(listener: StoreChangeListener): Promise<() => void> {
    const own: StoreChangeListener = (change) => listener(change);
    this.#listeners.add(own);
    return () => void this.#listeners.delete(own);
  }

  #tell(change: StoreChange): void {
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // the write is done: a listener's failure is its own
      }
    }
  }
}

export default definePlugin({
  id: 'memory-store',
  kind: 'store',
  apiVersion: '^1.2.0',
  description: 'Schedule store in memory (lost on restart)',
  config: Type.Object({}, { additionalProperties: false }),
  setup: () => ({ service: new MemoryStore() }),
});
