import type { Static, TSchema } from 'typebox';
import type { ErrorSet } from './errors.ts';
import type { WebSocket } from 'ws';
import type { PluginAudit } from './audit.ts';

/** Version of the plugin API this host implements; plugins declare a semver range of it */
export const PLUGIN_API_VERSION = '1.9.0';

/** What a plugin is for: serving an API's operations, classifying bounces or storing schedules */
export type PluginKind = 'api' | 'classifier' | 'store';

/** Structured logger tagged with the plugin id */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A service of another plugin this plugin uses, found by the id in its config or a built-in default */
export interface ServiceNeed {
  kind: PluginKind;
  /** Config key holding the id of the plugin instance providing the service */
  configKey?: string;
  /** Built-in plugin id used when the config names none */
  default: string;
  /**
   * Started only when the config names an instance or `default` is in `plugins[]`; otherwise `ctx.services` lacks it
   * (since plugin API 1.2)
   */
  optional?: boolean;
}

/** The worker pool a plugin runs its tasks in */
export interface PoolNeed {
  /** URL of the module whose default export handles one task */
  worker: string;
  /** Id of the `threads.scripts[]` pool of the startup document to run in; the shared pool when absent. Since 1.2 */
  scriptPool?: string;
  /** @deprecated The 1.0 and 1.1 name of `scriptPool`, still read (with a warning) by every 1.x host */
  threads?: string;
}

/** Everything a plugin may touch; the host denies the rest */
export interface Capabilities {
  /** Environment variables the plugin reads; `ctx.env` holds only these */
  env?: readonly string[];
  /** Files or folders the plugin uses, relative to the startup document */
  paths?: readonly string[];
  /** A worker pool running `worker` (URL of a module whose default export handles one task) */
  pool?: PoolNeed;
  /** Services of other plugins, by the name they take in `ctx.services` */
  services?: Readonly<Record<string, ServiceNeed>>;
}

/** Handle on the worker pool a plugin declared */
export interface PoolHandle {
  run<T = unknown>(payload: unknown, options?: { signal?: AbortSignal }): Promise<T>;
  readonly threads: number;
}

/** The narrow view of the host a plugin's setup receives */
export interface PluginContext<C = unknown> {
  id: string;
  config: C;
  log: Logger;
  env: Readonly<Record<string, string | undefined>>;
  /** Folder of the startup document; relative paths in config resolve against it */
  baseDir: string;
  /** `<baseDir>/var/<id>`: where the plugin keeps its data (created by the plugin when needed) */
  dataDir: string;
  pool?: PoolHandle;
  services: Readonly<Record<string, unknown>>;
  /** Aborted when the host shuts down */
  signal: AbortSignal;
  /** Counters, gauges and histograms in the host's `/metrics`. Since plugin API 1.2 */
  metrics: PluginMetrics;
  /** The audit trail: records a change with who asked, before and after (docs/plugin-api.md#audit). Since 1.4 */
  audit: PluginAudit;
}

/**
 * Label values of one sample. Low cardinality only: a value comes from a short closed list (a model, a class, an
 * operation, an outcome), never from a request (no IPs, messages, keys or paths)
 */
export type MetricLabels = Readonly<Record<string, string | number>>;

/** A metric a plugin declares */
export interface MetricOptions {
  /**
   * Name after the host's `capstan_` prefix: lower case letters, digits and `_`, such as `classifications_total`.
   * Every instance of every plugin declaring the same name, type and labels shares one family, told apart by the
   * `plugin` label (the instance id) the host adds; a name the host or another plugin uses otherwise stops setup
   */
  name: string;
  help: string;
  /** Label names besides `plugin` */
  labelNames?: readonly string[];
}

/** A count that only goes up */
export interface MetricCounter {
  inc(labels?: MetricLabels, value?: number): void;
}

