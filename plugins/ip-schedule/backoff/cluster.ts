/**
 * Counting backoff events across hosts that share a store (`exchangeCounts`, `claimCounts`: the PostgreSQL store).
 * Each host counts its own events at once and hands them to the others in batches through the store: an exchange
 * appends what it counted since the last one and adds what the others appended since. A request exchanges before it
 * counts (so its triggers see every event answered before it, on any host) and after (so every event it answers is
 * seen by the requests that follow); exchanges wanted while one runs share the next one, so a host makes one round
 * trip at a time however many requests it serves, and a timer sends what is left. A trigger that fires is claimed in
 * the store: of hosts firing it from the same counts, exactly one wins and applies the policy; its resets reach the
 * others with its next exchange.
 */
import { randomUUID } from 'node:crypto';
import type { CountBatch, Logger, ScheduleStore } from '../../../runtime/mod.ts';
import type { BackoffEngine, CountDeltas, Firing } from './engine.ts';

/** Between exchanges a timer makes when requests made none */
const INTERVAL_MS = 200;

/**
 * Counts kept for the next exchange when one fails, at most (entries of the batch): during a long outage of the
 * database the host's memory stays bounded, and the counts past it are of events the others then never see
 */
const MAX_UNSENT = 200_000;

/** A store that counts across hosts */
type CountingStore = Required<Pick<ScheduleStore, 'exchangeCounts' | 'claimCounts'>>;

export class CountSync {
  /** This host among the store's: new at every start, so a restarted host reads back what it sent before */
  readonly host = randomUUID();
  readonly #store: CountingStore;
  readonly #engine: BackoffEngine;
  readonly #now: () => number;
  /** How long counts and claims are of use: the longest window, and the bucket its start falls in */
  readonly #retainMs: number;
  readonly #log: Logger;
  #cursor = 0;
  /** Counts an exchange that failed did not send: sent with the next */
  #unsent: CountDeltas | undefined;
  #running: Promise<void> | undefined;
  #next: Promise<void> | undefined;
  #last = 0;
  readonly #timer: NodeJS.Timeout;

  constructor(options: { store: CountingStore; engine: BackoffEngine; now(): number; retainMs: number; log: Logger }) {
    this.#store = options.store;
    this.#engine = options.engine;
    this.#now = options.now;
    this.#retainMs = options.retainMs;
    this.#log = options.log;
    this.#timer = setInterval(() => {
      if (this.#running || this.#now() - this.#last < INTERVAL_MS) return;
      this.sync().catch((error: unknown) =>
        this.#log.warn('cannot exchange backoff counts with the other hosts; trying again', {
          error: (error as Error).message,
        }),
      );
    }, INTERVAL_MS).unref();
  }

  /** Is a store that counts across hosts */
  static supports(store: ScheduleStore): store is ScheduleStore & CountingStore {
    return typeof store.exchangeCounts === 'function' && typeof store.claimCounts === 'function';
  }

  /** An exchange that starts after this call: the one running now, if any, may have missed what was counted since */
  sync(): Promise<void> {
    if (!this.#running) {
      this.#running = this.#exchange().finally(() => (this.#running = undefined));
      return this.#running;
    }
    return (this.#next ??= this.#running.then(
      () => {
        this.#next = undefined;
        return this.sync();
      },
      () => {
        this.#next = undefined;
        return this.sync();
      },
    ));
  }

  /** The keys of `firings` this host won: their policies apply, the others were applied by another host */
  async claim(firings: readonly Firing[]): Promise<Set<string>> {
    if (firings.length === 0) return new Set();
    // One claim per key, from the earliest counts it fired from: a key firing again in the same batch wins with it
    const claims = new Map<string, { key: string; at: number; since: number; retainMs: number }>();
    for (const { key, since, at } of firings) {
      const claim = claims.get(key);
      if (claim) claim.at = Math.max(claim.at, at);
      else claims.set(key, { key, at, since, retainMs: this.#retainMs });
    }
    const won = new Set(await this.#store.claimCounts([...claims.values()]));
    this.#engine.settle(firings, won);
    return won;
  }

  close(): void {
    clearInterval(this.#timer);
  }

  async #exchange(): Promise<void> {
    this.#last = this.#now();
    const taken = this.#engine.takeCounts();
    const deltas =
      this.#unsent && taken
        ? { c: [...this.#unsent.c, ...taken.c], r: [...this.#unsent.r, ...taken.r] }
        : (this.#unsent ?? taken);
    this.#unsent = undefined;
    const batch: CountBatch | undefined = deltas && {
      host: this.host,
      time: this.#now(),
      retainMs: this.#retainMs,
      data: JSON.stringify(deltas),
    };
    let answer: Awaited<ReturnType<CountingStore['exchangeCounts']>>;
    try {
      answer = await this.#store.exchangeCounts(this.host, batch, this.#cursor);
    } catch (error) {
      if (deltas && deltas.c.length + deltas.r.length <= MAX_UNSENT) this.#unsent = deltas;
      throw error;
    }
    // The first answer holds only batches appended before this one: their hosts had not seen what it sends
    let unseen = deltas;
    for (;;) {
      this.#cursor = answer.cursor;
      for (const received of answer.batches) {
        try {
          this.#engine.mergeCounts(JSON.parse(received.data) as CountDeltas, unseen);
        } catch (error) {
          // Another host's batch this one cannot read (another version?): its counts are missed, the rest are not
          this.#log.warn('cannot read the backoff counts of another host', {
            host: received.host,
            error: (error as Error).message,
          });
        }
      }
      // Far behind (a host that just started): read on, a part at a time
      if (!answer.more) return;
      unseen = undefined;
      answer = await this.#store.exchangeCounts(this.host, undefined, this.#cursor);
    }
  }
}
