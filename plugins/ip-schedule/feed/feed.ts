/**
 * The policy feed of one host: keeps the policy state in step with the store (its change notices, and this host's own
 * writes at once), with the day (a timer to the next local midnight) and with the applied policies' expiry (a timer to
 * the next one, which also deletes it from the store), and sends every change to the clients.
 */
import type { WebSocket } from 'ws';
import type { AppliedPolicy, Logger, ScheduleStore, StoreChange, StoredIp } from '../../../runtime/mod.ts';
import { today } from '../dates.ts';
import type { Rate } from '../schedule.ts';
import { FeedClients, type FeedCounters } from './clients.ts';
import { nextMidnight } from './midnight.ts';
import { frame } from './protocol.ts';
import { Replay } from './replay.ts';
import { PolicyState, type Snapshot, type StatusCounts } from './state.ts';

/** IPs read from the store at once when many changed */
const READ_BATCH = 64;
/** The longest delay a Node timer takes */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Wait before re-reading everything after the store failed */
const RETRY_MS = 1000;

/** Time, replaceable in tests */
export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** What a feed needs */
export interface FeedOptions {
  store: ScheduleStore;
  timezone: string;
  log: Logger;
  maxBufferedBytes: number;
  pingIntervalMs: number;
  /** Counts frames sent and clients dropped (the plugin's metrics); nothing is counted without it */
  counters?: FeedCounters;
  /**
   * Deletes a lapsed policy from the store if it still `expires` as read (the plugin records that in the audit trail);
   * the store's `deletePolicy` without it
   */
  expire?(policy: AppliedPolicy): Promise<boolean>;
  /** A policy in force vanished from the store before it lapsed: lifted, on this host or another */
  lifted?(policy: AppliedPolicy): void;
  clock?: Clock;
  /** Lists the store for the start (`store.list` without it): the plugin's warm-up table lists it with the feed */
  list?(): Promise<readonly StoredIp[]>;
}

/** One host's feed */
export class PolicyFeed {
  readonly #options: FeedOptions;
  readonly #clock: Clock;
  readonly #state: PolicyState;
  readonly #clients: FeedClients;
  #pending = new Set<string>();
  #rereadAll = false;
  #rereadPolicies = false;
  /** Applied policies as last read */
  #appliedById = new Map<string, AppliedPolicy>();
  #expiry: unknown;
  /**
   * Lapsed policies being deleted or replaced by `expire` (a recovery step): kept in the state until the store is read
   * again, so that a step goes out as an `UPDATE`, never as a `DELETE` and a `CREATE`; null for one that was not in
   * force when read (it lapsed while no host ran): never sent
   */
  readonly #lapsing = new Map<string, AppliedPolicy | null>();
  #running: Promise<void> | undefined;
  /** Notices counted in, and the count the state has caught up with: `settled()` waits for the difference */
  #requested = 0;
  #done = 0;
  #waiters: { target: number; done: () => void }[] = [];
  #unwatch: (() => void) | undefined;
  #timer: unknown;
  #closed = false;
  #replayOf: { version: number; replay: Replay } | undefined;