/** A value that goes up and down */
export interface MetricGauge {
  set(labels: MetricLabels, value: number): void;
  inc(labels?: MetricLabels, value?: number): void;
  dec(labels?: MetricLabels, value?: number): void;
}

/** A distribution of observed values in buckets */
export interface MetricHistogram {
  observe(labels: MetricLabels, value: number): void;
}

/** What `ctx.metrics` offers; every metric lands in the host's registry, served at `GET /metrics`. Since plugin API 1.2 */
export interface PluginMetrics {
  counter(options: MetricOptions): MetricCounter;
  /**
   * With `collect`, the gauge is emptied and `collect` runs at every scrape to set it from the plugin's state:
   * for values the plugin holds anyway (entries of a cache, schedules by status) rather than ones it would count
   */
  gauge(options: MetricOptions & { collect?: (gauge: MetricGauge) => void | Promise<void> }): MetricGauge;
  /** `buckets` in the metric's unit (default: Prometheus' latency buckets in seconds) */
  histogram(options: MetricOptions & { buckets?: readonly number[] }): MetricHistogram;
}

/** Static files a plugin serves, such as web pages. Since plugin API 1.2 */
export interface PageMount {
  /** URL path prefix, starting and ending with `/`, such as `/ui/`: the files of `dir` are served below it */
  prefix: string;
  /** Absolute folder; `prefix` alone answers its `index.html`. Paths leading out of it are refused */
  dir: string;
}

/** A validated request as a handler sees it */
export interface HandlerRequest<B = any, P = Record<string, string>, Q = Record<string, any>> {
  params: P;
  query: Q;
  body: B;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  signal: AbortSignal;
  /**
   * Who made the request: the name of the key it carried, or `key:` and the first 12 hex digits of the key's SHA-256
   * for a key without a name. Absent when the route is open (no keys configured) or its path exempt. Since 1.4
   */
  principal?: string;
}

/** What a handler returns: status 200 unless given, body sent as compact JSON */
export interface HandlerResult {
  status?: number;
  body?: unknown;
  /**
   * The body already encoded as JSON, instead of `body`: a string, UTF-8 bytes, or UTF-8 parts sent one after the
   * other. Lets a handler reuse encoded parts of a large answer instead of encoding it whole for every request.
   * Since 1.7 also batches of parts made while the answer is sent (chunked, each batch written once the client has
   * taken the previous ones), so that a large answer's first bytes need not wait for its last to be encoded.
   */
  json?: string | Buffer | readonly Buffer[] | AsyncIterable<readonly Buffer[]>;
  /**
   * A body of another media type the operation declares (such as `text/csv`), sent as it is with `type` as its
   * `Content-Type`, instead of `body` or `json`. Since 1.6
   */
  content?: { type: string; data: string | Buffer };
  headers?: Record<string, string>;
}

/** Serves one operation, bound by its operationId */
export type Handler = (request: HandlerRequest) => HandlerResult | Promise<HandlerResult>;

/** A key with the name requests made with it are known by (`HandlerRequest.principal`). Since plugin API 1.4 */
export interface NamedApiKey {
  name: string;
  key: string;
}

/**
 * API-key check the host runs before every handler of the plugin. The host also accepts its own key (`API_KEY`) on
 * the plugin's routes, and puts every route behind a key as soon as any key is configured (docs/operations.md)
 */
export interface AuthOptions {
  /** Header carrying the key, case-insensitive */
  header: string;
  /** Keys accepted on this plugin's routes, each a non-empty string or (since 1.4) a named key */
  keys: readonly (string | NamedApiKey)[];
  /**
   * Query parameter that may carry the key on a WebSocket upgrade, for clients whose only setting is an address
   * (since plugin API 1.2); ordinary HTTP requests still need the header
   */
  query?: string;
}

/** A WebSocket upgrade request as a socket handler sees it, after the key check and path validation */
export interface SocketRequest {
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Address of the peer, for logs */
  remoteAddress?: string;
  /** Aborted when the host shuts down */
  signal: AbortSignal;
  /** Who opened the socket, as `HandlerRequest.principal`. Since 1.4 */
  principal?: string;
}

