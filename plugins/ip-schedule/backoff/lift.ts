/**
 * `DELETE /v1/policies/{id}` (operation `liftPolicy`) and `PATCH /v1/policies/{id}` (operation `amendPolicy`): an
 * operator lifts an applied backoff policy or suspension before its TTL, or changes its TTL or rate. Both write the
 * store on the condition that the policy is still the one read (a concurrent escalation or step wins; the request
 * reads again), record the change with the key that asked, and answer once this host's feed has sent it; the store's
 * notices carry it to every other host's feed.
 */
import type {
  AppliedPolicy,
  Handler,
  HandlerRequest,
  PluginAudit,
  ScheduleStore,
  StoreChange,
} from '../../../runtime/mod.ts';
import { errors } from '../errors.ts';
import { explainedJson, type PolicyView } from './explained.ts';

/** What lifting and amending need */
export interface LiftOptions {
  view: PolicyView;
  store: ScheduleStore;
  audit: PluginAudit;
  notice(change: StoreChange): void;
  now(): number;
}

/** Reads before a write that keeps losing to concurrent ones gives up (each loss means the policy changed meanwhile) */
const ATTEMPTS = 5;

type Amendment = {
  ttl?: number;
  rate?: { count: number; interval: number; algorithm?: 'TOKENBUCKET' | 'FIXEDWINDOW' };
};

/** The lift and amend operations, bound by operationId */
export function liftHandlers(options: LiftOptions): Record<string, Handler> {
  const { view, store, audit } = options;

  /** The applied policy in force with this id; 404 when nothing is, 409 when a warm-up is */
  const inForce = async (id: string): Promise<AppliedPolicy> => {
    await view.settled();
    const applied = view.appliedPolicy(id);
    if (applied && applied.expires > options.now()) return applied;
    const { policies, suspends } = view.snapshot();
    const warmup = policies.find((o) => o.id === id) ?? suspends.find((o) => o.id === id);
    if (!warmup) throw errors.SCHEDULE_ERR_POLICY_NOT_FOUND(id);
    const object = JSON.parse(warmup.json) as { localip?: string; if?: { localip?: string } };
    throw errors.SCHEDULE_ERR_POLICY_WARMUP(id, object.if?.localip ?? object.localip ?? '');
  };

  /** Runs `write` on the policy as read until it wins its condition; then waits for this host's feed to send it */
  const change = async (id: string, write: (policy: AppliedPolicy) => Promise<boolean>): Promise<void> => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const policy = await inForce(id);
      const done = await write(policy);
      options.notice({ policy: id });
      await view.settled();
      if (done) return;
    }
    throw errors.SCHEDULE_ERR_POLICY_AMEND(id, 'it kept changing meanwhile, try again');
  };

  return {
    liftPolicy: async (request: HandlerRequest) => {
      const id = String(request.params.id);
      if (!store.deletePolicy) throw errors.SCHEDULE_ERR_NO_POLICY_STORE();
      await change(id, (policy) =>
        audit.record(
          {
            action: 'policy.lift',
            subject: { policy: id },
            principal: request.principal,
            before: policy,
            after: null,
            reason: { kind: policy.kind, level: policy.level },
          },
          (entry) => store.deletePolicy!(id, { expires: policy.expires }, { audit: entry }),
        ),
      );
      return { body: { lifted: id } };
    },
    amendPolicy: async (request: HandlerRequest<Amendment>) => {
      const id = String(request.params.id);
      if (!store.replacePolicy) throw errors.SCHEDULE_ERR_NO_POLICY_STORE();
      const { ttl, rate } = request.body;
      await change(id, (policy) => {
        const after = amended(policy, ttl, rate, options.now());
        return audit.record(
          {
            action: 'policy.amend',
            subject: { policy: id },
            principal: request.principal,
            before: policy,
            after,
            reason: { kind: policy.kind, level: policy.level },
          },
          (entry) => store.replacePolicy!(after, { expires: policy.expires }, { audit: entry }),
        );
      });
      const json = explainedJson(view, id);
      // Lapsed or lifted the moment it was written
      if (json === undefined) throw errors.SCHEDULE_ERR_POLICY_NOT_FOUND(id);
      return { json };
    },
  };
}

/** The policy with `ttl` (seconds from `now`) and `rate` set; 400 for a rate on a suspension or on no rate limit */
function amended(policy: AppliedPolicy, ttl: number | undefined, rate: Amendment['rate'], now: number): AppliedPolicy {
  const object = { ...policy.object };
  if (rate) {
    const then = object.then as { rate?: { algorithm: string } } | undefined;
    if (policy.kind !== 'policy' || !then)
      throw errors.SCHEDULE_ERR_POLICY_AMEND(policy.id, 'a suspension has no rate');
    object.then = { ...then, rate: { ...rate, algorithm: rate.algorithm ?? then.rate?.algorithm ?? 'TOKENBUCKET' } };
  }
  if (ttl !== undefined) object.ttl = ttl;
  return { ...policy, object, expires: ttl === undefined ? policy.expires : now + ttl * 1000 };
}
