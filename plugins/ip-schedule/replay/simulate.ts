/**
 * The seam between replay and the policy engine: attempts in time order in, decisions out. `engineSimulator` drives
 * the server's engine (`../backoff/engine.ts`: per-class counts, share triggers per local IP and provider, TTLs and
 * escalation) on a simulated clock: the clock is each attempt's time, so a week of log replays in seconds and every
 * TTL runs out when it would have. A lapsed rate policy steps back up as the feed's expiry does it on the server
 * (`backoff.recovery`, the same `recoveryStep`), and a trigger while it steps back escalates it from there, the engine
 * reading the simulated policies in force as it reads the feed's. Lifts are an operator's, never simulated.
 */
import { detach, type Attempt } from './attempt.ts';
import type { AppliedPolicy } from '../../../runtime/mod.ts';
import { BackoffEngine, shortReason, type BackoffEvent, type EngineOptions, type Reason } from '../backoff/engine.ts';
import { recoveryStep, type RecoverySettings } from '../backoff/recovery.ts';
import type { ShareOf } from './warmup-plan.ts';
import type { Providers } from '../backoff/providers.ts';
import type { ClassPolicy, ShareTrigger } from '../backoff/table.ts';

/** An attempt with what replay adds: the provider it went to and, for failures, the reply's classes */
export interface ClassifiedAttempt extends Attempt {
  provider: string;
  bnac?: string;
  backoff?: string;
}

/**
 * What the engine would have done: `apply` a policy, `escalate` one in force, `lift` one before its TTL, `recover` a
 * lapsed one a step back up toward its class's limits, let one `expire`; `hold` a warm-up schedule's sending (or step
 * it back a day), or `release` it
 */
export type DecisionKind = 'apply' | 'escalate' | 'lift' | 'recover' | 'expire' | 'hold' | 'release';

export interface Decision {
  /** Epoch milliseconds */
  time: number;
  kind: DecisionKind;
  policyId: string;
  localIp: string;
  provider: string;
  /** The backoff class the policy is for */
  class: string;
  /** Why, in words an operator reads */
  reason: string;
  /**
   * `apply` and `escalate`: what decided the class of the reply that fired it, a rule of the classifier or its model
   * (the policy reason's `decidedBy`, as the server stores it); absent when the classifier cannot say
   */
  decidedBy?: Reason['decidedBy'];
}

/** A policy engine run over a log */
export interface PolicySimulator {
  /** Names the engine in reports */
  readonly name: string;
  /** Feeds one attempt; attempts come in time order (ties in log order). Answers what it decided at that time */
  observe(attempt: ClassifiedAttempt): Decision[];
  /** The log ended at `end`: what lapses by then. Policies still in force at `end` are not reported as expired */
  finish(end: number): Decision[];
  /** The share of a class group from a local IP to a provider as counted now, for adaptive warm-ups (`BackoffEngine.share`) */
  share?: ShareOf;
}

/** Resolves a provider from the remote MX and the recipient domain: the provider table's `Providers.of` */
export type ProviderOf = (remoteMx: string, recipientDomain: string) => string;

interface InForce {
  decision: Decision;
  applied: AppliedPolicy;
  /** It lapsed and steps back up */
  stepped?: boolean;
}

function describeAction(object: Record<string, unknown>, kind: string): string {
  if (kind === 'suspend') return 'suspend';
  const then = (object.then ?? {}) as { rate?: { count: number; interval: number }; concurrency?: number };
  const parts = [];
  if (then.rate) parts.push(`rate ${then.rate.count}/${then.rate.interval} s`);
  if (then.concurrency !== undefined) parts.push(`concurrency ${then.concurrency}`);
  return parts.join(', ');
}

/** The policy a decision is about: what a later decision of it (a step back up, its expiry) repeats */
function about({ policyId, localIp, provider, class: cls }: Decision) {
  return { policyId, localIp, provider, class: cls };
}

/** What decided a reply's class, in words: `class from rule "…"`, or from the model with its probability and top words */
function decidedByText(by: NonNullable<Reason['decidedBy']>): string {
  if (by.rule !== undefined) return `class from rule "${by.rule}"`;
  const words = by.features?.map(({ feature }) => `"${feature}"`).join(', ');
  const p = by.probability === undefined ? '' : `p ${by.probability.toFixed(2)}`;
  const detail = [p, words].filter(Boolean).join(', ');
  return `class from the model${detail ? ` (${detail})` : ''}`;
}

