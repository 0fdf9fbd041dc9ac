/**
 * `POST /v1/backoff/events` (operation `reportBackoffEvents`): failed delivery attempts reported by the MTA, classified
 * through the bounce-classifier's cache (its `ReplyClassifier` service), counted, and turned into stored backoff
 * policies that the feed sends.
 *
 * @example
 * ```ts
 * const engine = new BackoffEngine(policyTable(config.backoff), (id) => feed.appliedPolicy(id));
 * const handlers = backoffHandlers({ classifier, store, engine, feed, now: Date.now });
 * ```
 */
import type { Handler, HandlerRequest, ReplyClassifier, ScheduleStore, StoreChange } from '../../../runtime/mod.ts';
import type { BackoffEngine, BackoffEvent } from './engine.ts';
import { errors } from '../errors.ts';
export { BackoffEngine } from './engine.ts';
export { policyTable } from './table.ts';

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
}

/** The backoff events operation, bound by operationId */
export function backoffHandlers(options: BackoffOptions): Record<string, Handler> {
  const { classifier, store, engine } = options;
  return {
    reportBackoffEvents: async (request: HandlerRequest<{ events: BackoffEvent[] }>) => {
      if (!classifier) {
        throw errors.SCHEDULE_ERR_NO_CLASSIFIER();
      }
      if (!store.putPolicy) throw errors.SCHEDULE_ERR_NO_POLICY_STORE();
      const { events } = request.body;
      const results = await classifier.classifyReplies('backoff', events.map((event) => event.message), { signal: request.signal });
      const classes = results.map((result) => result.label);
      options.received?.(classes);
      const { answers, apply } = engine.record(events, classes, options.now());
      await Promise.all(apply.map(async (policy) => {
        await store.putPolicy!(policy);
        options.notice({ policy: policy.id });
      }));
      return { body: { events: answers } };
    },
  };
}
