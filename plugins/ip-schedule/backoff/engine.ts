/**
 * Counts classified delivery failures per class and per the values of the class's fields, and decides the backoff
 * policies they trigger: a count reaching the class's threshold within its window applies the class's policy or
 * suspension for its TTL; reaching it again while that is in force escalates it (TTL doubled up to `maxTtl`, rate and
 * concurrency halved down to 1). Counts are this host's; what is applied is stored, so every host sees it.
 */
import { BACKOFF_TABLE } from '../../../generated/data/bounce-classifier.ts';
import type { AppliedPolicy } from '../../../runtime/mod.ts';
import type { ClassPolicy } from './table.ts';

/** Context fields an event may carry, lower-case as the feed's `if` takes them */
const EVENT_FIELDS = ['transportid', 'localip', 'remoteip', 'remotemx', 'recipientdomain', 'jobid', 'grouping', 'tenantid'] as const;

/** One reported failure */
export type BackoffEvent = { message: string } & Partial<Record<(typeof EVENT_FIELDS)[number], string>>;

/** What the answer says of one event */
export interface EventAnswer {
  class: string;
  fields: readonly string[];
  actions: readonly string[];
  policies: string[];
}

/** Counts of passed windows are swept at most this often */
const SWEEP_MS = 10_000;
/**
 * Most (class, values) keys counted at once: memory stays bounded (about 150 bytes a key) even when events carry
 * ever-new values; past it, events of keys not yet counted are not counted until a sweep makes room
 */
export const MAX_KEYS = 200_000;

/** Id of the policy of a class for the given field values: readable, and unambiguous whatever the values hold */
export function backoffId(cls: string, fields: readonly string[], values: readonly string[]): string {
  return `backoff:${cls}?${fields.map((field, index) => `${field}=${encodeURIComponent(values[index]!)}`).join('&')}`;
}

/** The event counts of one host and the policies they trigger */
export class BackoffEngine {
  readonly #table: ReadonlyMap<string, ClassPolicy>;
  /** What is in force as the feed last read it, for escalation */
  readonly #inForce: (id: string) => AppliedPolicy | undefined;
  readonly #counts = new Map<string, { start: number; count: number; windowMs: number }>();
  /** What this host applied, until it lapses (the next sweep drops it) */
  readonly #applied = new Map<string, AppliedPolicy>();
  #swept = 0;

  constructor(table: ReadonlyMap<string, ClassPolicy>, inForce: (id: string) => AppliedPolicy | undefined) {
    this.#table = table;
    this.#inForce = inForce;
  }

  /** Number of keys counted now (for tests of the sweep) */
  get counting(): number {
    return this.#counts.size;
  }

  /** Counts `events` of `classes` (same order) at `now`; answers per event, and the policies to store */
  record(events: readonly BackoffEvent[], classes: readonly string[], now: number): { answers: EventAnswer[]; apply: AppliedPolicy[] } {
    if (now - this.#swept > SWEEP_MS) this.#sweep(now);
    const apply = new Map<string, AppliedPolicy>();
    const answers = events.map((event, index): EventAnswer => {
      const cls = classes[index]!;
      const row = (BACKOFF_TABLE as Record<string, { fields: readonly string[]; actions: readonly string[] }>)[cls];
      const answer: EventAnswer = { class: cls, fields: row?.fields ?? [], actions: row?.actions ?? [], policies: [] };
      const policy = this.#table.get(cls);
      if (!policy) return answer;
      const values: string[] = [];
      for (const field of policy.fields) {
        const value = event[field as (typeof EVENT_FIELDS)[number]];
        // Without every field the policy could only be scoped wider than the class allows: not counted
        if (typeof value !== 'string' || value === '') return answer;
        values.push(value);
      }
      const id = backoffId(cls, policy.fields, values);
      let count = this.#counts.get(id);
      if (!count && this.#counts.size >= MAX_KEYS) return answer;
      if (!count || now - count.start >= policy.windowMs) this.#counts.set(id, (count = { start: now, count: 0, windowMs: policy.windowMs }));
      if (++count.count < policy.threshold) return answer;
      count.start = now;
      count.count = 0;
      const applied = this.#apply(policy, id, values, now);
      apply.set(id, applied);
      answer.policies.push(id);
      return answer;
    });
    return { answers, apply: [...apply.values()] };
  }

  /** The policy of `id` at its next level when one is in force, else at level 0 */
  #apply(policy: ClassPolicy, id: string, values: readonly string[], now: number): AppliedPolicy {
    const candidates = [this.#applied.get(id), this.#inForce(id)].filter((p): p is AppliedPolicy => p !== undefined && p.expires > now);
    const level = candidates.length === 0 ? 0 : Math.max(...candidates.map((p) => p.level)) + 1;
    const factor = 2 ** Math.min(level, 30);
    const ttl = Math.min(policy.ttl * factor, policy.maxTtl);
    const scope = Object.fromEntries(policy.fields.map((field, index) => [field, values[index]!]));
    const object: Record<string, unknown> = policy.suspend
      ? { id, type: 'BACKOFF', ...scope, tag: policy.class, ttl }
      : {
        id, type: 'BACKOFF', fields: policy.fields.map((f) => f.toUpperCase()), if: scope,
        then: {
          ...(policy.concurrency !== undefined ? { concurrency: Math.max(1, Math.floor(policy.concurrency / factor)) } : {}),
          ...(policy.rate ? { rate: { ...policy.rate, count: Math.max(1, Math.floor(policy.rate.count / factor)) } } : {}),
          tag: policy.class,
        },
        ttl,
      };
    const applied: AppliedPolicy = { id, kind: policy.suspend ? 'suspend' : 'policy', object, expires: now + ttl * 1000, level };
    this.#applied.set(id, applied);
    return applied;
  }

  /** Drops counts whose window has passed and applied policies that lapsed: memory follows the active keys only */
  #sweep(now: number): void {
    this.#swept = now;
    for (const [id, count] of this.#counts) if (now - count.start >= count.windowMs) this.#counts.delete(id);
    for (const [id, applied] of this.#applied) if (applied.expires <= now) this.#applied.delete(id);
  }
}