/** Recovery as the server runs it by default (spec/schema/plugins/ip-schedule.schema.json) */
const NO_RECOVERY: RecoverySettings = { enabled: false, factor: 2, step: 300 };

/** The backoff engine on a simulated clock, with the server's provider table, share triggers and recovery */
export function engineSimulator(
  table: ReadonlyMap<string, ClassPolicy>,
  options: {
    providers: Providers;
    shares: readonly ShareTrigger[];
    recovery?: RecoverySettings;
    /** Explains a reply's backoff class, as the server's engine is given the classifier's `explainReply` */
    explain?: EngineOptions['explain'];
  },
): PolicySimulator {
  const inForce = new Map<string, InForce>();
  const recovery = options.recovery ?? NO_RECOVERY;
  const engine = new BackoffEngine(table, { ...options, inForce: (id) => inForce.get(id)?.applied });
  /** The earliest expiry in force: most attempts come before it and need no look at the policies */
  let nextExpiry = Infinity;
  const lapsed = (now: number, inclusive: boolean): Decision[] => {
    if (now < nextExpiry || (!inclusive && now === nextExpiry)) return [];
    const out: Decision[] = [];
    nextExpiry = Infinity;
    for (const [id, held] of inForce) {
      // A step that lapses by `now` too is followed by the next
      for (;;) {
        const { expires } = held.applied;
        if (expires > now || (!inclusive && expires === now)) {
          nextExpiry = Math.min(nextExpiry, expires);
          break;
        }
        const step = recoveryStep(held.applied, table, recovery, expires);
        if (!step) {
          inForce.delete(id);
          out.push({
            time: expires,
            kind: 'expire',
            ...about(held.decision),
            reason: held.stepped
              ? "back at its class's limits after stepping up: deleted"
              : 'TTL ran out with no new trigger',
          });
          break;
        }
        held.applied = step;
        held.stepped = true;
        out.push({
          time: expires,
          kind: 'recover',
          ...about(held.decision),
          reason: `lapsed, stepping back up: ${describeAction(step.object, step.kind)} for ${recovery.step} s`,
        });
      }
    }
    return out.sort((a, b) => a.time - b.time);
  };
  return {
    name: 'backoff-engine',
    observe(attempt) {
      const out = lapsed(attempt.time, true);
      // Deliveries count as attempts, for the share triggers
      const delivered = attempt.outcome === 'sent';
      if (!delivered && !attempt.backoff) return out;
      // The engine keeps counts and policies past this attempt's chunk of log: its strings are detached
      const event: BackoffEvent = {
        // Read only to explain the class of an event that fires a policy, and not kept
        message: delivered ? '' : attempt.reply,
        time: attempt.time,
        outcome: delivered ? 'delivered' : attempt.outcome === 'bounced' ? 'bounced' : 'deferred',
        localip: detach(attempt.localIp),
        remoteip: detach(attempt.remoteIp),
        remotemx: detach(attempt.remoteMx),
        recipientdomain: detach(attempt.recipientDomain),
        grouping: detach(attempt.provider),
        ...(attempt.tenantId ? { tenantid: detach(attempt.tenantId) } : {}),
        ...(attempt.jobId ? { jobid: detach(attempt.jobId) } : {}),
      };
      const { apply } = engine.record([event], [delivered ? null : attempt.backoff!], attempt.time);
      for (const policy of apply) {
        const action = describeAction(policy.object as Record<string, unknown>, policy.kind);
        const ttl = Math.round((policy.expires - attempt.time) / 1000);
        const reason = policy.reason as Reason | undefined;
        const counted = reason ? shortReason(reason) : `${attempt.backoff} replies past the threshold`;
        const decidedBy = reason?.decidedBy;
        const by = decidedBy ? `; ${decidedByText(decidedBy)}` : '';
        const decision: Decision = {
          time: attempt.time,
          kind: policy.level === 0 ? 'apply' : 'escalate',
          policyId: policy.id,
          localIp: event.localip!,
          provider: event.grouping!,
          class: reason?.class ?? attempt.backoff!,
          reason:
            policy.level === 0
              ? `${counted}${by}; ${action} for ${ttl} s`
              : `again while in force, level ${policy.level}: ${counted}${by}; ${action} for ${ttl} s`,
          ...(decidedBy ? { decidedBy } : {}),
        };
        inForce.set(policy.id, { decision, applied: policy });
        nextExpiry = Math.min(nextExpiry, policy.expires);
        out.push(decision);
      }
      return out;
    },
    finish: (end) => lapsed(end, false),
    share: (localip, provider, group, now) => engine.share(localip, provider, group, now),
  };
}
