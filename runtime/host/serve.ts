import type { Server } from 'node:http';
import { routes } from '../../generated/routes.ts';
import type { StartupConfig } from '../../generated/types/startup-config.ts';
import { effective } from '../config/effective.ts';
import { configFileReader, formatError, loadStartupConfig } from '../config/load.ts';
import { formatPath } from '../config/path.ts';
import { validateStartup } from '../config/validate.ts';
import { importPlugin } from '../plugins/loader.ts';
import type { Issue } from '../config/explain.ts';
import { PluginSet } from '../plugins/registry.ts';
import { PLUGIN_API_VERSION } from '../core/types.ts';
import { PoolRegistry } from '../pool/pools.ts';
import { createApp } from '../http/app.ts';
import { keyPolicy } from '../http/auth.ts';
import { openRoutes, warnIfExposed } from '../http/exposure.ts';
import { hostErrors } from '../core/host-errors.ts';
import { listen, stopListening, type ListenerSpec } from '../http/listen.ts';
import { stdoutLines } from '../observability/log-sink.ts';
import { createLogger, type HostLogger } from '../observability/logger.ts';
import { HostMetrics } from '../observability/metrics.ts';
import { mergedDocument } from '../http/openapi.ts';
import { checkPages } from '../http/pages.ts';
import { notReady, type NotReadyPart } from '../observability/readiness.ts';
import { createSocketServer, type SocketServer } from '../http/sockets.ts';
import { hostSettings } from '../http/settings.ts';
import { tlsFor, type PrivateKeySpec } from '../http/tls.ts';

/** How to start a host */
export interface HostOptions {
  /** Folder relative paths resolve against; the document's own folder when it is a file, else the working directory */
  baseDir?: string;
  /** Bind every TCP listener to a free port (tests) */
  ephemeralPorts?: boolean;
  /** Environment plugins and the host settings (`CAPSTAN_*`, see docs/startup-config.md) read (default `process.env`) */
  env?: Record<string, string | undefined>;
  log?: HostLogger;
  /** How long shutdown waits for in-flight requests (default 10 s) */
  graceMs?: number;
  /** Check every response against the spec, answering 500 on a mismatch (default: `CAPSTAN_CHECK_RESPONSES=1`) */
  checkResponses?: boolean;
}

/** A running host */
export interface Host {
  /** One URL per listener, such as `http://127.0.0.1:8080` or `http+unix:/run/capstan.sock` */
  urls: string[];
  listeners: { server: string; url: string }[];
  log: HostLogger;
  /** Stops accepting, finishes in-flight requests, then closes plugins and pools */
  close(): Promise<void>;
}

async function resolveDocument(
  document: object | string,
  options: HostOptions,
): Promise<{ doc: StartupConfig; baseDir: string; warnings: string[] }> {
  if (typeof document === 'string') {
    const loaded = await loadStartupConfig(document, { env: options.env, loadPlugin: importPlugin });
    return { doc: loaded.document, baseDir: options.baseDir ?? loaded.baseDir, warnings: loaded.warnings };
  }
  const baseDir = options.baseDir ?? process.cwd();
  const readConfigFile = configFileReader(options.env ?? process.env);
  const { errors, warnings, fileErrors } = await validateStartup(document, {
    serve: true,
    baseDir,
    load: importPlugin,
    readConfigFile,
  });
  const line = (issue: Issue): string => `${formatPath(issue.path) || '(root)'} ${issue.message}`;
  const lines = [...errors.map(line), ...fileErrors.map((error) => formatError(error.file, error))];
  if (lines.length > 0) throw hostErrors.CONFIG_ERR_DOCUMENT(lines.join('\n  '));
  return { doc: effective(document as StartupConfig), baseDir, warnings: warnings.map(line) };
}

