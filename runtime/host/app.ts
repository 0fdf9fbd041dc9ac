import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import type { Logger } from '../plugins/types.ts';
import { CapstanError } from './errors.ts';
import type { RouteEntry } from './operation-schemas.ts';
import { routeHandler, type Mount } from './route-handler.ts';

function sendError(ctx: Context, status: number, message: string): void {
  ctx.status = status;
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  ctx.body = JSON.stringify({ error: message });
}

/** Maps thrown errors to `{"error": "..."}`; unexposed ones show only the status text and are logged */
function errors(log: Logger) {
  // A plain function returning next()'s promise: no extra async frame on every request
  return (ctx: Context, next: Next) =>
    next().catch((error: unknown) => {
      const status = (error as CapstanError).status ?? (error as any).statusCode ?? 500;
      const exposed = error instanceof CapstanError ? error.expose : status < 500 && (error as any).expose === true;
      if (!exposed) log.error('request failed', { method: ctx.method, path: ctx.path, status, error });
      sendError(ctx, status, exposed ? (error as Error).message : 'Internal Server Error');
    });
}

/** Turns what no route answered into JSON errors: 405 (with Allow, set by the router) or 404 */
async function unmatched(ctx: Context, next: Next): Promise<void> {
  await next();
  if (ctx.status === 405) throw new CapstanError('HOST_ERR_METHOD', `Method "${ctx.method}" is not allowed on "${ctx.path}"`);
  // Koa's status stays 404 until something answers; a handler's own 404 carries a body
  if (ctx.status === 404 && ctx.body == null && ctx.respond !== false) {
    throw new CapstanError('HOST_ERR_NOT_FOUND', `No route for "${ctx.method} ${ctx.path}"`);
  }
}

/** Builds the Koa app of one server: the mounts' routes, `/openapi.json` and JSON errors */
export function createApp(options: { mounts: Mount[]; routes: readonly RouteEntry[]; openapi: () => object; log: Logger }): Koa {
  const app = new Koa();
  app.silent = true;
  app.on('error', (error) => options.log.warn('connection error', { error }));
  app.use(errors(options.log));
  const router = new Router();
  router.get('/openapi.json', (ctx) => {
    ctx.body = options.openapi();
  });
  for (const mount of options.mounts) {
    for (const route of options.routes) {
      if (route.api !== mount.api) continue;
      router.register(route.path, [route.method], routeHandler(route, mount), { name: route.operationId });
    }
  }
  app.use(unmatched);
  app.use(router.routes());
  app.use(router.allowedMethods({ throw: false }));
  return app;
}
