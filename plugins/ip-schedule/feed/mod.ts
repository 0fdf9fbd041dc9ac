/**
 * The policy feed of the `ip-schedule` plugin: the WebSocket `/v1/policies/feed` (operation `policyFeed`) and
 * `GET /v1/policies` (operation `getPolicies`), both from one state derived from the stored schedules.
 *
 * @example
 * ```ts
 * const feed = await PolicyFeed.start({ store, timezone: 'UTC', log, maxBufferedBytes: 4 << 20, pingIntervalMs: 30_000
 * });
 * const { sockets, handlers } = feedOperations(feed);
 * ```
 */
import type { Handler, SocketHandler } from '../../../runtime/mod.ts';
import type { PolicyFeed } from './feed.ts';

export { PolicyFeed } from './feed.ts';
export type { Clock, FeedOptions } from './feed.ts';
export type { DropReason, FeedCounters } from './clients.ts';
export { STATUSES } from './state.ts';
export type { StatusCounts } from './state.ts';

/** The feed's socket and its JSON twin, bound by operationId */
export function feedOperations(feed: PolicyFeed): {
  sockets: Record<string, SocketHandler>;
  handlers: Record<string, Handler>;
} {
  return {
    sockets: { policyFeed: (ws) => feed.connect(ws) },
    handlers: {
      getPolicies: async () => {
        // Writes this host has answered are in the state once their notices are applied
        await feed.settled();
        const { policies, suspends, shadow } = feed.snapshot();
        const list = (objects: readonly { json: string }[]) => `[${objects.map((o) => o.json).join(',')}]`;
        // Shadow ones apart, and only when there are some: an MTA polling here enforces `policies` and `suspends`
        const shown =
          shadow.policies.length + shadow.suspends.length > 0
            ? `,"shadow":{"policies":${list(shadow.policies)},"suspends":${list(shadow.suspends)}}`
            : '';
        return { json: `{"policies":${list(policies)},"suspends":${list(suspends)}${shown}}` };
      },
    },
  };
}
