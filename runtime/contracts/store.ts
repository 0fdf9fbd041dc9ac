/**
 * The schedule store service (plugin kind `store`): where the `ip-schedule` API keeps each IP's groupings.
 *
 * Every write is a compare-and-set on the IP's `version`, so two writers (two requests, or two hosts sharing
 * one database) never lose an update: the loser sees a conflict, re-reads and retries. Stores treat records
 * as opaque JSON documents; the API validates them before writing.
 */

import type { components } from '../../generated/types/ip-schedule.ts';
import type { AuditEntry, AuditQuery, WriteOptions } from '../core/audit.ts';

type Schemas = components['schemas'];

/** A date and the volume sent on it */
export type DateVolume = Schemas['DateVolume'];

/** One day of a MANUAL schedule */
export type ScheduleDayRecord = Schemas['ScheduleDay'];

/** A stored grouping, defaults filled in: the API's `GroupingConfig`, so the store keeps what the API answers */
export type GroupingRecord = Schemas['GroupingConfig'];

/** Everything stored for one IP */
export type IpRecord = Schemas['IpConfig'];

/** A stored IP: canonical address, record and the version a compare-and-set checks */
export interface StoredIp {
  ip: string;
  /** May be a getter that decodes on first access (`list` of the PostgreSQL store): read it only when needed */
  record: IpRecord;
  /** Positive integer, changed by every write of the IP */
  version: number;
}

/** Condition of a write: `expected` is the version read before (`null`: the IP must not exist yet) */
export interface WriteCondition {
  expected: number | null;
}

/**
 * What a change notice names: the IP written (put or delete), an applied policy written (`policy`: its id), or
 * `lost`: notices may have been lost (a dropped connection to a shared database) and anything may have changed, so
 * listeners re-read everything
 */
export type StoreChange = { ip: string } | { policy: string } | { lost: true };

/** Told after a write is committed */
export type StoreChangeListener = (change: StoreChange) => void;

/**
 * A policy or suspension applied for a limited time (backoff policies of `ip-schedule`), kept in the store so that it
 * survives a restart and reaches every host sharing the store. Stores keep it as an opaque document
 */
export interface AppliedPolicy {
  /** The feed object's id */
  id: string;
  kind: 'policy' | 'suspend';
  /** The object as the feed sends it */
  object: Record<string, unknown>;
  /** When it lapses, in ms since the epoch */
  expires: number;
  /** How often it has been escalated (0: first applied) */
  level: number;
  /**
   * Why it was applied (plugin API 1.3), a JSON document the store keeps with it and gives back unchanged: what
   * `GET /v1/policies/{id}` of `ip-schedule` answers as `reason`
   */
  reason?: Record<string, unknown>;
}

/** Storage of IP schedules with compare-and-set writes */
export interface ScheduleStore {
  /** The IP's record, or undefined when it does not exist */
  get(ip: string): Promise<StoredIp | undefined>;
  /** Every stored IP, sorted by address text (UTF-16 code unit order) */
  list(): Promise<StoredIp[]>;
  /**
   * Writes the record if the IP's version is still `expected`; the new version, or undefined on conflict. A store
   * keeping an audit trail (`queryAudit`) keeps `options.audit` in the same commit as a write that succeeds, and
   * never without it; so do `delete`, `putPolicy` and `deletePolicy`
   */
  put(ip: string, record: IpRecord, condition: WriteCondition, options?: WriteOptions): Promise<number | undefined>;
  /** Deletes the IP if its version is still `expected`; false on conflict or when it does not exist */
  delete(ip: string, condition: { expected: number }, options?: WriteOptions): Promise<boolean>;
  /**
   * Optional (plugin API 1.2): calls `listener` for every committed write, by any writer of the same storage (every
   * host sharing a database), once `get` and `list` show it; spurious calls are allowed, missed ones are not (report
   * `{ lost: true }` instead). Resolves when notices flow, with the function that stops them. Without it, the policy
   * feed
   * of `ip-schedule` sees only the writes of its own host
   */
  watch?(listener: StoreChangeListener): Promise<() => void>;
  /** Optional (plugin API 1.2), with `putPolicy` and `deletePolicy`: every applied policy, sorted by id */
  listPolicies?(): Promise<AppliedPolicy[]>;
  /** Writes an applied policy, replacing the one with its id; watchers hear `{ policy: id }` */
  putPolicy?(policy: AppliedPolicy, options?: WriteOptions): Promise<void>;
  /** Deletes the applied policy if it still `expires` when given (not renewed meanwhile); false otherwise */
  deletePolicy?(id: string, condition: { expires: number }, options?: WriteOptions): Promise<boolean>;
  /**
   * Optional (plugin API 1.4): replaces the applied policy with `policy` (same id) if it still `expires` when given;
   * false otherwise, a deleted one included. Lets exactly one host write what follows a policy (its recovery steps)
   */
  replacePolicy?(policy: AppliedPolicy, condition: { expires: number }, options?: WriteOptions): Promise<boolean>;
  /**
   * Optional (plugin API 1.4), with `queryAudit`: keeps audit entries that go with no write of the store, durably
   * once it resolves. A store offering these keeps the `audit` of its writes too, and drops entries past its retention
   */
  appendAudit?(entries: readonly AuditEntry[]): Promise<void>;
  /** The entries matching `query`, newest first (`id` descending), at most `query.limit` */
  queryAudit?(query: AuditQuery): Promise<AuditEntry[]>;
  /**
   * Optional (plugin API 1.6), with `claimCounts`, for stores several hosts share: how their `ip-schedule` plugins
   * count backoff events together. Appends `batch` (this host's counts since its last call, opaque to the store) when
   * given, and answers the other hosts' batches appended after `after`, oldest first, with the cursor to pass next.
   * Batches become visible in the order of their cursors, never one before another with a lower cursor; those older
   * than `retainMs` may be dropped. A store may answer part of them (bounding the memory of one answer): `more` then
   * says to call again from the cursor. Without it, each host counts its own events only
   */
  exchangeCounts?(
    host: string,
    batch: CountBatch | undefined,
    after: number,
  ): Promise<{ cursor: number; batches: CountBatch[]; more?: boolean }>;
  /**
   * Claims each key at `at` unless another claim of it since `since` is stored (its last claim is later than
   * `since`): of hosts claiming the same key from what they counted, exactly one wins. Answers the keys claimed. Keys
   * are distinct in one call
   */
  claimCounts?(claims: readonly CountClaim[]): Promise<string[]>;
}

/** What one host counted since its last exchange: `data` is opaque to the store */
export interface CountBatch {
  host: string;
  /** When it was appended, in ms since the epoch; the store may drop it `retainMs` later */
  time: number;
  retainMs: number;
  data: string;
}

/** A claim of the counts behind one trigger (`claimCounts`); times in ms since the epoch */
export interface CountClaim {
  key: string;
  at: number;
  since: number;
  /** The store may forget the claim this much later */
  retainMs: number;
}
