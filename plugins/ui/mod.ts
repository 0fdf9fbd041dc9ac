/**
 * Built-in plugin `ui`: web pages for operators at `/ui/` (plain HTML and JavaScript modules, no build step) over the
 * same HTTP APIs and API key as any client: the overview (`GET /v1/overview`), the warm-up schedules and backoff
 * policies (`ip-schedule`) and the classifier (`bounce-classifier`). The chart library, uPlot, is served from its npm
 * package's files at `/ui/vendor/uplot/`:
 * nothing is fetched from a network at run time. On in the embedded default document; off when not listed or with
 * `enabled: false`.
 *
 * @example
 * ```ts
 * import { startHost } from '../../runtime/mod.ts';
 * const host = await startHost({
 *   version: '6.10',
 *   servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
 *   plugins: [{ id: 'ip-schedule' }, { id: 'bounce-classifier' }, { id: 'ui' }],
 * }, { ephemeralPorts: true });
 * await fetch(`${host.urls[0]}/ui/`); // the overview, linking the other pages
 * await host.close();
 * ```
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { uiConfigSchema } from '../../generated/validators/plugins/ui.ts';
import { definePlugin } from '../../runtime/mod.ts';

const UPLOT_DIST = join(dirname(createRequire(import.meta.url).resolve('uplot/package.json')), 'dist');

export default definePlugin({
  id: 'ui',
  kind: 'api',
  apiVersion: '^1.2.0',
  description: 'Web pages for the warm-up schedules and the classifier, at /ui/',
  config: uiConfigSchema,
  setup(ctx) {
    if (!ctx.config.enabled) return {};
    return {
      pages: [
        { prefix: '/ui/', dir: join(import.meta.dirname, 'pages') },
        { prefix: '/ui/vendor/uplot/', dir: UPLOT_DIST },
      ],
    };
  },
});
