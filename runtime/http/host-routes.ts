import type { Context } from 'koa';
import type { KeyGuard } from './auth.ts';
import { JSON_CONTENT_TYPE } from './content-type.ts';
import { hostErrors } from '../core/host-errors.ts';
import type { HostMetrics } from '../observability/metrics.ts';
import type { RouteEntry } from '../core/operation-schemas.ts';
import { measured } from './route-handler.ts';
import type { NotReadyPart } from '../observability/readiness.ts';

/** What the host's own operations (`spec/openapi/host.yaml`) need */
export interface HostRouteDeps {
  metrics: HostMetrics;
  /** The parts failing readiness now; empty when ready */
  notReady: () => Promise<NotReadyPart[]>;
}

const HEALTHY = JSON.stringify({ status: 'ok' });
const READY = JSON.stringify({ status: 'ready' });

type HostHandler = (ctx: Context) => void | Promise<void>;

function handlers(deps: HostRouteDeps): Record<string, HostHandler> {
  return {
    getHealth(ctx) {
      ctx.set('Content-Type', JSON_CONTENT_TYPE);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = HEALTHY;
    },
    async getReady(ctx) {
      const failing = await deps.notReady();
      ctx.set('Content-Type', JSON_CONTENT_TYPE);
      ctx.set('Cache-Control', 'no-store');
      if (failing.length === 0) {
        ctx.body = READY;
        return;
      }
      ctx.status = 503;
      const named = failing.map((f) => `"${f.part}"`).join(', ');
      ctx.body = JSON.stringify({
        error: `Not ready: ${named} failed ${failing.length === 1 ? 'its' : 'their'} readiness check`,
        failing,
      });
    },
    async getMetrics(ctx) {
      const { text, contentType } = await deps.metrics.scrape();
      ctx.set('Content-Type', contentType);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = text;
    },
  };
}

/**
 * The Koa handlers of the host's operations, each behind the server's key guard and counted in the request metrics
 * like any plugin's route. Paths come from the generated route table.
 */
export function hostRoutes(
  routes: readonly RouteEntry[],
  deps: HostRouteDeps,
  guard: KeyGuard | undefined,
): { route: RouteEntry; handle: (ctx: Context) => Promise<void> }[] {
  const byOperation = handlers(deps);
  return routes
    .filter((r) => r.api === 'host')
    .map((route) => {
      const handler = byOperation[route.operationId];
      if (!handler) throw hostErrors.HOST_ERR_HOST_OPERATION(route.operationId);
      const handle = async (ctx: Context) => {
        guard?.(ctx);
        await handler(ctx);
      };
      return { route, handle: measured(handle, deps.metrics.route(route.api, route.operationId)) };
    });
}
