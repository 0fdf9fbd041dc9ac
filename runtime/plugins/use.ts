import { routes } from '../../generated/routes.ts';
import { createLogger } from '../host/logger.ts';
import { HostMetrics } from '../host/metrics.ts';
import { PoolRegistry } from '../pool/pools.ts';
import type { PluginEntry } from './loader.ts';
import { PluginSet } from './registry.ts';
import type { Handler } from './types.ts';

/** A plugin started on its own, as conformance suites and tests use it */
export interface UsedPlugin<S = unknown> {
  service: S;
  handlers: Record<string, Handler>;
  /** The plugin's readiness check, when it has one. Since plugin API 1.2 */
  ready?: () => void | Promise<void>;
  /** The metrics text the plugin's `ctx.metrics` families hold now, as `GET /metrics` shows them. Since plugin API 1.2 */
  metrics(): Promise<string>;
  close(): Promise<void>;
}

/** Starts one plugin through the real loader (manifest, config, services, pool) without HTTP */
export async function usePlugin<S = unknown>(
  entry: PluginEntry,
  options: {
    baseDir?: string;
    env?: Record<string, string | undefined>;
    /**
     * Other entries of a startup document: a service the plugin uses is the one of these its config names, as `serve`
     * resolves it (a classifier plugin of your own for `bounce-classifier`); started only when used
     */
    entries?: readonly PluginEntry[];
  } = {},
): Promise<UsedPlugin<S>> {
  const pools = new PoolRegistry([]);
  const log = createLogger({ service: 'capstan', level: 'warn' });
  const metrics = new HostMetrics({ processMetrics: false });
  const set = new PluginSet({ baseDir: options.baseDir ?? process.cwd(), log, pools, routes, env: options.env, metrics });
  const close = async () => {
    await set.close();
    await pools.close();
  };
  try {
    await set.loadOne(entry, options.entries ?? []);
  } catch (error) {
    await close();
    throw error;
  }
  const started = set.get(entry.id)!;
  const ready = started.instance.ready;
  return {
    service: started.instance.service as S,
    handlers: started.instance.handlers ?? {},
    ...(typeof ready === 'function' ? { ready: () => ready.call(started.instance) } : {}),
    metrics: async () => (await metrics.scrape()).text,
    close,
  };
}