  private constructor(options: FeedOptions) {
    this.#options = options;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#state = new PolicyState(this.#today());
    this.#clients = new FeedClients({
      maxBufferedBytes: options.maxBufferedBytes,
      pingIntervalMs: options.pingIntervalMs,
      log: options.log,
      counters: options.counters,
    });
  }

  /** Watches the store, reads it whole and arms the midnight timer */
  static async start(options: FeedOptions): Promise<PolicyFeed> {
    const feed = new PolicyFeed(options);
    // Watch first: a write landing between the read and the watch would otherwise go unseen
    feed.#unwatch = await options.store.watch?.((change) => feed.notice(change));
    feed.#state.replaceAll(await (options.list ? options.list() : options.store.list()));
    feed.#setApplied((await options.store.listPolicies?.()) ?? []);
    feed.#armMidnight();
    return feed;
  }

  /** A write was committed; this host's writers call it as the store does */
  notice(change: StoreChange): void {
    if (this.#closed) return;
    if ('ip' in change) this.#pending.add(change.ip);
    else if ('policy' in change) this.#rereadPolicies = true;
    else this.#rereadAll = true;
    this.#requested++;
    this.#running ??= this.#run();
  }

  /** Resolves once every notice given before the call is reflected in the state (and sent) */
  settled(): Promise<void> {
    const target = this.#requested;
    if (this.#done >= target) return Promise.resolve();
    return new Promise((done) => this.#waiters.push({ target, done }));
  }

  /** Everything in force, as sent */
  snapshot(): Snapshot {
    return this.#state.snapshot();
  }

  /** Groupings by status, from the records the state holds, on its day (turned at local midnight) */
  statusCounts(): Readonly<StatusCounts> {
    return this.#state.statusCounts();
  }

  /** The records the state holds, on its day */
  records(): ReturnType<PolicyState['records']> {
    return this.#state.records();
  }

  /** Takes a new client: the full state, then every change */
  connect(ws: WebSocket): void {
    this.#clients.add(ws, this.#replay());
  }

  /** The rate a grouping of an IP is scheduled to send at today, if it is on schedule */
  scheduledRate(ip: string, grouping: string): Rate | undefined {
    return this.#state.scheduledRate(ip, grouping);
  }

  /** The applied policy with this id as last read from the store, if it was in force then */
  appliedPolicy(id: string): AppliedPolicy | undefined {
    return this.#appliedById.get(id);
  }

  /** Number of connected clients */
  get clients(): number {
    return this.#clients.size;
  }

  /** Stops watching, the timer and every client */
  close(): void {
    this.#closed = true;
    this.#unwatch?.();
    this.#clock.clearTimeout(this.#timer);
    this.#clock.clearTimeout(this.#expiry);
    this.#clients.close();
    for (const waiter of this.#waiters.splice(0)) waiter.done();
  }

  /**
   * The replay of the state as it is now, encoded once for every client connecting before it changes; a replay of an
   * older state stays with the clients still reading it
   */
  #replay(): Replay {
    const { version } = this.#state;
    if (this.#replayOf?.version !== version) this.#replayOf = { version, replay: new Replay(this.#state.objects()) };
    return this.#replayOf.replay;
  }

  #today(): number {
    return today(this.#options.timezone, new Date(this.#clock.now()));
  }

  /** Applies notices until none are left, one read at a time so that changes go out in the order they were read */
  async #run(): Promise<void> {
    // Let notices of the same moment (a group commit, a burst of writes) join one round
    await new Promise((done) => setImmediate(done));
    while (!this.#closed && (this.#pending.size > 0 || this.#rereadAll || this.#rereadPolicies)) {
      const target = this.#requested;
      try {
        this.#send(this.#state.setDay(this.#today()));
        if (this.#rereadPolicies || this.#rereadAll) {
          this.#rereadPolicies = false;
          this.#setApplied((await this.#options.store.listPolicies?.()) ?? []);
        }
        if (this.#rereadAll) {
          this.#rereadAll = false;
          this.#pending.clear();
          this.#send(this.#state.replaceAll(await this.#options.store.list()));
        } else {
          const ips = [...this.#pending];
          this.#pending.clear();
          for (let at = 0; at < ips.length; at += READ_BATCH) {
            const batch = ips.slice(at, at + READ_BATCH);
            const stored = await Promise.all(batch.map((ip) => this.#options.store.get(ip)));
            this.#send(batch.flatMap((ip, index) => this.#state.setIp(ip, stored[index])));
          }
        }
      } catch (error) {
        this.#options.log.warn('policy feed cannot read the store: reading everything again shortly', { error });
        this.#clock.setTimeout(() => this.notice({ lost: true }), RETRY_MS);
      }
      this.#caughtUp(target);
    }
    this.#running = undefined;
  }

  #caughtUp(target: number): void {
    this.#done = Math.max(this.#done, target);
    this.#waiters = this.#waiters.filter((waiter) => {
      if (waiter.target > this.#done) return true;
      waiter.done();
      return false;
    });
  }

  #send(changes: ReturnType<PolicyState['setIp']>): void {
    this.#clients.broadcast(changes.map(frame));
  }

  /**
   * Takes the applied policies as read: sends what changed, removes what lapsed from the store (whichever host gets
   * there first; a host that was down meanwhile finds them at start) and sets a timer to the next expiry
   */
  #setApplied(all: AppliedPolicy[]): void {
    const now = this.#clock.now();
    const applied = all.filter((p) => p.expires > now);
    const before = this.#appliedById;
    this.#appliedById = new Map(applied.map((p) => [p.id, p]));
    for (const [id, policy] of before)
      if (policy.expires > now && !this.#appliedById.has(id)) this.#options.lifted?.(policy);
    for (const policy of all)
      if (policy.expires <= now && !this.#lapsing.has(policy.id)) this.#lapse(policy, before.has(policy.id));
    const lapsing = [...this.#lapsing.values()]
      .filter((p) => p !== null && !this.#appliedById.has(p.id))
      .map((p) => ({ ...p!, expires: Number.MAX_SAFE_INTEGER }));
    this.#send(this.#state.setApplied(applied.concat(lapsing), now));
    this.#clock.clearTimeout(this.#expiry);
    const next = Math.min(...applied.map((p) => p.expires));
    // Node fires a longer timer at once: wait the longest it takes, then look again
    if (Number.isFinite(next))
      this.#expiry = this.#clock.setTimeout(() => this.#expire(), Math.min(next - now, MAX_TIMER_MS));
  }

  /** Deletes (or replaces) a lapsed policy in the store, then reads it again */
  #lapse(policy: AppliedPolicy, shown: boolean): void {
    this.#lapsing.set(policy.id, shown ? policy : null);
    const expire =
      this.#options.expire ??
      ((p) => this.#options.store.deletePolicy?.(p.id, { expires: p.expires }) ?? Promise.resolve(false));
    const again = () => {
      this.#lapsing.delete(policy.id);
      this.notice({ policy: policy.id });
    };
    expire(policy).then(again, (error: unknown) => {
      this.#options.log.warn('cannot delete a lapsed policy from the store', { id: policy.id, error });
      this.#clock.setTimeout(again, RETRY_MS);
    });
  }

  /** Sends the DELETE of what lapsed */
  #expire(): void {
    if (!this.#closed) this.#setApplied([...this.#appliedById.values()]);
  }

  /** Sets a timer to the next local midnight; each firing derives the new day's policies and sets the next */
  #armMidnight(): void {
    if (this.#closed) return;
    const now = this.#clock.now();
    this.#timer = this.#clock.setTimeout(
      () => {
        // A timer firing early changes nothing and is set again for the same midnight
        this.#send(this.#state.setDay(this.#today()));
        this.#armMidnight();
      },
      nextMidnight(this.#options.timezone, now) - now,
    );
  }
}
