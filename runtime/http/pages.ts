import { send } from '@koa/send';
import type { Context, Next } from 'koa';
import { hostErrors } from '../core/host-errors.ts';
import type { RouteEntry } from '../core/operation-schemas.ts';

/** Static files one plugin serves below `prefix` */
export interface PageSpec {
  pluginId: string;
  prefix: string;
  dir: string;
}

const PREFIX = /^\/([a-z0-9][a-z0-9._-]*\/)+$/;

// Pages run scripts that hold the API key: only the host's own files may run or be framed
const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** Checks the prefixes of a server's pages: well formed, absolute folders, no prefix used twice or shadowing a route */
export function checkPages(serverId: string, pages: readonly PageSpec[], routes: readonly RouteEntry[]): void {
  const refuse = (page: PageSpec, reason: string) =>
    hostErrors.PLUGIN_ERR_PAGES(page.pluginId, page.prefix, serverId, reason);
  for (const [index, page] of pages.entries()) {
    if (typeof page.prefix !== 'string' || !PREFIX.test(page.prefix))
      throw refuse(page, 'a prefix is lower case path segments starting and ending with "/", such as "/ui/"');
    if (typeof page.dir !== 'string' || !page.dir.startsWith('/'))
      throw refuse(page, `folder "${page.dir}" is not an absolute path`);
    const other = pages.slice(0, index).find((p) => p.prefix === page.prefix);
    if (other) throw refuse(page, `plugin "${other.pluginId}" serves pages there`);
    const route = routes.find((r) => `${r.path}/`.startsWith(page.prefix) || r.path === page.prefix.slice(0, -1));
    if (route) throw refuse(page, `route "${route.method} ${route.path}" of API "${route.api}" is below it`);
  }
}

/**
 * Serves the pages' files for GET and HEAD, the longest matching prefix first (a plugin may serve a library's folder
 * below its own pages); `/ui` answers a redirect to `/ui/`. Leaves every other path to `next`
 */
export function servePages(pages: readonly PageSpec[]) {
  const longestFirst = [...pages].sort((a, b) => b.prefix.length - a.prefix.length);
  return async (ctx: Context, next: Next) => {
    const page = longestFirst.find((p) => ctx.path.startsWith(p.prefix) || ctx.path === p.prefix.slice(0, -1));
    if (!page) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD, OPTIONS');
      if (ctx.method === 'OPTIONS') {
        ctx.status = 204;
        return;
      }
      throw hostErrors.HOST_ERR_METHOD(ctx.method, ctx.path);
    }
    if (ctx.path === page.prefix.slice(0, -1)) {
      ctx.redirect(page.prefix);
      return;
    }
    ctx.set(PAGE_HEADERS);
    let served: string | undefined;
    try {
      served = await send(ctx, ctx.path.slice(page.prefix.length - 1), {
        root: page.dir,
        index: 'index.html',
        brotli: false,
        gzip: false,
      });
    } catch (error) {
      const status = (error as { status?: number }).status;
      // resolve-path answers 403 for a path leading out of the folder, 400 for a NUL byte or a malformed escape
      if (status === 400 || status === 403) throw hostErrors.HOST_ERR_PAGE_PATH(ctx.path);
      if (status !== 404) throw error;
    }
    // Hidden files (a segment starting with ".") are not served either
    if (served === undefined) throw hostErrors.HOST_ERR_NO_PAGE(ctx.path);
  };
}
