/**
 * Counts delivery attempts and decides the backoff policies they trigger. Failures are counted per class and per the
 * values of the class's fields: a count reaching the class's threshold within its window applies the class's policy or
 * suspension for its TTL. Every attempt (deliveries too) is also counted per local IP and provider, so that a class
 * group, or a class, whose share of those attempts reaches its threshold applies the policy of the class that tipped
 * it. Reaching a trigger again while the policy is in force escalates it (TTL doubled up to `maxTtl`, rate and
 * concurrency halved down to 1). Each event counts at its own time; one older than every window counts nowhere.
 * Counts are this host's, or with `cluster` every host's that shares the store: each host then keeps what it counted
 * since it last sent its counts (`takeCounts`), adds the others' (`mergeCounts`), and names the claim behind each
 * trigger that fired (`firings`), so that the store lets exactly one host apply it (backoff/cluster.ts). What is
 * applied is stored with its reason, so every host sees both.
 */
import { LRUCache } from 'lru-cache';
import { BACKOFF_TABLE } from '../../../generated/data/bounce-classifier.ts';
import type { components } from '../../../generated/types/ip-schedule.ts';
import { EXPLANATION_FEATURES, type AppliedPolicy, type Explanation } from '../../../runtime/mod.ts';
import type { Providers } from './providers.ts';
import type { ClassPolicy, ShareTrigger } from './table.ts';
import { SLOTS, SlidingCounts } from './window.ts';

/** Context fields an event may carry, lower-case as the feed's `if` takes them */
const EVENT_FIELDS = [
  'transportid',
  'localip',
  'remoteip',
  'remotemx',
  'recipientdomain',
  'jobid',
  'grouping',
  'tenantid',
] as const;

/** What an attempt came to */
export type Outcome = 'delivered' | 'deferred' | 'bounced';

/** One reported attempt, as the handler hands it over: its time and outcome resolved */
export type BackoffEvent = { message?: string; time: number; outcome: Outcome } & Partial<
  Record<(typeof EVENT_FIELDS)[number], string>
>;

/** What the answer says of one event */
export interface EventAnswer {
  class: string | null;
  fields: readonly string[];
  actions: readonly string[];
  policies: string[];
  outcome: Outcome;
  provider: string;
}

/** What applied a policy (`reason.trigger`) */
export type Trigger = components['schemas']['BackoffTrigger'];

/** Why a policy applies: kept with it in the store, answered by `GET /v1/policies/{id}` */
export type Reason = components['schemas']['BackoffReason'] & { level: number };

/** What the engine is given besides its tables */
export interface EngineOptions {
  providers: Providers;
  shares: readonly ShareTrigger[];
  /** What is in force as the feed last read it, for escalation */
  inForce(id: string): AppliedPolicy | undefined;
  /** Why the classifier gave a reply its class (the reason's `decidedBy`), when it can say */
  explain?(message: string): Explanation | undefined;
  /** Counts are shared with the other hosts of the store (backoff/cluster.ts) */
  cluster?: boolean;
}

/** A count reset as the hosts hand it over: series, column, time */
export type CountReset = [string, number, number];

/** What one host counted since it last sent its counts: per series [column, first, last, n], and its resets */
export interface CountDeltas {
  c: [string, number, number, number, number][];
  r: CountReset[];
}

/**
 * A trigger that fired with shared counts: the policy applies (and its counts start again everywhere) only if this
 * host wins the claim of `key` from the counts it saw since `since`
 */
export interface Firing {
  id: string;
  /** The answer of the event that fired it */
  index: number;
  key: string;
  since: number;
  at: number;
  resets: CountReset[];
  /** Counts the resets took, given back when another host won the claim */
  undo: (() => void)[];
}

/** Counts of passed windows are swept at most this often */
const SWEEP_MS = 10_000;
/**
 * Most keys counted at once, (class, values) and (local IP, provider) together: memory stays bounded (about 550 bytes
 * a key) even when events carry ever-new values; past it, events of keys not yet counted are not counted until a
 * sweep makes room
 */
export const MAX_KEYS = 200_000;

/** Characters of a reason's sample reply kept */
const MAX_SAMPLE = 1000;

/**
 * Explanations kept, by sample reply: the same few replies apply most policies, and explaining one costs as much as
 * classifying it anew (the models do not change while the host runs)
 */