/**
 * Serves one WebSocket operation (a GET whose 101 answer the spec documents), bound by its operationId. `socket` is a
 * `ws` WebSocket; the host has attached an error listener and closes it at shutdown (code 1001)
 */
export type SocketHandler = (socket: WebSocket, request: SocketRequest) => void;

/** What setup hands back to the host */
export interface PluginInstance {
  handlers?: Record<string, Handler>;
  /** WebSocket operations by operationId (since plugin API 1.2), mounted on the same servers as `handlers` */
  sockets?: Record<string, SocketHandler>;
  auth?: AuthOptions;
  /** Largest accepted request body in bytes (default 1 MiB); larger bodies get 413 */
  bodyLimit?: number;
  /** The object other plugins receive in `ctx.services` */
  service?: unknown;
  /**
   * Readiness check behind `GET /readyz`: resolves when the plugin can serve, throws (or rejects) with a message
   * naming what fails otherwise, such as a store that does not answer. Runs at every probe: keep it cheap. Since
   * plugin API 1.2
   */
  ready?: () => void | Promise<void>;
  /**
   * Static files served on every server the plugin is mounted on, without an API key: they hold no data, and a
   * browser cannot send the key header when it opens a page. Since plugin API 1.2
   */
  pages?: readonly PageMount[];
  close?: () => void | Promise<void>;
}

/** What a CLI command gets besides its arguments */
export interface CommandIo {
  stdin: NodeJS.ReadableStream;
  /** `isTTY`: the stream is a terminal (progress bars belong only there) */
  stdout: { write(text: string): unknown; readonly isTTY?: boolean };
  stderr: { write(text: string): unknown; readonly isTTY?: boolean };
  /** Folder of the startup document given with `capstan --config FILE`, else the working directory */
  baseDir: string;
  /**
   * Starts the plugin providing service `name` of the command's plugin (`capabilities.services`), found as
   * `capstan serve` finds it: the instance the plugin's config in the startup document (`--config`) names, with its
   * path and config there, else the built-in default. Since 1.6
   */
  useService<S = unknown>(name: string): Promise<CommandService<S>>;
}

/** A plugin a command started for its service; `close` stops it (and its pool). Since plugin API 1.6 */
export interface CommandService<S = unknown> {
  service: S;
  close(): Promise<void>;
}

/** A `capstan` command a plugin contributes; the CLI runs it without starting a host. Since 1.2 */
export interface PluginCommand {
  /** One line for `capstan --help` */
  summary: string;
  /** The command line with its options, such as `classify [--json] [TEXT...]`, for `capstan --help` */
  usage: string;
  /** Runs with the arguments after the command's name; answers the exit code (0 done, 1 failure, 2 usage error) */
  run(args: string[], io: CommandIo): Promise<number>;
}

/** A plugin's manifest and setup, as `definePlugin` takes it */
export interface PluginDefinition<S extends TSchema = TSchema> {
  id: string;
  kind: PluginKind;
  /** Semver range of the plugin API this plugin supports, such as `^1.0.0` */
  apiVersion: string;
  /**
   * kind `api` only: the OpenAPI document whose operations it serves, such as `ip-schedule`. Since plugin API 1.2 a
   * plugin of kind `api` serving only `pages` may omit it
   */
  api?: string;
  description?: string;
  config: S;
  capabilities?: Capabilities;
  /** The plugin's own error codes, made by `defineErrors`; the host refuses a code another plugin has. Since 1.2 */
  errors?: ErrorSet;
  /** `capstan` commands, by name (lower case, such as `classify`); static, since the CLI starts no host. Since 1.2 */
  commands?: Readonly<Record<string, PluginCommand>>;
  setup(ctx: PluginContext<Static<S>>): PluginInstance | Promise<PluginInstance>;
}
