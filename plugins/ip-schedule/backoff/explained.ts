/**
 * The answer of `GET /v1/policies/{id}` (and of `PATCH`): the object as the feed sends it, under `policy` or `suspend`,
 * its reason when it is a backoff policy, and `"shadow":true` when it was applied in shadow mode (the feed does not
 * send it, but it is shown)
 */
import type { AppliedPolicy } from '../../../runtime/mod.ts';

type Listed = readonly { id: string; json: string }[];

/** What the answer reads: the policy feed */
export interface PolicyView {
  /** Resolves once the notices given so far are in the state */
  settled(): Promise<void>;
  /** Everything in force, each object with its feed JSON; apart, what was applied in shadow mode */
  snapshot(): { policies: Listed; suspends: Listed; shadow: { policies: Listed; suspends: Listed } };
  /** The applied (backoff) policy with this id, with its reason */
  appliedPolicy(id: string): AppliedPolicy | undefined;
}

/** The answer's JSON for the object in force with this id; undefined when none is */
export function explainedJson(view: PolicyView, id: string): string | undefined {
  const { policies, suspends, shadow } = view.snapshot();
  const byId = (object: { id: string }) => object.id === id;
  const shadowed = shadow.policies.find(byId) ?? shadow.suspends.find(byId);
  const policy = policies.find(byId) ?? shadow.policies.find(byId);
  const found = policy ?? suspends.find(byId) ?? shadowed;
  if (!found) return undefined;
  const reason = view.appliedPolicy(id)?.reason;
  return `{"${policy ? 'policy' : 'suspend'}":${found.json}${reason ? `,"reason":${JSON.stringify(reason)}` : ''}${shadowed ? ',"shadow":true' : ''}}`;
}