export const MAX_EXPLAINED = 4096;

/** Id of the policy of a class for the given field values: readable, and unambiguous whatever the values hold */
export function backoffId(cls: string, fields: readonly string[], values: readonly string[]): string {
  return `backoff:${cls}?${fields.map((field, index) => `${field}=${encodeURIComponent(values[index]!)}`).join('&')}`;
}

/** A reply with the local part of every e-mail address masked: a sample that names no recipient */
export function maskAddresses(reply: string): string {
  return reply.replace(/[^\s<>()[\]"',;:=]+@(?=[A-Za-z0-9-]+\.)/g, '***@');
}

/** The model decided: its probability, and its top features when the classifier names them (words of the normalised reply, addresses masked) */
function byModel({ probability, features }: Explanation): NonNullable<Reason['decidedBy']> {
  const named = features?.slice(0, EXPLANATION_FEATURES).map(({ feature, weight }) => ({ feature, weight }));
  return { model: 'backoff', probability, ...(named ? { features: named } : {}) };
}

const percent = (share: number) => `${Math.round(share * 1000) / 10}%`;

/** The reason in a few words, for the feed's `properties` (the MTA's own logs show it) */
export function shortReason(reason: Reason): string {
  const { trigger } = reason;
  const scope = `${reason.localip ? `${reason.localip} to ` : ''}${reason.provider}`;
  return trigger.kind === 'count'
    ? `${reason.class}: ${trigger.observed} in ${trigger.window}s (>= ${trigger.threshold}), ${scope}`
    : `${trigger.group ?? reason.class}: ${percent(trigger.observed)} of ${trigger.attempts} attempts in ${trigger.window}s (>= ${percent(trigger.threshold)} of >= ${trigger.minAttempts}), ${scope}`;
}

/**
 * The triggers of one share window, counted per (local IP, provider): two columns per trigger, its attempts and its
 * events (a trigger's own attempts, so that once it has applied a policy it judges anew over fresh attempts)
 */
interface ShareWindow {
  windowMs: number;
  triggers: readonly ShareTrigger[];
}

/** What fired for one event: enough to write the reason */
interface Fired {
  trigger: Trigger;
  counts: SlidingCounts;
  column: number;
}

/** What a policy object enforces, its reason (`properties`) aside: equal effects make the same policy */
function effect(object: Record<string, unknown>): string {
  const then = object.then as Record<string, unknown> | undefined;
  return JSON.stringify({ ...object, properties: undefined, then: then && { ...then, properties: undefined } });
}

/** The event counts of one host and the policies they trigger */
export class BackoffEngine {
  readonly #table: ReadonlyMap<string, ClassPolicy>;
  readonly #options: EngineOptions;
  /** Share windows, and for each class the (window, column) pairs of the triggers that count it */
  readonly #shareWindows: ShareWindow[];
  readonly #sharesOf = new Map<string, { window: number; column: number; trigger: ShareTrigger }[]>();
  /** The longest window of any trigger: an event older than it counts nowhere */
  readonly #maxWindowMs: number;
  readonly #counts = new Map<string, SlidingCounts>();
  readonly #shares = new Map<string, SlidingCounts[]>();
  /** What this host applied, until it lapses (the next sweep drops it) */
  readonly #applied = new Map<string, AppliedPolicy>();
  #swept = 0;
  /** With `cluster`: this host's counts since it last sent them, per series, and the resets its claims won */
  readonly #unsent = new Map<string, SlidingCounts>();
  #unsentResets: CountReset[] = [];
  /** With `cluster`: the trigger firing now */
  #firing: Firing | undefined;
  /** The classifier's explanations of recent sample replies, boxed: `explanation` undefined means it could not say */
  readonly #explained = new LRUCache<string, { explanation: Explanation | undefined }>({ max: MAX_EXPLAINED });

  constructor(table: ReadonlyMap<string, ClassPolicy>, options: EngineOptions) {
    this.#table = table;
    this.#options = options;
    const byWindow = new Map<number, ShareTrigger[]>();
    for (const trigger of options.shares)
      byWindow.set(trigger.windowMs, [...(byWindow.get(trigger.windowMs) ?? []), trigger]);
    this.#shareWindows = [...byWindow].map(([windowMs, triggers]) => ({ windowMs, triggers }));
    this.#shareWindows.forEach(({ triggers }, window) =>
      triggers.forEach((trigger, index) => {
        for (const cls of trigger.classes)
          this.#sharesOf.set(cls, [...(this.#sharesOf.get(cls) ?? []), { window, column: 2 * index + 1, trigger }]);
      }),
    );
    this.#maxWindowMs = Math.max(
      0,
      ...[...table.values()].map((p) => p.windowMs),
      ...options.shares.map((t) => t.windowMs),
    );
  }

  /** How long counts stay of use: the longest window and the bucket its start falls in (shared counts are kept so long) */
  get retainMs(): number {
    return Math.ceil((this.#maxWindowMs * (SLOTS + 1)) / SLOTS);
  }

  /** Number of keys counted now (for tests of the sweep) */
  get counting(): number {
    return this.#counts.size + this.#shares.size;
  }

  /**
   * The share of class group `group` in the attempts from `localip` to `provider` as its share trigger counts them now
   * (adaptive warm-ups read it); undefined when the group has no trigger or nothing is counted. Read-only
   */
  share(
    localip: string,
    provider: string,
    group: string,
    now: number,
  ): { events: number; attempts: number; window: number } | undefined {
    const windows = this.#shares.get(`${localip} ${provider}`);
    for (let index = 0; windows && index < this.#shareWindows.length; index++) {
      const { windowMs, triggers } = this.#shareWindows[index]!;
      const trigger = triggers.findIndex((t) => t.group === group);
      if (trigger < 0) continue;
      const counts = windows[index]!;
      return {
        events: counts.count(2 * trigger + 1, now),
        attempts: counts.count(2 * trigger, now),
        window: windowMs / 1000,
      };
    }
    return undefined;
  }

  /**
   * Counts `events` of `classes` (same order; null for a delivered event) at `now`; answers per event, and the
   * policies to store
   */
  record(
    events: readonly BackoffEvent[],
    classes: readonly (string | null)[],
    now: number,
  ): { answers: EventAnswer[]; apply: AppliedPolicy[]; firings: Firing[] } {
    if (now - this.#swept > SWEEP_MS) this.#sweep(now);
    const apply = new Map<string, AppliedPolicy>();
    const firings: Firing[] = [];
    const oldest = now - this.#maxWindowMs;
    const answers = events.map((event, index): EventAnswer => {
      const cls = classes[index] ?? null;
      const row =
        cls === null
          ? undefined
          : (BACKOFF_TABLE as Record<string, { fields: readonly string[]; actions: readonly string[] }>)[cls];
      const provider = this.#options.providers.of(event.remotemx, event.recipientdomain);
      const answer: EventAnswer = {
        class: cls,
        fields: row?.fields ?? [],
        actions: row?.actions ?? [],
        policies: [],
        outcome: event.outcome,
        provider,
      };
      // Too old for every window: counted nowhere, so it can neither apply nor extend a policy
      if (event.time <= oldest) return answer;
      const share = this.#countShare(event, cls, provider, now);
      const policy = cls === null ? undefined : this.#table.get(cls);
      if (!policy) return answer;
      const values: string[] = [];
      for (const field of policy.fields) {
        const value = event[field as (typeof EVENT_FIELDS)[number]];
        // Without every field the policy could only be scoped wider than the class allows: not counted
        if (typeof value !== 'string' || value === '') return answer;
        values.push(value);
      }
      const id = backoffId(cls!, policy.fields, values);
      const counts = this.#countClass(policy, id, event.time, now);
      const observed = counts?.count(0, now) ?? 0;
      const fired =
        counts && observed >= policy.threshold
          ? {
              trigger: {
                kind: 'count' as const,
                threshold: policy.threshold,
                window: policy.windowMs / 1000,
                observed,
              },
              counts,
              column: 0,
            }
          : share;
      if (!fired) return answer;
      const applied = this.#apply(policy, id, values, now, this.#reason(event, cls!, provider, fired, now));
      if (this.#options.cluster) {
        firings.push(
          (this.#firing = {
            id,
            index,
            key: `${fired.counts.series}#${fired.column}`,
            since: fired.counts.floor(fired.column),
            at: now,
            resets: [],
            undo: [],
          }),
        );
      }
      // Both triggers start again: neither re-applies the policy with the events (or attempts) that just applied it
      if (counts) this.#reset(counts, 0, now);
      if (share) for (const column of [share.column - 1, share.column]) this.#reset(share.counts, column, now);
      this.#firing = undefined;
      if (applied) apply.set(id, applied);
      answer.policies.push(id);
      return answer;
    });
    return { answers, apply: [...apply.values()], firings };
  }

  /**
   * With `cluster`: what the claims of `firings` came to. A won claim's resets go to the other hosts (before the
   * counts since, which alone are still unsent); a lost one's policy was applied by another host, whose resets will
   * come: this one forgets it applied it and counts again what its resets took
   */
  settle(firings: readonly Firing[], won: ReadonlySet<string>): void {
    for (const firing of firings) if (won.has(firing.key)) this.#unsentResets.push(...firing.resets);
    for (const firing of [...firings].reverse()) {
      if (won.has(firing.key)) continue;
      this.#applied.delete(firing.id);
      for (const undo of firing.undo.reverse()) undo();
    }
  }

  /** With `cluster`: what this host counted since the last call, undefined when nothing; then it starts again */
  takeCounts(): CountDeltas | undefined {
    if (this.#unsent.size === 0 && this.#unsentResets.length === 0) return undefined;
    const deltas: CountDeltas = { c: [], r: this.#unsentResets };
    for (const [series, counts] of this.#unsent)
      for (const entry of counts.entries()) deltas.c.push([series, ...entry]);
    this.#unsent.clear();
    this.#unsentResets = [];
    return deltas;
  }

  /**
   * With `cluster`: adds what another host counted, and its resets, to the counts here. `unseen` is what this host
   * counted that the other host cannot have seen when it reset (sent in the exchange that brought the reset, or not
   * sent yet): a reset wipes it here too, so it is counted again as the other host will merge it, from the reset's
   * time on. Otherwise each host would start the next window from fewer events than the one that fired, and the next
   * application would wait for the host that happens to count the most
   */
  mergeCounts(deltas: CountDeltas, unseen?: CountDeltas): void {
    const reset = new Set<string>();
    for (const [series, column, at] of deltas.r) {
      const counts = this.#series(series, false);
      if (!counts || at <= counts.floor(column)) continue;
      counts.reset(column, at);
      reset.add(`${series}#${column}`);
    }
    for (const [series, column, first, last, n] of deltas.c) this.#series(series, true)?.merge(column, first, last, n);
    if (reset.size === 0) return;
    const again = (series: string, column: number, first: number, last: number, n: number) => {
      if (reset.has(`${series}#${column}`)) this.#series(series, false)?.merge(column, first, last, n);
    };
    for (const entry of unseen?.c ?? []) again(...entry);
    for (const [series, counts] of this.#unsent)
      for (const entry of counts.entries()) if (reset.has(`${series}#${entry[0]}`)) again(series, ...entry);
  }

  /** The counts of a series by its name (a policy id, or `share<window>:<local IP> <provider>`), made when `create` */
  #series(series: string, create: boolean): SlidingCounts | undefined {
    const share = /^share(\d+):/.exec(series);
    if (share) {
      const key = series.slice(share[0].length);
      const window = Number(share[1]);
      let windows = this.#shares.get(key);
      if (!windows && create && this.#counts.size + this.#shares.size < MAX_KEYS)
        this.#shares.set(key, (windows = this.#newShares(key)));
      return windows?.[window];
    }
    let counts = this.#counts.get(series);
    if (counts || !create) return counts;
    const policy = this.#table.get(series.slice('backoff:'.length, series.indexOf('?')));
    if (!policy || this.#counts.size + this.#shares.size >= MAX_KEYS) return undefined;
    this.#counts.set(series, (counts = new SlidingCounts(policy.windowMs, 1, series)));
    return counts;
  }

  #newShares(key: string): SlidingCounts[] {
    return this.#shareWindows.map(
      ({ windowMs, triggers }, index) => new SlidingCounts(windowMs, 2 * triggers.length, `share${index}:${key}`),
    );
  }

  /** Counts an event of this host; with `cluster`, also among what it has not sent yet */
  #add(counts: SlidingCounts, time: number, column: number): boolean {
    if (!counts.add(time, column)) return false;
    if (this.#options.cluster) {
      let unsent = this.#unsent.get(counts.series);
      if (!unsent)
        this.#unsent.set(counts.series, (unsent = new SlidingCounts(counts.bucketMs * SLOTS, counts.columns)));
      unsent.add(time, column);
    }
    return true;
  }

  /**
   * Starts a column's counts again at `now`; with `cluster`, a reset the firing's claim carries to the other hosts,
   * undone when the claim is lost. The unsent counts start again too: the others' reset takes what they held
   */
  #reset(counts: SlidingCounts, column: number, now: number): void {
    const firing = this.#firing;
    if (firing) {
      const unsent = this.#unsent.get(counts.series);
      const [saved, savedUnsent] = [counts.save(column), unsent?.save(column)];
      unsent?.reset(column, now);
      firing.resets.push([counts.series, column, now]);
      firing.undo.push(() => {
        counts.restore(column, saved);
        if (unsent && savedUnsent) unsent.restore(column, savedUnsent);
      });
    }
    counts.reset(column, now);
  }

  /**
   * Forgets what counted toward a policy that was lifted (on any host) at `at`: only attempts from then on can apply it
   * again, late reports of earlier ones included
   */
  lift(policy: AppliedPolicy, at: number): void {
    this.#applied.delete(policy.id);
    this.#counts.get(policy.id)?.reset(0, at);
    const reason = policy.reason as Partial<Reason> | undefined;
    if (!reason?.localip || !reason.provider || !reason.class) return;
    const windows = this.#shares.get(`${reason.localip} ${reason.provider}`);
    for (const { window, column } of this.#sharesOf.get(reason.class) ?? []) {
      for (const each of [column - 1, column]) windows?.[window]!.reset(each, at);
    }
  }

  /** Counts the event toward its class's threshold: the class's counts for these values, unless it counted nowhere */
  #countClass(policy: ClassPolicy, id: string, time: number, now: number): SlidingCounts | undefined {
    let counts = this.#counts.get(id);
    if (!counts) {
      if (this.#counts.size + this.#shares.size >= MAX_KEYS) return undefined;
      this.#counts.set(id, (counts = new SlidingCounts(policy.windowMs, 1, id)));
    }
    return this.#add(counts, time, 0) ? counts : undefined;
  }

  /** Counts the attempt from its local IP to its provider, and its class's share; what fired when a share reached its threshold */
  #countShare(event: BackoffEvent, cls: string | null, provider: string, now: number): Fired | undefined {
    if (this.#shareWindows.length === 0 || !event.localip) return undefined;
    const key = `${event.localip} ${provider}`;
    let windows = this.#shares.get(key);
    if (!windows) {
      if (this.#counts.size + this.#shares.size >= MAX_KEYS) return undefined;
      this.#shares.set(key, (windows = this.#newShares(key)));
    }
    for (let index = 0; index < windows.length; index++) {
      const { windowMs, triggers } = this.#shareWindows[index]!;
      if (now - event.time >= windowMs) continue;
      for (let trigger = 0; trigger < triggers.length; trigger++) this.#add(windows[index]!, event.time, 2 * trigger);
    }
    const counted = cls === null ? undefined : this.#sharesOf.get(cls);
    if (!counted) return undefined;
    let fired: Fired | undefined;
    for (const { window, column, trigger } of counted) {
      const counts = windows[window]!;
      if (now - event.time >= trigger.windowMs || !this.#add(counts, event.time, column) || fired) continue;
      const attempts = counts.count(column - 1, now);
      if (attempts < trigger.minAttempts) continue;
      const observed = counts.count(column, now) / attempts;
      if (observed < trigger.threshold) continue;
      fired = {
        trigger: {
          kind: 'share',
          threshold: trigger.threshold,
          window: trigger.windowMs / 1000,
          observed,
          attempts,
          minAttempts: trigger.minAttempts,
          ...(trigger.group ? { group: trigger.group } : {}),
        },
        counts,
        column,
      };
    }
    return fired;
  }

  /** The reason of a policy `fired` applied, `event` being the one that reached the threshold */
  #reason(event: BackoffEvent, cls: string, provider: string, fired: Fired, now: number): Omit<Reason, 'level'> {
    const { first, last } = fired.counts.span(fired.column, now);
    // One reply is enough to recognise it, and reasons are stored with every policy
    const sample = (event.message ?? '').slice(0, MAX_SAMPLE);
    const explained = this.#explain(sample);
    const decidedBy =
      explained?.label !== cls
        ? undefined
        : explained.rule !== undefined
          ? { rule: explained.rule }
          : byModel(explained);
    return {
      class: cls,
      provider,
      ...(event.localip ? { localip: event.localip } : {}),
      ...(decidedBy ? { decidedBy } : {}),
      trigger: fired.trigger,
      events: fired.counts.count(fired.column, now),
      first: new Date(first).toISOString(),
      last: new Date(last).toISOString(),
      sample: maskAddresses(sample),
    };
  }

  /** Why the classifier gave `sample` its class, from the explanations kept when it was explained before */
  #explain(sample: string): Explanation | undefined {
    const explain = this.#options.explain;
    if (!explain) return undefined;
    let kept = this.#explained.get(sample);
    if (!kept) this.#explained.set(sample, (kept = { explanation: explain(sample) }));
    return kept.explanation;
  }

  /**
   * Applies a policy: the one point where a backoff policy or suspension comes into force, at level 0 or at the next
   * level when one is in force; the policy carries its provider and short reason in `properties`, the stored record
   * its whole reason. A policy in force that the new level would not change (escalated as far as it goes) is not
   * written again: undefined, unless less than half its TTL is left, when it is written with its expiry extended
   */
  #apply(
    policy: ClassPolicy,
    id: string,
    values: readonly string[],
    now: number,
    why: Omit<Reason, 'level'>,
  ): AppliedPolicy | undefined {
    const candidates = [this.#applied.get(id), this.#options.inForce(id)].filter(
      (p): p is AppliedPolicy => p !== undefined && p.expires > now,
    );
    const current = candidates.sort((a, b) => b.level - a.level || b.expires - a.expires)[0];
    let level = current ? current.level + 1 : 0;
    const object = this.#object(policy, id, values, level, why);
    if (current && effect(current.object) === effect(object)) {
      // Share triggers fire again every few hundred attempts: each write would cost a store write and a feed re-read
      if (current.expires - now > (Number(object.ttl) * 1000) / 2) return undefined;
      level = current.level;
    }
    const reason: Reason = { ...why, level };
    const applied: AppliedPolicy = {
      id,
      kind: policy.suspend ? 'suspend' : 'policy',
      object,
      expires: now + Number(object.ttl) * 1000,
      level,
      reason: { ...reason },
    };
    this.#applied.set(id, applied);
    return applied;
  }

  /** The feed object of a class's policy at `level` */
  #object(
    policy: ClassPolicy,
    id: string,
    values: readonly string[],
    level: number,
    why: Omit<Reason, 'level'>,
  ): Record<string, unknown> {
    const reason: Reason = { ...why, level };
    const factor = 2 ** Math.min(level, 30);
    const ttl = Math.min(policy.ttl * factor, policy.maxTtl);
    const scope = Object.fromEntries(policy.fields.map((field, index) => [field, values[index]!]));
    const properties = { provider: reason.provider, reason: shortReason(reason) };
    const object: Record<string, unknown> = policy.suspend
      ? { id, type: 'BACKOFF', ...scope, tag: policy.class, properties, ttl }
      : {
          id,
          type: 'BACKOFF',
          fields: policy.fields.map((f) => f.toUpperCase()),
          if: scope,
          then: {
            ...(policy.concurrency !== undefined
              ? { concurrency: Math.max(1, Math.floor(policy.concurrency / factor)) }
              : {}),
            ...(policy.rate
              ? { rate: { ...policy.rate, count: Math.max(1, Math.floor(policy.rate.count / factor)) } }
              : {}),
            tag: policy.class,
            properties,
          },
          ttl,
        };
    return object;
  }

  /** Drops counts whose window has passed and applied policies that lapsed: memory follows the active keys only */
  #sweep(now: number): void {
    this.#swept = now;
    for (const [id, counts] of this.#counts) if (counts.idle(now)) this.#counts.delete(id);
    for (const [key, windows] of this.#shares)
      if (windows.every((counts) => counts.idle(now))) this.#shares.delete(key);
    for (const [id, applied] of this.#applied) if (applied.expires <= now) this.#applied.delete(id);
  }
}
