/**
 * `POST /v1/backoff/events` (operation `reportBackoffEvents`): delivery attempts reported by the MTA, failures
 * classified through the bounce-classifier's cache (its `ReplyClassifier` service), counted, and turned into stored
 * backoff policies that the feed sends; `GET /v1/policies/{id}` (operation `getPolicy`): one of them with its reason.
 *
 * @example
 * ```ts
 * const engine = new BackoffEngine(policyTable(config.backoff), { providers, shares: shareTriggers(config.backoff), inForce: (id) => feed.appliedPolicy(id) });
 * const handlers = backoffHandlers({ classifier, store, engine, feed, now: Date.now });
 * ```
 */
import type { AppliedPolicy, Handler, HandlerRequest, ReplyClassifier, ScheduleStore, StoreChange } from '../../../runtime/mod.ts';
import type { BackoffEngine, BackoffEvent, EventAnswer, Outcome } from './engine.ts';
import { errors } from '../errors.ts';
export { BackoffEngine } from './engine.ts';
export { liftHandlers } from './lift.ts';
export { recoveryStep } from './recovery.ts';
export { Providers } from './providers.ts';
export { policyTable, shareTriggers } from './table.ts';

/** An event as the request carries it */
type RequestEvent = Omit<BackoffEvent, 'time' | 'outcome'> & { time?: string | number; outcome?: Outcome };

/** What the handler needs */
export interface BackoffOptions {
  /** Absent when no bounce-classifier plugin is configured */
  classifier?: ReplyClassifier;
  store: ScheduleStore;
  engine: BackoffEngine;
  /** Tells this host's feed of a policy it stored, before the answer goes out */
  notice(change: StoreChange): void;
  now(): number;
  /** Counts the classified events of one request by class (the plugin's metrics) */
  received?(classes: readonly string[]): void;
  /** Stores an applied policy, recording it in the audit trail with the key that reported the events */
  putPolicy(policy: AppliedPolicy, request: HandlerRequest): Promise<void>;
  /** Counts the policies one request applied (the plugin's metrics) */
  applied?(policies: readonly AppliedPolicy[]): void;
  /** Told of the events once counted, before the answer goes out (adaptive warm-ups read the shares they moved) */
  counted?(events: readonly BackoffEvent[], now: number): Promise<void>;
  /** Told of the events with their answers (the overview's counts) */
  observed?(events: readonly BackoffEvent[], answers: readonly EventAnswer[], now: number): void;
}

const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:[Zz]|[+-]\d{2}:\d{2})$/;
/** The reply code: the first three digits standing alone, as replies and DSN diagnostic codes put them first */
const REPLY_CODE = /(?:^|[\s;:([])([245])\d\d(?=[ -]|$)/;

/** Milliseconds since the epoch of an event's `time`, not after `now`; `now` without one */
function eventTime(time: string | number | undefined, index: number, now: number): number {
  if (time === undefined) return now;
  const ms = typeof time === 'number' ? time * 1000 : RFC_3339.test(time) ? Date.parse(time) : NaN;
  if (!Number.isFinite(ms)) throw errors.SCHEDULE_ERR_EVENT_TIME(String(time), index);
  // A clock ahead of ours: the attempt counts as now, so that it cannot outlive the windows
  return Math.min(ms, now);
}

/** The outcome an event states, else its reply code's: 2xx delivered, 5xx bounced, otherwise deferred */
function outcomeOf(event: RequestEvent): Outcome {
  if (event.outcome) return event.outcome;
  const code = REPLY_CODE.exec(event.message ?? '')?.[1];
  return code === '2' ? 'delivered' : code === '5' ? 'bounced' : 'deferred';
}

/** The backoff operations, bound by operationId */
export function backoffHandlers(options: BackoffOptions): Record<string, Handler> {
  const { classifier, store, engine } = options;
  return {
    reportBackoffEvents: async (request: HandlerRequest<{ events: RequestEvent[] }>) => {
      if (!classifier) {
        throw errors.SCHEDULE_ERR_NO_CLASSIFIER();
      }
      if (!store.putPolicy) throw errors.SCHEDULE_ERR_NO_POLICY_STORE();
      const now = options.now();
      const events = request.body.events.map((event, index): BackoffEvent => {
        const outcome = outcomeOf(event);
        if (outcome !== 'delivered' && typeof event.message !== 'string') throw errors.SCHEDULE_ERR_EVENT_MESSAGE(index);
        return { ...event, time: eventTime(event.time, index, now), outcome };
      });
      // Deliveries are attempts only: nothing to classify
      const failed = events.flatMap((event, index) => (event.outcome === 'delivered' ? [] : [index]));
      const results = await classifier.classifyReplies('backoff', failed.map((index) => events[index]!.message!), { signal: request.signal });
      const classes = new Array<string | null>(events.length).fill(null);
      failed.forEach((index, k) => (classes[index] = results[k]!.label));
      options.received?.(results.map((result) => result.label));
      const { answers, apply } = engine.record(events, classes, now);
      await Promise.all(apply.map(async (policy) => {
        await options.putPolicy(policy, request);
        options.notice({ policy: policy.id });
      }));
      options.applied?.(apply);
      options.observed?.(events, answers, now);
      await options.counted?.(events, now);
      return { body: { events: answers } };
    },
  };
}

/** What `GET /v1/policies/{id}` reads: the policy feed */
export interface PolicyView {
  /** Resolves once the notices given so far are in the state */
  settled(): Promise<void>;
  /** Everything in force, each object with its feed JSON */
  snapshot(): { policies: readonly { id: string; json: string }[]; suspends: readonly { id: string; json: string }[] };
  /** The applied (backoff) policy with this id, with its reason */
  appliedPolicy(id: string): AppliedPolicy | undefined;
}

/** `GET /v1/policies/{id}`: the object as the feed sends it, under `policy` or `suspend`, and its reason */
export function policyHandlers(view: PolicyView): Record<string, Handler> {
  return {
    getPolicy: async (request: HandlerRequest) => {
      await view.settled();
      const id = String(request.params.id);
      const { policies, suspends } = view.snapshot();
      const policy = policies.find((object) => object.id === id);
      const found = policy ?? suspends.find((object) => object.id === id);
      if (!found) throw errors.SCHEDULE_ERR_POLICY_NOT_FOUND(id);
      const reason = view.appliedPolicy(id)?.reason;
      return { json: `{"${policy ? 'policy' : 'suspend'}":${found.json}${reason ? `,"reason":${JSON.stringify(reason)}` : ''}}` };
    },
  };
}
