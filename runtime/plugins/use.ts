import { routes } from '../../generated/routes.ts';
import { logLevelSetting } from '../http/settings.ts';
import { createLogger } from '../observability/logger.ts';
import { HostMetrics } from '../observability/metrics.ts';
import { PoolRegistry } from '../pool/pools.ts';
import type { PluginEntry } from './loader.ts';
import { PluginSet, type StartedPlugin } from './registry.ts';
import type { Handler } from '../core/types.ts';

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

/** Where and with what environment a plugin is started */
export interface UseOptions {
  baseDir?: string;
  env?: Record<string, string | undefined>;
  /**
   * Other entries of a startup document: a service the plugin uses is the one of these its config names, as `serve`
   * resolves it (a classifier plugin of your own for `bounce-classifier`); started only when used
   */
  entries?: readonly PluginEntry[];
}

/** Starts one plugin through the real loader (manifest, config, services, pool) without HTTP */
export function usePlugin<S = unknown>(entry: PluginEntry, options: UseOptions = {}): Promise<UsedPlugin<S>> {
  return used(options, async (set) => {
    await set.loadOne(entry, options.entries ?? []);
    return set.get(entry.id)!;
  });
}

/**
 * Starts the plugin providing service `name` of `entry`'s plugin, found among `options.entries` as `capstan serve`
 * finds it, without starting `entry` itself: `CommandIo.useService`
 */
export function useService<S = unknown>(
  entry: PluginEntry,
  name: string,
  options: UseOptions = {},
): Promise<UsedPlugin<S>> {
  return used(options, (set) => set.startService(entry, name, options.entries ?? []));
}

/** Runs `start` on a plugin set of its own, with its own pools, logger and metrics, and hands back what it started */
async function used<S>(options: UseOptions, start: (set: PluginSet) => Promise<StartedPlugin>): Promise<UsedPlugin<S>> {
  // Checked before anything starts, so a bad level leaves nothing to close. Lines go to standard error: a command's
  // standard output is its answer (`capstan classify | cut -f1`)
  const log = createLogger({
    service: 'capstan',
    level: logLevelSetting(options.env ?? process.env, 'warn'),
    write: (line) => process.stderr.write(line),
  });
  const pools = new PoolRegistry([], log);
  const metrics = new HostMetrics({ processMetrics: false });
  const set = new PluginSet({
    baseDir: options.baseDir ?? process.cwd(),
    log,
    pools,
    routes,
    env: options.env,
    metrics,
  });
  const close = async () => {
    await set.close();
    await pools.close();
  };
  let started: StartedPlugin;
  try {
    started = await start(set);
  } catch (error) {
    await close();
    throw error;
  }
  const ready = started.instance.ready;
  return {
    service: started.instance.service as S,
    handlers: started.instance.handlers ?? {},
    ...(typeof ready === 'function' ? { ready: () => ready.call(started.instance) } : {}),
    metrics: async () => (await metrics.scrape()).text,
    close,
  };
}
