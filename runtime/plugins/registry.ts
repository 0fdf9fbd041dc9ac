import { join } from 'node:path';
import { pluginAudit } from '../observability/audit.ts';
import { hostErrors } from '../core/host-errors.ts';
import type { ErrorFactory } from '../core/errors.ts';
import type { HostLogger } from '../observability/logger.ts';
import type { RouteEntry } from '../core/operation-schemas.ts';
import type { HostMetrics } from '../observability/metrics.ts';
import { contractOf, contractProblem } from '../contracts/check.ts';
import { authProblem } from '../http/auth.ts';
import type { Mount } from '../http/route-handler.ts';
import type { PoolRegistry } from '../pool/pools.ts';
import { importPlugin, pluginConfig, type PluginEntry } from './loader.ts';
import type {
  AuthOptions,
  PluginContext,
  PluginDefinition,
  PluginInstance,
  PoolNeed,
  ServiceNeed,
} from '../core/types.ts';

const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** The `threads.scripts[]` pool a plugin names, under its 1.2 name or the deprecated 1.0 one */
function scriptPool(pluginId: string, pool: PoolNeed, log: HostLogger): string | undefined {
  if (pool.threads === undefined) return pool.scriptPool;
  if (pool.scriptPool !== undefined && pool.scriptPool !== pool.threads) {
    throw hostErrors.PLUGIN_ERR_MANIFEST(
      pluginId,
      `"capabilities.pool" names pool "${pool.scriptPool}" as "scriptPool" and "${pool.threads}" as "threads"`,
    );
  }
  // Plugins written for 1.0 and 1.1 keep working throughout 1.x; the warning tells their authors what to rename
  log.warn('"capabilities.pool.threads" is deprecated since plugin API 1.2: rename it to "scriptPool"', {
    scriptPool: pool.threads,
  });
  return pool.threads;
}

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
  metrics: HostMetrics;
  env?: Record<string, string | undefined>;
}

/** Loads plugins in order (their services first), hands each its narrow context, and closes them in reverse */
export class PluginSet {
  readonly #options: PluginSetOptions;
  readonly #started: StartedPlugin[] = [];
  /** Each plugin error code with the plugin that registered it; instances of one plugin share its factories */
  readonly #codes = new Map<string, { factory: ErrorFactory; pluginId: string }>();
  #entries: PluginEntry[] = [];

  constructor(options: PluginSetOptions) {
    this.#options = options;
  }

  /** Starts every entry of `plugins[]`, in order */
  async load(entries: readonly PluginEntry[]): Promise<void> {
    this.#entries = [...entries];
    for (const entry of entries) await this.start(entry, []);
  }

  /** Starts `entry` alone, with the plugins of `others` whose services it uses (as `load` would resolve them) */
  async loadOne(entry: PluginEntry, others: readonly PluginEntry[]): Promise<void> {
    this.#entries = [entry, ...others.filter((other) => other.id !== entry.id)];
    await this.start(entry, []);
  }

  /** Starts one plugin (and the plugins whose services it uses) unless it already runs */
  async start(entry: PluginEntry, chain: string[]): Promise<StartedPlugin> {
    const running = this.#started.find((p) => p.id === entry.id);
    if (running) return running;
    if (chain.includes(entry.id)) {
      throw hostErrors.PLUGIN_ERR_SERVICE_CYCLE(entry.id, [...chain, entry.id].join('" → "'));
    }
    const { baseDir, log, pools, routes } = this.#options;
    const definition = await importPlugin(entry, baseDir);
    this.#registerCodes(entry.id, definition);
    const { config, servers } = await pluginConfig(entry, definition, baseDir);
    const services: Record<string, unknown> = {};
    for (const [name, need] of Object.entries(definition.capabilities?.services ?? {})) {
      const provider = await this.#provider(entry.id, name, need, config, chain);
      if (provider) services[name] = provider.instance.service;
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
      pool: pool
        ? pools.handle(pool.worker, { id: entry.id, config, baseDir }, scriptPool(entry.id, pool, pluginLog))
        : undefined,
      services: Object.freeze(services),
      signal: abort.signal,
      metrics: this.#options.metrics.forPlugin(entry.id),
      audit: pluginAudit(pluginLog),
    };
    let instance: PluginInstance;
    try {
      instance = (await definition.setup(ctx)) ?? {};
    } catch (error) {
      throw hostErrors.PLUGIN_ERR_SETUP(entry.id, (error as Error).message, { cause: error });
    }
    const started = { id: entry.id, definition, instance, servers, log: pluginLog, abort };
    this.#started.push(started);
    const badAuth = authProblem(instance.auth);
    if (badAuth) throw hostErrors.PLUGIN_ERR_AUTH(entry.id, badAuth);
    this.#checkHandlers(started, routes);
    pluginLog.info('plugin started', { kind: definition.kind, api: definition.api });
    return started;
  }

