import type { Static, TSchema } from 'typebox';

/** Version of the plugin API this host implements; plugins declare a semver range of it */
export const PLUGIN_API_VERSION = '1.2.0';

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
}

/** Everything a plugin may touch; the host denies the rest */
export interface Capabilities {
  /** Environment variables the plugin reads; `ctx.env` holds only these */
  env?: readonly string[];
  /** Files or folders the plugin uses, relative to the startup document */
  paths?: readonly string[];
  /** A worker pool running `worker` (URL of a module whose default export handles one task) */
  pool?: { worker: string; threads?: string };
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
}

/** A validated request as a handler sees it */
export interface HandlerRequest<B = any, P = Record<string, string>, Q = Record<string, any>> {
  params: P;
  query: Q;
  body: B;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  signal: AbortSignal;
}

/** What a handler returns: status 200 unless given, body sent as compact JSON */
export interface HandlerResult {
  status?: number;
  body?: unknown;
  /**
   * The body already encoded as JSON, instead of `body`: a string, UTF-8 bytes, or UTF-8 parts sent one after the
   * other. Lets a handler reuse encoded parts of a large answer instead of encoding it whole for every request.
   */
  json?: string | Buffer | readonly Buffer[];
  headers?: Record<string, string>;
}

/** Serves one operation, bound by its operationId */
export type Handler = (request: HandlerRequest) => HandlerResult | Promise<HandlerResult>;

/** API-key check the host runs before every handler of the plugin */
export interface AuthOptions {
  /** Header carrying the key, case-insensitive */
  header: string;
  /** Accepted keys; none means the API is open */
  keys: readonly string[];
}

/** What setup hands back to the host */
export interface PluginInstance {
  handlers?: Record<string, Handler>;
  auth?: AuthOptions;
  /** Largest accepted request body in bytes (default 1 MiB); larger bodies get 413 */
  bodyLimit?: number;
  /** The object other plugins receive in `ctx.services` */
  service?: unknown;
  close?: () => void | Promise<void>;
}

/** A plugin's manifest and setup, as `definePlugin` takes it */
export interface PluginDefinition<S extends TSchema = TSchema> {
  id: string;
  kind: PluginKind;
  /** Semver range of the plugin API this plugin supports, such as `^1.0.0` */
  apiVersion: string;
  /** kind `api` only: the OpenAPI document whose operations it serves, such as `ip-schedule` */
  api?: string;
  description?: string;
  config: S;
  capabilities?: Capabilities;
  setup(ctx: PluginContext<Static<S>>): PluginInstance | Promise<PluginInstance>;
}
