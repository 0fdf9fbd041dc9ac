import type { ServerResponse } from 'node:http';
import type { Context } from 'koa';
import type { AuthOptions, Handler, HandlerRequest, Logger, SocketHandler } from '../core/types.ts';
import type { KeyGuard } from './auth.ts';
import { acceptedTypes, readBody, type BodyTypes } from './body.ts';
import { JSON_CONTENT_TYPE } from './content-type.ts';
import { hostErrors } from '../core/host-errors.ts';
import type { CapstanError } from '../core/errors.ts';
import type { RequestObserver } from '../observability/metrics.ts';
import type { RouteEntry } from '../core/operation-schemas.ts';
import { compileValidator, type Validate } from '../config/validator.ts';

/** What one plugin mounts: its API's routes served by its handlers */
export interface Mount {
  api: string;
  pluginId: string;
  handlers: Record<string, Handler>;
  /** WebSocket operations, served on upgrade by `runtime/http/sockets.ts` */
  sockets: Record<string, SocketHandler>;
  auth?: AuthOptions;
  /** The key check of its routes and sockets (`keyPolicy`); undefined when they are open */
  guard?: KeyGuard;
  bodyLimit: number;
  log: Logger;
  signal: AbortSignal;
  /** Check every response against the spec (development and tests), answering 500 on a mismatch */
  checkResponses?: boolean;
}

type Coerce = (query: Record<string, unknown>) => Record<string, unknown>;

/** Turns query strings into the types their schema declares, so `?bypass_cache=true` validates as boolean */
export function queryCoercer(schema: any): Coerce {
  const types: Record<string, string> = {};
  for (const [name, prop] of Object.entries<any>(schema?.properties ?? {})) types[name] = [prop?.type].flat()[0];
  return (query) => {
    const out: Record<string, unknown> = {};
    for (const [name, raw] of Object.entries(query)) {
      const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
      const type = types[name];
      if (type === 'boolean' && (value === 'true' || value === 'false')) out[name] = value === 'true';
      else if (
        (type === 'integer' || type === 'number') &&
        typeof value === 'string' &&
        value.trim() !== '' &&
        !Number.isNaN(Number(value))
      )
        out[name] = Number(value);
      else out[name] = value;
    }
    return out;
  };
}

// Operations share schema objects (the generator emits each distinct schema once): compile each once per prefix
const compiled = new WeakMap<object, Map<string, Validate>>();

/** The compiled validator of `schema`, shared by every route using it */
export function validator(schema: object | undefined, prefix: string): Validate | undefined {
  if (!schema) return undefined;
  let byPrefix = compiled.get(schema);
  if (!byPrefix) compiled.set(schema, (byPrefix = new Map()));
  let validate = byPrefix.get(prefix);
  if (!validate) byPrefix.set(prefix, (validate = compileValidator(schema, prefix)));
  return validate;
}

type Json = string | Buffer | readonly Buffer[];

function responseChecker(route: RouteEntry): (status: number, json: Json | undefined) => void {
  const checks = new Map(
    Object.entries(route.schemas.responses).map(([status, schema]) => [status, validator(schema, 'response')!]),
  );
  return (status, json) => {
    const check = checks.get(String(status)) ?? checks.get(`${String(status)[0]}XX`) ?? checks.get('default');
    const text =
      typeof json === 'string' || json === undefined
        ? json
        : Buffer.concat(Array.isArray(json) ? json : [json as Buffer]).toString();
    const problem = check?.(text === undefined ? undefined : JSON.parse(text));
    if (problem) throw hostErrors.HOST_ERR_RESPONSE(status, route.operationId, problem);
  };
}

/** Writes parts in one corked burst: no copy into one buffer, which for answers of tens of megabytes costs more than the write */
function sendParts(ctx: Context, parts: readonly Buffer[]): void {
  ctx.length = parts.reduce((n, part) => n + part.length, 0);
  ctx.respond = false;
  const res = ctx.res;
  res.writeHead(ctx.status, ctx.response.headers as Record<string, string>);
  res.cork();
  for (const part of parts) res.write(part);
  res.end();
  res.uncork();
}

/**
 * Writes batches of parts as the handler makes them, chunked: each batch in one corked burst, the next asked for once
 * the socket has taken what was written, so that a large answer is encoded while the client reads it and no faster
 * than it reads. A client gone stops the batches (the iterable is closed). Past the head an error can no longer be
 * answered: it is logged and the connection cut, so that the client sees the answer incomplete, not short
 */
async function sendBatches(ctx: Context, batches: AsyncIterable<readonly Buffer[]>, log: Logger): Promise<void> {
  ctx.respond = false;
  const res = ctx.res;
  res.writeHead(ctx.status, ctx.response.headers as Record<string, string>);
  try {
    for await (const parts of batches) {
      if (res.destroyed) break;
      res.cork();
      for (const part of parts) res.write(part);
      res.uncork();
      // Checked before the loop asks for the next batch: a client gone while it was drained costs no more encoding
      if (!(await drained(res))) break;
    }
    res.end();
  } catch (error) {
    log.error('answer failed while sent', { method: ctx.method, path: ctx.path, error });
    res.destroy();
  }
}

