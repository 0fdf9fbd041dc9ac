/**
 * Counting backoff events across hosts that share a store (`exchangeCounts`, `claimCounts`: the PostgreSQL store).
 * Each host counts its own events at once and hands them to the others in batches through the store: an exchange
 * appends what it counted since the last one and adds what the others appended since. A request exchanges before it
 * counts (so its triggers see every event answered before it, on any host) and after (so every event it answers is
 * seen by the requests that follow); exchanges wanted while one runs share the next one, so a host makes one round
 * trip at a time however many requests it serves, and a timer sends what is left. A trigger that fires is claimed in
 * the store: of hosts firing it from the same counts, exactly one wins and applies the policy; its resets reach the
 * others with its next exchange. Other counts a host keeps of every host's events (the overview's tally) ride along in
 * the same batches (`SharedTally`).
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
/** The tally's takes kept for the next exchange when one fails, at most (one a request or a timer's turn) */
const MAX_UNSENT_TALLIES = 1_000;

/** A store that counts across hosts */
type CountingStore = Required<Pick<ScheduleStore, 'exchangeCounts' | 'claimCounts'>>;

/** Counts besides the engine's that every host keeps of every host's events: handed on with each exchange */
export interface SharedTally<T> {
  /** What was counted here since the last call; undefined when nothing */
  takeDeltas(): T | undefined;
  /** Adds what another host counted */
  merge(deltas: T, nowMs: number): void;
}

/** A batch's data: the engine's counts and resets, and the tally's counts when it has any */
type BatchData = CountDeltas & { o?: unknown };

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
  readonly #tally: SharedTally<unknown> | undefined;
  /**
   * The tally's takes an exchange that failed did not send: sent with the next, the oldest past MAX_UNSENT_TALLIES
   * dropped
   */
  #unsentTally: unknown[] = [];
  #running: Promise<void> | undefined;
  #next: Promise<void> | undefined;
  #last = 0;
  readonly #timer: NodeJS.Timeout;

  constructor(options: {
    store: CountingStore;
    engine: BackoffEngine;
    tally?: SharedTally<unknown>;
    now(): number;
    retainMs: number;
    log: Logger;
  }) {
    this.#store = options.store;
    this.#tally = options.tally;
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
    const tallied = this.#tally?.takeDeltas();
    const tallies = tallied === undefined ? this.#unsentTally : [...this.#unsentTally, tallied];
    this.#unsentTally = [];
    const data: BatchData | undefined =
      deltas || tallies.length > 0
        ? { ...(deltas ?? { c: [], r: [] }), ...(tallies.length > 0 ? { o: tallies } : {}) }
        : undefined;
    const batch: CountBatch | undefined = data && {
      host: this.host,
      time: this.#now(),
      retainMs: this.#retainMs,
      data: JSON.stringify(data),
    };
    let answer: Awaited<ReturnType<CountingStore['exchangeCounts']>>;
    try {
      answer = await this.#store.exchangeCounts(this.host, batch, this.#cursor);
    } catch (error) {
      if (deltas && deltas.c.length + deltas.r.length <= MAX_UNSENT) this.#unsent = deltas;
      // A tally is a picture, not a trigger: kept for a while, its oldest dropped first
      this.#unsentTally = tallies.slice(-MAX_UNSENT_TALLIES);
      throw error;
    }
    // The first answer holds only batches appended before this one: their hosts had not seen what it sends
    let unseen = deltas;
    for (;;) {
      this.#cursor = answer.cursor;
      for (const received of answer.batches) {
        try {
          const parsed = JSON.parse(received.data) as BatchData;
          this.#engine.mergeCounts(parsed, unseen);
          if (this.#tally && Array.isArray(parsed.o))
            for (const tally of parsed.o) this.#tally.merge(tally, this.#now());
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
