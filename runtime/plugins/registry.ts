import { join } from 'node:path';
import { CapstanError } from '../host/errors.ts';
import type { HostLogger } from '../host/logger.ts';
import type { RouteEntry } from '../host/operation-schemas.ts';
import type { Mount } from '../host/route-handler.ts';
import type { PoolRegistry } from '../pool/pools.ts';
import { importPlugin, pluginConfig, type PluginEntry } from './loader.ts';
import type { PluginContext, PluginDefinition, PluginInstance } from './types.ts';

const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** A plugin that has been set up */
export interface StartedPlugin {
  id: string;
  definition: PluginDefinition;
  instance: PluginInstance;
  servers?: string[];
  log: HostLogger;
  abort: AbortController;
}

/** Options shared by every plugin the set starts */
export interface PluginSetOptions {
  baseDir: string;
  log: HostLogger;
  pools: PoolRegistry;
  routes: readonly RouteEntry[];
  env?: Record<string, string | undefined>;
}

/** Loads plugins in order (their services first), hands each its narrow context, and closes them in reverse */
export class PluginSet {
  readonly #options: PluginSetOptions;
  readonly #started: StartedPlugin[] = [];
  #entries: PluginEntry[] = [];

  constructor(options: PluginSetOptions) {
    this.#options = options;
  }

  /** Starts every entry of `plugins[]`, in order */
  async load(entries: readonly PluginEntry[]): Promise<void> {
    this.#entries = [...entries];
    for (const entry of entries) await this.start(entry, []);
  }

  /** Starts one plugin (and the plugins whose services it uses) unless it already runs */
  async start(entry: PluginEntry, chain: string[]): Promise<StartedPlugin> {
    const running = this.#started.find((p) => p.id === entry.id);
    if (running) return running;
    if (chain.includes(entry.id)) {
      throw new CapstanError('PLUGIN_ERR_SERVICE', `Cannot start plugin "${entry.id}": services depend on each other in a cycle ("${[...chain, entry.id].join('" → "')}")`);
    }
    const { baseDir, log, pools, routes } = this.#options;
    const definition = await importPlugin(entry, baseDir);
    const { config, servers } = await pluginConfig(entry, definition, baseDir);
    const services: Record<string, unknown> = {};
    for (const [name, need] of Object.entries(definition.capabilities?.services ?? {})) {
      const named = need.configKey ? config[need.configKey] : undefined;
      const id = typeof named === 'string' ? named : need.default;
      const listed = this.#entries.find((e) => e.id === id);
      if (need.optional && typeof named !== 'string' && !listed) continue;
      const provider = listed ?? (id === need.default ? { id } : undefined);
      if (!provider) {
        throw new CapstanError('PLUGIN_ERR_SERVICE', `Cannot start plugin "${entry.id}": its ${name} "${id}" is not in "plugins"`);
      }
      const started = await this.start(provider, [...chain, entry.id]);
      if (started.definition.kind !== need.kind || started.instance.service === undefined) {
        throw new CapstanError('PLUGIN_ERR_SERVICE', `Cannot start plugin "${entry.id}": plugin "${id}" provides no ${need.kind} service`);
      }
      services[name] = started.instance.service;
    }
    const source = this.#options.env ?? process.env;
    const env = Object.freeze(Object.fromEntries((definition.capabilities?.env ?? []).map((n) => [n, source[n]])));
    const pool = definition.capabilities?.pool;
    const abort = new AbortController();
    const pluginLog = log.child({ plugin: entry.id });
    const ctx: PluginContext<any> = {
      id: entry.id,
      config,
      log: pluginLog,
      env,
      baseDir,
      dataDir: join(baseDir, 'var', entry.id),
      pool: pool ? pools.handle(pool.worker, { id: entry.id, config, baseDir }, pool.threads) : undefined,
      services: Object.freeze(services),
      signal: abort.signal,
    };
    let instance: PluginInstance;
    try {
      instance = (await definition.setup(ctx)) ?? {};
    } catch (error) {
      throw new CapstanError('PLUGIN_ERR_SETUP', `Cannot start plugin "${entry.id}": ${(error as Error).message}`, { cause: error });
    }
    const started = { id: entry.id, definition, instance, servers, log: pluginLog, abort };
    this.#started.push(started);
    this.#checkHandlers(started, routes);
    pluginLog.info('plugin started', { kind: definition.kind, api: definition.api });
    return started;
  }

  #checkHandlers(plugin: StartedPlugin, routes: readonly RouteEntry[]): void {
    const handlers = Object.keys(plugin.instance.handlers ?? {});
    const sockets = Object.keys(plugin.instance.sockets ?? {});
    if (handlers.length + sockets.length === 0) return;
    const api = plugin.definition.api;
    const operations = routes.filter((r) => r.api === api);
    if (operations.length === 0) throw new CapstanError('PLUGIN_ERR_OPERATION', `Plugin "${plugin.id}" serves unknown API "${api}"`);
    const known = new Set(operations.map((r) => r.operationId));
    const unknown = [...handlers, ...sockets].filter((h) => !known.has(h));
    if (unknown.length > 0) {
      throw new CapstanError('PLUGIN_ERR_OPERATION', `Plugin "${plugin.id}" has a handler for unknown operation "${unknown.join('", "')}" of API "${api}"`);
    }
    const both = sockets.filter((s) => handlers.includes(s));
    if (both.length > 0) {
      throw new CapstanError('PLUGIN_ERR_OPERATION', `Plugin "${plugin.id}" serves operation "${both.join('", "')}" both as a handler and as a socket: keep one`);
    }
    // A WebSocket opens with a GET upgrade: any other method cannot carry one
    const notGet = operations.filter((r) => sockets.includes(r.operationId) && r.method !== 'GET').map((r) => r.operationId);
    if (notGet.length > 0) {
      throw new CapstanError('PLUGIN_ERR_OPERATION', `Plugin "${plugin.id}" serves operation "${notGet.join('", "')}" as a socket, but only a GET operation can be upgraded to a WebSocket`);
    }
  }

  /** The started plugin with this id */
  get(id: string): StartedPlugin | undefined {
    return this.#started.find((p) => p.id === id);
  }

  /** The routes each API plugin mounts on the server `serverId` */
  mounts(serverId: string): Mount[] {
    return this.#started
      .filter((p) => p.definition.kind === 'api' && (p.servers === undefined || p.servers.includes(serverId)))
      .map((p) => ({
        api: p.definition.api as string,
        pluginId: p.id,
        handlers: p.instance.handlers ?? {},
        sockets: p.instance.sockets ?? {},
        auth: p.instance.auth,
        bodyLimit: p.instance.bodyLimit ?? DEFAULT_BODY_LIMIT,
        log: p.log,
        signal: p.abort.signal,
      }));
  }

  /** Closes plugins in reverse start order; a failing close is logged, not fatal */
  async close(): Promise<void> {
    for (const plugin of this.#started.splice(0).reverse()) {
      plugin.abort.abort();
      try {
        await plugin.instance.close?.();
      } catch (error) {
        plugin.log.error('plugin close failed', { error });
      }
    }
  }
}
