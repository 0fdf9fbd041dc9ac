/**
 * The feed state: every IP's stored record (as last read) and the policies derived from it for the current day, and
 * the applied (backoff) policies that have not lapsed. Each change of a record, of the day or of the applied policies
 * yields the changes the clients must get; the whole state serves the replay on connect and `GET /v1/policies`.
 */
import type { AppliedPolicy, IpRecord, StoredIp } from '../../../runtime/mod.ts';
import { scheduleDay, scheduleStatus, type GroupingStatus, type Rate } from '../schedule.ts';
import type { Policy, Suspend } from './policies.ts';
import { warmupPolicies } from './policies.ts';
import { diff, feedObject, type FeedChange, type FeedObject, type FeedObjects } from './protocol.ts';

/** An IP as the feed holds it: the store's record (shared with the store, which hands out the same frozen object) */
interface IpEntry {
  version: number;
  record: IpRecord;
  /** Its policies and suspension on the state's day, as text */
  objects: readonly FeedObject[];
  /** Its groupings by status on the state's day, counted when first asked for */
  counts?: StatusCounts;
}

/** Groupings by status */
export type StatusCounts = Record<GroupingStatus['status'], number>;

/** The grouping statuses, in the order metrics list them */
export const STATUSES = [
  'NOTSTARTED',
  'ONSCHEDULE',
  'PAUSED',
  'FINISHED',
] as const satisfies readonly GroupingStatus['status'][];

const noCounts = (): StatusCounts => ({ NOTSTARTED: 0, ONSCHEDULE: 0, PAUSED: 0, FINISHED: 0 });

/** Everything in force, sorted by id: policies, then suspensions; apart, those applied in shadow mode (never sent) */
export interface Snapshot {
  policies: FeedObject[];
  suspends: FeedObject[];
  shadow: { policies: FeedObject[]; suspends: FeedObject[] };
}

/** Whether a policy was applied in shadow mode (`backoff.shadow`): its reason says so, on every host that reads it */
export function isShadow(applied: AppliedPolicy): boolean {
  return applied.reason?.shadow === true;
}

/** Records and derived policies of every IP */
export class PolicyState {
  #day: number;
  readonly #ips = new Map<string, IpEntry>();
  /** Applied policies in force, by `<kind>:<id>` */
  #applied = new Map<string, FeedObject>();
  /** `expires/level/rate/concurrency/ttl` of each, as written: the same means the same object */
  #appliedVersions = new Map<string, string>();
  /** Applied in shadow mode, by `<kind>:<id>`: shown, never sent */
  #shadow = new Map<string, FeedObject>();
  #snapshot: Snapshot | undefined;
  /** Counts the changes: the same number means the same objects */
  #version = 0;
  /** Every IP's groupings by status; undefined after a record or the day changed */
  #counts: StatusCounts | undefined;

  constructor(day: number) {
    this.#day = day;
  }

