import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import type { Logger } from '../core/types.ts';
import { KeyRefused, type KeyGuard } from './auth.ts';
import { JSON_CONTENT_TYPE } from './content-type.ts';
import { CapstanError } from '../core/errors.ts';
import { hostErrors } from '../core/host-errors.ts';
import { hostRoutes, type HostRouteDeps } from './host-routes.ts';
import type { HostMetrics } from '../observability/metrics.ts';
import type { RouteEntry } from '../core/operation-schemas.ts';
import { servePages, type PageSpec } from './pages.ts';
import { measured, routeHandler, type Mount } from './route-handler.ts';

function sendError(ctx: Context, status: number, message: string): void {
  ctx.status = status;
  ctx.set('Content-Type', JSON_CONTENT_TYPE);
  ctx.body = JSON.stringify({ error: message });
}

/**
 * Maps thrown errors to `{"error": "..."}`; unexposed ones show only the status text and are logged. Refused keys are
 * counted and logged without the key; client aborts are logged as such, with nothing left to answer.
 */
function errors(log: Logger) {
  let refused = 0;
  // A plain function returning next()'s promise: no extra async frame on every request
  return (ctx: Context, next: Next) =>
    next().catch((error: unknown) => {
      if ((error as CapstanError).code === hostErrors.HOST_ERR_ABORTED.code) {
        log.info('request aborted by client', { method: ctx.method, path: ctx.path });
        return;
      }
      if (error instanceof KeyRefused) {
        refused += 1;
        log.warn('request refused', { method: ctx.method, path: ctx.path, reason: error.reason, refused });
        ctx.set('WWW-Authenticate', error.challenge);
      }
      if (error instanceof CapstanError && error.retryAfter !== undefined)
        ctx.set('Retry-After', String(error.retryAfter));
      const status = (error as CapstanError).status ?? (error as any).statusCode ?? 500;
      const exposed = error instanceof CapstanError ? error.expose : status < 500 && (error as any).expose === true;
      if (!exposed) log.error('request failed', { method: ctx.method, path: ctx.path, status, error });
      sendError(ctx, status, exposed ? (error as Error).message : 'Internal Server Error');
    });
}

/**
 * Answers what no route took, after the key check, so that nothing (not even whether a path exists) is told without a
 * key: 404 for a path no route has, else 405 with `Allow` (any method the path does not take, TRACE and PROPFIND
 * included: a 5xx would count against the server for the client's mistake), and OPTIONS as 204 with `Allow`
 */
function unrouted(guard: KeyGuard | undefined) {
  return (ctx: Context) => {
    guard?.(ctx);
    const layers = (ctx.matched ?? []) as { methods: string[] }[];
    const allowed = [...new Set(layers.flatMap((layer) => layer.methods))];
    if (allowed.length === 0) throw hostErrors.HOST_ERR_NOT_FOUND(`${ctx.method} ${ctx.path}`);
    ctx.set('Allow', [...allowed, 'OPTIONS'].join(', '));
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    throw hostErrors.HOST_ERR_METHOD(ctx.method, ctx.path);
  };
}

/** What one server's app serves */
export interface AppOptions {
  mounts: Mount[];
  routes: readonly RouteEntry[];
  openapi: () => object;
  log: Logger;
  /** The key check of the host's routes and of what no route takes (`KeyPolicy.host`); undefined when open */
  guard: KeyGuard | undefined;
  metrics: HostMetrics;
  notReady: HostRouteDeps['notReady'];
  pages: readonly PageSpec[];
}

/** Builds the Koa app of one server: the host's operations, the mounts' routes, pages, `/openapi.json` and JSON errors */
export function createApp(options: AppOptions): Koa {
  const app = new Koa();
  app.silent = true;
  app.on('error', (error) => options.log.warn('connection error', { error }));
  app.use(errors(options.log));
  const guard = options.guard;
  const router = new Router();
  router.get('/openapi.json', (ctx) => {
    guard?.(ctx);
    ctx.body = options.openapi();
  });
  for (const { route, handle } of hostRoutes(options.routes, options, guard)) {
    router.register(route.path, [route.method], handle, { name: route.operationId });
  }
  for (const mount of options.mounts) {
    for (const route of options.routes) {
      if (route.api !== mount.api) continue;
      const handle = measured(routeHandler(route, mount), options.metrics.route(route.api, route.operationId));
      router.register(route.path, [route.method], handle, { name: route.operationId });
    }
  }
  app.use(router.routes());
  if (options.pages.length > 0) app.use(servePages(options.pages));
  // What no route took is counted too (api "none"): scanners' 404s and wrong methods belong in the error rate
  const answerUnrouted = unrouted(guard);
  app.use(measured(async (ctx) => answerUnrouted(ctx), options.metrics.route('none', 'unrouted')));
  return app;
}