/** Waits until the socket has taken what was written; false when the client went away instead */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  if (!res.writableNeedDrain) return Promise.resolve(true);
  // Both listeners go as soon as either fires: an answer sent in many batches must not pile them up on the response
  return new Promise((done) => {
    const settle = () => {
      res.off('drain', settle);
      res.off('close', settle);
      done(!res.destroyed);
    };
    res.on('drain', settle);
    res.on('close', settle);
  });
}

function isBatches(json: unknown): json is AsyncIterable<readonly Buffer[]> {
  return typeof json === 'object' && json !== null && Symbol.asyncIterator in json;
}

/** Gathers batches into one list of parts: for the response check, which needs the whole answer */
async function gathered(batches: AsyncIterable<readonly Buffer[]>): Promise<Buffer[]> {
  const parts: Buffer[] = [];
  for await (const batch of batches) for (const part of batch) parts.push(part);
  return parts;
}

/** Counts each request of `serve` in `observe` with its status and time, errors included */
export function measured(
  serve: (ctx: Context) => Promise<void>,
  observe: RequestObserver,
): (ctx: Context) => Promise<void> {
  return async (ctx) => {
    const started = performance.now();
    try {
      await serve(ctx);
    } catch (error) {
      observe(
        (error as CapstanError).status ?? (error as { statusCode?: number }).statusCode ?? 500,
        (performance.now() - started) / 1000,
      );
      throw error;
    }
    observe(ctx.status, (performance.now() - started) / 1000);
  };
}

/** The Koa middleware serving one operation: the mount's key check, body, validation, handler, compact JSON */
export function routeHandler(route: RouteEntry, mount: Mount): (ctx: Context) => Promise<void> {
  const handler = mount.handlers[route.operationId];
  const guard = mount.guard;
  const validateParams = validator(route.schemas.params, 'path');
  const validateQuery = validator(route.schemas.query, 'query');
  const validateBody = validator(route.schemas.body, 'body');
  const coerce = queryCoercer(route.schemas.query);
  const bodyTypes: BodyTypes = { json: route.schemas.body !== undefined, raw: route.rawBodyTypes ?? [] };
  const hasBody = bodyTypes.json || bodyTypes.raw.length > 0;
  const checkResponse = mount.checkResponses ? responseChecker(route) : undefined;
  const socket = route.operationId in mount.sockets;
  return async (ctx) => {
    const principal = guard?.(ctx);
    if (socket) {
      ctx.set('Upgrade', 'websocket');
      throw hostErrors.HOST_ERR_UPGRADE_REQUIRED(ctx.path);
    }
    if (!handler) {
      throw hostErrors.HOST_ERR_NOT_IMPLEMENTED(route.operationId);
    }
    const params = ctx.params as Record<string, string>;
    const query = validateQuery ? coerce(ctx.query) : {};
    const body = hasBody ? await readBody(ctx.req, mount.bodyLimit, bodyTypes) : undefined;
    if (body === undefined && route.bodyRequired) {
      throw bodyTypes.raw.length === 0
        ? hostErrors.HOST_ERR_BODY_REQUIRED()
        : hostErrors.HOST_ERR_BODY_REQUIRED_TYPE(acceptedTypes(bodyTypes));
    }
    // Raw bytes (a media type the spec declares besides JSON) are the handler's to check
    const problem =
      validateParams?.(params) ??
      validateQuery?.(query) ??
      (body === undefined || Buffer.isBuffer(body) ? undefined : validateBody?.(body));
    if (problem) throw hostErrors.HOST_ERR_VALIDATION(problem);
    const request: HandlerRequest = { params, query, body, headers: ctx.headers, signal: mount.signal };
    if (principal !== undefined) request.principal = principal;
    const result = await handler(request);
    if (result.content) {
      ctx.status = result.status ?? 200;
      if (result.headers) ctx.set(result.headers);
      ctx.set('Content-Type', result.content.type);
      ctx.body = result.content.data;
      return;
    }
    let json = result.json ?? (result.body === undefined ? undefined : JSON.stringify(result.body));
    if (checkResponse && isBatches(json)) json = await gathered(json);
    checkResponse?.(result.status ?? 200, json as Json | undefined);
    ctx.status = result.status ?? 200;
    if (result.headers) ctx.set(result.headers);
    if (json !== undefined) {
      // Set directly: `ctx.type =` looks the type up on every request
      ctx.set('Content-Type', JSON_CONTENT_TYPE);
      if (isBatches(json)) await sendBatches(ctx, json, mount.log);
      else if (Array.isArray(json)) sendParts(ctx, json);
      else ctx.body = json;
    }
  };
}