/** Boots Capstan from a startup document (a path to YAML/JSON, or the document itself) */
export async function startHost(document: object | string, options: HostOptions = {}): Promise<Host> {
  const { doc, baseDir, warnings } = await resolveDocument(document, options);
  const settings = hostSettings(options.env ?? process.env);
  const log =
    options.log ?? createLogger({ service: doc.environment?.syslog?.ident ?? 'capstan', level: settings.logLevel });
  for (const warning of warnings) log.warn('startup configuration warning', { warning });
  const pools = new PoolRegistry(
    (doc.threads?.scripts ?? []).map((s) => ({ id: s.id, count: s.count ?? 32 })),
    log,
  );
  const metrics = new HostMetrics({ processMetrics: true, log });
  const plugins = new PluginSet({ baseDir, log, pools, routes, env: options.env, metrics });
  const servers: { id: string; server: Server }[] = [];
  const sockets: SocketServer[] = [];
  const listeners: { server: string; url: string }[] = [];
  let closing = false;
  const readiness = async (): Promise<NotReadyPart[]> =>
    closing ? [{ part: 'host', error: 'Shutting down' }] : notReady(plugins.readyChecks());
  hostGauges(metrics, pools, plugins);
  metrics.hostCounter(
    {
      name: 'log_lines_dropped_total',
      help: 'Log lines standard output did not take (a full disk, a reader that went away), in this process',
    },
    () => stdoutLines().dropped,
  );
  const close = async () => {
    closing = true;
    // Upgraded connections keep a server from closing: close the WebSockets while the servers stop accepting
    await Promise.all([
      ...sockets.map((s) => s.close()),
      ...servers.map((s) => stopListening(s.server, options.graceMs ?? 10_000)),
    ]);
    await plugins.close();
    await pools.close();
    log.info('stopped');
  };
  try {
    await plugins.load((doc.plugins ?? []) as { id: string; path?: string; config?: unknown }[]);
    const keys = keyPolicy(settings.authExempt, settings.apiKeys, plugins.auths());
    for (const server of doc.servers ?? []) {
      const type = server.type ?? 'smtp';
      if (type !== 'http' && type !== 'https') {
        log.info('server not served by Capstan', { server: server.id, type });
        continue;
      }
      const checkResponses = options.checkResponses ?? process.env.CAPSTAN_CHECK_RESPONSES === '1';
      const mounts = plugins.mounts(server.id).map((m) => ({ ...m, checkResponses, guard: keys.forPlugin(m.auth) }));
      const apis = ['host', ...new Set(mounts.map((m) => m.api))];
      let openapi: object | undefined;
      const serverLog = log.child({ server: server.id });
      const pages = plugins.pages(server.id);
      checkPages(
        server.id,
        pages,
        routes.filter((r) => apis.includes(r.api)),
      );
      const app = createApp({
        mounts,
        routes,
        log: serverLog,
        guard: keys.host,
        metrics,
        notReady: readiness,
        pages,
        openapi: () => (openapi ??= mergedDocument(apis, PLUGIN_API_VERSION)),
      });
      const tls =
        type === 'https' ? await tlsFor(server.id, (doc.pki?.private ?? []) as PrivateKeySpec[], baseDir) : undefined;
      const callback = app.callback();
      const upgrades = createSocketServer({ mounts, routes, app: callback, log: serverLog });
      if (upgrades) sockets.push(upgrades);
      const opened: { url: string; server: Server }[] = [];
      for (const listener of (server.listeners ?? []) as ListenerSpec[]) {
        const open = await listen(callback, listener, {
          baseDir,
          tls,
          ephemeral: options.ephemeralPorts,
          settings,
          log: serverLog,
        });
        opened.push(open);
        if (upgrades) open.server.on('upgrade', upgrades.onUpgrade);
        servers.push({ id: server.id, server: open.server });
        listeners.push({ server: server.id, url: open.url });
        log.info(`listening on ${open.url}`, { server: server.id, apis });
      }
      warnIfExposed(serverLog, server.id, opened, openRoutes(mounts, keys.host, settings.authExempt));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { urls: listeners.map((l) => l.url), listeners, log, close };
}

/** The host's scrape-time gauges: worker pools, and each plugin's readiness */
function hostGauges(metrics: HostMetrics, pools: PoolRegistry, plugins: PluginSet): void {
  metrics.hostGauge(
    { name: 'pool_queue_length', help: 'Tasks waiting for a thread, by pool', labelNames: ['pool'] },
    (gauge) => {
      for (const pool of pools.stats()) gauge.set({ pool: pool.pool }, pool.queued);
    },
  );
  metrics.hostGauge(
    { name: 'pool_busy_workers', help: 'Threads running a task, by pool', labelNames: ['pool'] },
    (gauge) => {
      for (const pool of pools.stats()) gauge.set({ pool: pool.pool }, pool.busy);
    },
  );
  metrics.hostGauge({ name: 'pool_threads', help: 'Threads of the pool', labelNames: ['pool'] }, (gauge) => {
    for (const pool of pools.stats()) gauge.set({ pool: pool.pool }, pool.threads);
  });
  metrics.hostGauge(
    {
      name: 'plugin_ready',
      help: '1 when the plugin passed its readiness check at this scrape, else 0 (plugins with a check only)',
      labelNames: ['plugin'],
    },
    async (gauge) => {
      const checks = plugins.readyChecks();
      const failing = new Set((await notReady(checks)).map((f) => f.part));
      for (const { id } of checks) gauge.set({ plugin: id }, failing.has(id) ? 0 : 1);
    },
  );
}
