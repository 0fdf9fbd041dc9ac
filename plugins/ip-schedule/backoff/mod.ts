/**
 * `POST /v1/backoff/events` (operation `reportBackoffEvents`): delivery attempts reported by the MTA, failures
 * classified through the bounce-classifier's cache (its `ReplyClassifier` service), counted, and turned into stored
 * backoff policies that the feed sends; `GET /v1/policies/{id}` (operation `getPolicy`): one of them with its reason.
 *
 * @example
 * ```ts
 * const engine = new BackoffEngine(policyTable(config.backoff), { providers, shares: shareTriggers(config.backoff),
 * inForce: (id) => feed.appliedPolicy(id) });
 * const handlers = backoffHandlers({ classifier, store, engine, feed, now: Date.now });
 * ```
 */
import type {
  AppliedPolicy,
  Handler,
  HandlerRequest,
  ReplyClassifier,
  ScheduleStore,
  StoreChange,
} from '../../../runtime/mod.ts';
import type { CountSync } from './cluster.ts';
import type { BackoffEngine, BackoffEvent, EventAnswer, Outcome } from './engine.ts';
import { errors } from '../errors.ts';
export { CountSync } from './cluster.ts';
import { explainedJson, type PolicyView } from './explained.ts';
export { BackoffEngine } from './engine.ts';
export type { PolicyView } from './explained.ts';
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
  /** With a store shared by hosts: the engine counts with the other hosts (its `cluster` option) */
  cluster?: CountSync;
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
      // The parsed body is this request's own: its events take their time and outcome in place (no copy per event)
      const events = request.body.events as unknown as BackoffEvent[];
      request.body.events.forEach((event, index) => {
        const outcome = outcomeOf(event);
        if (outcome !== 'delivered' && typeof event.message !== 'string')
          throw errors.SCHEDULE_ERR_EVENT_MESSAGE(index);
        (event as unknown as BackoffEvent).time = eventTime(event.time, index, now);
        event.outcome = outcome;
      });
      // Deliveries are attempts only: nothing to classify
      const failed = events.flatMap((event, index) => (event.outcome === 'delivered' ? [] : [index]));
      const results = await classifier.classifyReplies(
        'backoff',
        failed.map((index) => events[index]!.message!),
        { signal: request.signal },
      );
      const classes = new Array<string | null>(events.length).fill(null);
      failed.forEach((index, k) => (classes[index] = results[k]!.label));
      options.received?.(results.map((result) => result.label));
      const { cluster } = options;
      // Every event answered before this request, on any host, counts before these do
      await cluster?.sync();
      const recorded = engine.record(events, classes, now);
      const { answers } = recorded;
      let { apply } = recorded;
      if (cluster && recorded.firings.length > 0) {
        // Another host that fired the same trigger from the same counts applied it: these events did not
        const won = await cluster.claim(recorded.firings);
        const lost = recorded.firings.filter((firing) => !won.has(firing.key));
        for (const { id, index } of lost) answers[index]!.policies = answers[index]!.policies.filter((p) => p !== id);
        const applied = new Set(recorded.firings.filter((firing) => won.has(firing.key)).map((firing) => firing.id));
        apply = apply.filter((policy) => applied.has(policy.id));
      }
      await Promise.all(
        apply.map(async (policy) => {
          await options.putPolicy(policy, request);
          options.notice({ policy: policy.id });
        }),
      );
      options.applied?.(apply);
      options.observed?.(events, answers, now);
      // Once answered, these events count on every host
      await cluster?.sync();
      await options.counted?.(events, now);
      return { json: answersJson(answers) };
    },
  };
}

/** JSON of the parts of an answer that depend on its class alone, and of each provider: encoded once */
const classJson = new Map<string | null, string>();
const providerJson = new Map<string, string>();
/** Providers remembered: events name a few; ever-new ones must not grow memory */
const MAX_PROVIDERS = 10_000;

/**
 * The answer's JSON, `{"events":[...]}`, as JSON.stringify would write it: built of fragments encoded once per class
 * and provider, since a batch of 10,000 events repeats a few of them (encoding each answer anew was a tenth of the
 * request's time)
 */
function answersJson(answers: readonly EventAnswer[]): string {
  const parts: string[] = [];
  for (const answer of answers) {
    let head = classJson.get(answer.class);
    if (head === undefined) {
      head = `{"class":${JSON.stringify(answer.class)},"fields":${JSON.stringify(answer.fields)},"actions":${JSON.stringify(answer.actions)},"policies":`;
      classJson.set(answer.class, head);
    }
    let provider = providerJson.get(answer.provider);
    if (provider === undefined) {
      provider = JSON.stringify(answer.provider);
      if (providerJson.size >= MAX_PROVIDERS) providerJson.clear();
      providerJson.set(answer.provider, provider);
    }
    parts.push(
      `${head}${answer.policies.length === 0 ? '[]' : JSON.stringify(answer.policies)},"outcome":"${answer.outcome}","provider":${provider}}`,
    );
  }
  return `{"events":[${parts.join(',')}]}`;
}

/** `GET /v1/policies/{id}`: the object as the feed sends it, under `policy` or `suspend`, and its reason */
export function policyHandlers(view: PolicyView): Record<string, Handler> {
  return {
    getPolicy: async (request: HandlerRequest) => {
      await view.settled();
      const id = String(request.params.id);
      const json = explainedJson(view, id);
      if (json === undefined) throw errors.SCHEDULE_ERR_POLICY_NOT_FOUND(id);
      return { json };
    },
  };
}