  /**
   * Starts only the plugin providing service `name` of `entry`'s plugin, found among `entries` (the startup document's
   * `plugins[]`) as `start` finds it, without starting `entry` itself: what a `capstan` command needs
   */
  async startService(entry: PluginEntry, name: string, entries: readonly PluginEntry[]): Promise<StartedPlugin> {
    this.#entries = [...entries];
    const definition = await importPlugin(entry, this.#options.baseDir);
    const need = definition.capabilities?.services?.[name];
    if (!need) throw hostErrors.PLUGIN_ERR_MANIFEST(entry.id, `"capabilities.services" has no "${name}"`);
    const { config } = await pluginConfig(entry, definition, this.#options.baseDir);
    const provider = await this.#provider(entry.id, name, need, config, []);
    if (!provider) throw hostErrors.PLUGIN_ERR_SERVICE_MISSING(entry.id, name, need.default);
    return provider;
  }

  /**
   * Starts the plugin providing service `name` of plugin `owner`: the instance `owner`'s config names (listed in
   * `plugins[]`), else the built-in default; undefined for an optional service neither named nor listed
   */
  async #provider(
    owner: string,
    name: string,
    need: ServiceNeed,
    config: Record<string, unknown>,
    chain: string[],
  ): Promise<StartedPlugin | undefined> {
    const named = need.configKey ? config[need.configKey] : undefined;
    const id = typeof named === 'string' ? named : need.default;
    const listed = this.#entries.find((e) => e.id === id);
    if (need.optional && typeof named !== 'string' && !listed) return undefined;
    const provider = listed ?? (id === need.default ? { id } : undefined);
    if (!provider) {
      throw hostErrors.PLUGIN_ERR_SERVICE_MISSING(owner, name, id);
    }
    const started = await this.start(provider, [...chain, owner]);
    if (started.definition.kind !== need.kind || started.instance.service === undefined) {
      throw hostErrors.PLUGIN_ERR_SERVICE_KIND(owner, id, need.kind);
    }
    // Checked when a plugin is to get the service, not when its provider starts: a store or classifier whose service no
    // plugin uses (a test double) starts as it always did
    const contract = contractOf(need.kind);
    const problem = contract && contractProblem(contract, started.instance.service);
    if (contract && problem) throw hostErrors.PLUGIN_ERR_CONTRACT(owner, id, contract.name, problem);
    return started;
  }

  #registerCodes(pluginId: string, definition: PluginDefinition): void {
    const own = Object.values(definition.errors ?? {});
    for (const factory of own) {
      const holder = this.#codes.get(factory.code);
      if (holder && holder.factory !== factory)
        throw hostErrors.PLUGIN_ERR_DUPLICATE_CODE(pluginId, factory.code, holder.pluginId);
    }
    for (const factory of own) if (!this.#codes.has(factory.code)) this.#codes.set(factory.code, { factory, pluginId });
  }

  #checkHandlers(plugin: StartedPlugin, routes: readonly RouteEntry[]): void {
    const handlers = Object.keys(plugin.instance.handlers ?? {});
    const sockets = Object.keys(plugin.instance.sockets ?? {});
    if (handlers.length + sockets.length === 0) return;
    const api = plugin.definition.api;
    if (api === undefined) throw hostErrors.PLUGIN_ERR_NO_API(plugin.id);
    if (api === 'host') throw hostErrors.PLUGIN_ERR_HOST_API(plugin.id);
    const operations = routes.filter((r) => r.api === api);
    if (operations.length === 0) throw hostErrors.PLUGIN_ERR_API(plugin.id, String(api));
    const known = new Set(operations.map((r) => r.operationId));
    const unknown = [...handlers, ...sockets].filter((h) => !known.has(h));
    if (unknown.length > 0) {
      throw hostErrors.PLUGIN_ERR_OPERATION(plugin.id, unknown.join('", "'), String(api));
    }
    const both = sockets.filter((s) => handlers.includes(s));
    if (both.length > 0) {
      throw hostErrors.PLUGIN_ERR_SOCKET_AND_HANDLER(plugin.id, both.join('", "'));
    }
    // A WebSocket opens with a GET upgrade: any other method cannot carry one
    const notGet = operations
      .filter((r) => sockets.includes(r.operationId) && r.method !== 'GET')
      .map((r) => r.operationId);
    if (notGet.length > 0) {
      throw hostErrors.PLUGIN_ERR_SOCKET_METHOD(plugin.id, notGet.join('", "'));
    }
  }

  /** The started plugin with this id */
  get(id: string): StartedPlugin | undefined {
    return this.#started.find((p) => p.id === id);
  }

  /** Every started plugin's readiness check, by instance id */
  readyChecks(): { id: string; ready: () => void | Promise<void> }[] {
    return this.#started.flatMap((p) =>
      typeof p.instance.ready === 'function' ? [{ id: p.id, ready: () => p.instance.ready!() }] : [],
    );
  }

  /** The key settings of every started plugin with any (on whichever server it is mounted) */
  auths(): AuthOptions[] {
    return this.#started.flatMap((p) => (p.instance.auth ? [p.instance.auth] : []));
  }

  /** The static files plugins serve on the server `serverId` */
  pages(serverId: string): { pluginId: string; prefix: string; dir: string }[] {
    return this.#started
      .filter((p) => p.servers === undefined || p.servers.includes(serverId))
      .flatMap((p) => (p.instance.pages ?? []).map((page) => ({ pluginId: p.id, prefix: page.prefix, dir: page.dir })));
  }

  /** The routes each API plugin mounts on the server `serverId` */
  mounts(serverId: string): Mount[] {
    return this.#started
      .filter(
        (p) =>
          p.definition.kind === 'api' &&
          p.definition.api !== undefined &&
          (p.servers === undefined || p.servers.includes(serverId)),
      )
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