  /** Applies what the store holds for `ip` now (`undefined`: deleted); unchanged versions cost nothing */
  setIp(ip: string, stored: Pick<StoredIp, 'record' | 'version'> | undefined): FeedChange[] {
    const entry = this.#ips.get(ip);
    if (entry?.version === stored?.version) return [];
    this.#counts = undefined;
    const objects = stored ? derive(ip, stored.record, this.#day) : NONE;
    if (stored) this.#ips.set(ip, { version: stored.version, record: stored.record, objects });
    else this.#ips.delete(ip);
    return this.#changed(diff(entry?.objects ?? NONE, objects));
  }

  /** Replaces every IP with `all` (a full re-read): IPs missing from it are deleted */
  replaceAll(all: readonly StoredIp[]): FeedChange[] {
    const seen = new Set<string>();
    const changes: FeedChange[] = [];
    for (const stored of all) {
      seen.add(stored.ip);
      changes.push(...this.setIp(stored.ip, stored));
    }
    for (const ip of [...this.#ips.keys()]) if (!seen.has(ip)) changes.push(...this.setIp(ip, undefined));
    return changes;
  }

  /** Derives every IP's policies for day number `day` (the day turned) */
  setDay(day: number): FeedChange[] {
    if (day === this.#day) return [];
    this.#day = day;
    this.#counts = undefined;
    const changes: FeedChange[] = [];
    for (const [ip, entry] of this.#ips) {
      const objects = derive(ip, entry.record, day);
      changes.push(...diff(entry.objects, objects));
      entry.objects = objects;
      entry.counts = undefined;
    }
    return this.#changed(changes);
  }

  /** Replaces the applied policies with those of `all` that have not lapsed at `now` (ms since the epoch) */
  setApplied(all: readonly AppliedPolicy[], now: number): FeedChange[] {
    const objects = new Map<string, FeedObject>();
    const versions = new Map<string, string>();
    for (const applied of all) {
      if (applied.expires <= now) continue;
      const key = `${applied.kind}:${applied.id}`;
      // A policy written once is read back many times: encode it again only when it was written again
      const then = applied.object.then as { rate?: { count?: number }; concurrency?: number } | undefined;
      const version = `${applied.expires}/${applied.level}/${then?.rate?.count}/${then?.concurrency}/${applied.object.ttl}`;
      const same =
        this.#appliedVersions.get(key) === version ? (this.#applied.get(key) ?? this.#shadow.get(key)) : undefined;
      objects.set(key, same ?? feedObject(applied.kind, applied.object as unknown as Policy | Suspend));
      versions.set(key, version);
    }
    const shadow = new Map<string, FeedObject>();
    for (const applied of all) {
      const key = `${applied.kind}:${applied.id}`;
      if (objects.has(key) && isShadow(applied)) {
        shadow.set(key, objects.get(key)!);
        objects.delete(key);
      }
    }
    const changes = diff(this.#applied, objects);
    const shown = changes.length > 0 || diff(this.#shadow, shadow).length > 0;
    this.#applied = objects;
    this.#shadow = shadow;
    this.#appliedVersions = versions;
    // A shadow policy's change sends nothing, but is shown
    if (shown && changes.length === 0) this.#snapshot = undefined;
    return this.#changed(changes);
  }

  /** Everything in force, sorted by id; the same arrays until the next change */
  snapshot(): Snapshot {
    if (!this.#snapshot) {
      const all = [...this.#ips.values()].flatMap((entry) => entry.objects);
      all.push(...this.#applied.values());
      const byId = (a: FeedObject, b: FeedObject) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
      const shadow = [...this.#shadow.values()];
      this.#snapshot = {
        policies: all.filter((o) => o.kind === 'policy').sort(byId),
        suspends: all.filter((o) => o.kind === 'suspend').sort(byId),
        shadow: {
          policies: shadow.filter((o) => o.kind === 'policy').sort(byId),
          suspends: shadow.filter((o) => o.kind === 'suspend').sort(byId),
        },
      };
    }
    return this.#snapshot;
  }

  /** The state's number, moved on by every change */
  get version(): number {
    return this.#version;
  }

  /**
   * Everything in force, unsorted, for the replay: each IP's objects and the applied policies, as maps that a change
   * replaces and never alters, so they stay the state of this version however the state moves on; cheap where
   * `snapshot()` sorts every object
   */
  objects(): FeedObjects[] {
    return [...this.#ips.values()].map((entry): FeedObjects => entry.objects).concat(this.#applied);
  }

  /**
   * Every IP's groupings by status on the state's day (`capstan_schedules`): counted from the records held, an IP's
   * counts again only after its record or the day changed; the same object until then
   */
  statusCounts(): Readonly<StatusCounts> {
    if (!this.#counts) {
      const totals = noCounts();
      for (const entry of this.#ips.values()) {
        if (!entry.counts) {
          entry.counts = noCounts();
          for (const grouping of entry.record.groupings) entry.counts[scheduleStatus(grouping, this.#day).status]++;
        }
        for (const status of STATUSES) totals[status] += entry.counts[status];
      }
      this.#counts = totals;
    }
    return this.#counts;
  }

  /** The rate `grouping` of `ip` sends at on the state's day, as its warm-up policy has it: none unless on schedule */
  scheduledRate(ip: string, grouping: string): Rate | undefined {
    const found = this.#ips.get(ip)?.record.groupings.find((g) => g.grouping === grouping);
    if (!found) return undefined;
    const { status, messages } = scheduleDay(found, this.#day);
    return status === 'ONSCHEDULE' ? { count: messages, interval: found.interval } : undefined;
  }

  /** The records held and the state's day: what the overview plans from */
  records(): { day: number; records: Iterable<IpRecord> } {
    return { day: this.#day, records: [...this.#ips.values()].map((entry) => entry.record) };
  }

  #changed(changes: FeedChange[]): FeedChange[] {
    if (changes.length > 0) {
      this.#snapshot = undefined;
      this.#version++;
    }
    return changes;
  }
}

const NONE: readonly FeedObject[] = [];

function derive(ip: string, record: IpRecord, day: number): readonly FeedObject[] {
  const { policies, suspends } = warmupPolicies(ip, record, day);
  if (policies.length + suspends.length === 0) return NONE;
  return [
    ...policies.map((policy) => feedObject('policy', policy)),
    ...suspends.map((suspend) => feedObject('suspend', suspend)),
  ];
}
