/**
 * WebSocket operations of the mounted plugins (`PluginInstance.sockets`), served on the `upgrade` event of the same
 * node servers as their HTTP routes: `ws://` on http servers, `wss://` on https servers. The upgrade is checked like
 * any request (a key its plugin's routes accept, in the header or the plugin's query parameter; path and query
 * against the spec) and refused with a JSON answer before any handshake. An upgrade of any other path is served by the
 * app as plain HTTP.
 */
import { ServerResponse, type IncomingMessage, type RequestListener } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger, SocketHandler } from '../core/types.ts';
import { KeyRefused } from './auth.ts';
import type { RouteEntry } from '../core/operation-schemas.ts';
import { endWithJson } from './raw-answer.ts';
import { queryCoercer, validator, type Mount } from './route-handler.ts';

/** Largest frame a client may send: the plugin's `bodyLimit`, at most this */
const MAX_FRAME_BYTES = 1024 * 1024;
/** How long shutdown waits for clients to answer the close frame before cutting them off */
const CLOSE_GRACE_MS = 1000;

/** The upgrade side of one server */
export interface SocketServer {
  onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every open WebSocket (1001, going away), cutting off those that do not answer in time */
  close(): Promise<void>;
}

interface SocketRoute {
  pattern: RegExp;
  names: string[];
  route: RouteEntry;
  mount: Mount;
  handler: SocketHandler;
  server: WebSocketServer;
}

/** `/a/:b` as a regular expression with one group per parameter */
function compilePath(path: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), names };
}

/** Answers an upgrade that is refused, as JSON, and closes the connection */
function refuse(
  socket: Duplex,
  status: number,
  text: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  endWithJson(socket, status, text, message, { headers });
}

/** Serves an upgrade request of a path without a socket as the plain HTTP request it also is (closing afterwards) */
function serveAsHttp(app: RequestListener, request: IncomingMessage, socket: Duplex): void {
  // The connection left the HTTP parser: a body could not be read, so only requests without one are served
  const length = request.headers['content-length'];
  if (request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')) {
    refuse(socket, 400, 'Bad Request', 'A request with a body cannot ask for an upgrade here');
    return;
  }
  const response = new ServerResponse(request);
  response.shouldKeepAlive = false;
  response.assignSocket(socket as never);
  response.on('finish', () => {
    response.detachSocket(socket as never);
    (socket as Duplex & { destroySoon?: () => void }).destroySoon?.() ?? socket.end();
  });
  app(request, response);
}

/** The socket routes of `mounts` and the upgrade handler serving them; undefined when no mount has one */
export function createSocketServer(options: {
  mounts: Mount[];
  routes: readonly RouteEntry[];
  app: RequestListener;
  log: Logger;
}): SocketServer | undefined {
  const { log } = options;
  const sockets: SocketRoute[] = [];
  for (const mount of options.mounts) {
    const server = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: Math.min(mount.bodyLimit, MAX_FRAME_BYTES),
    });
    for (const route of options.routes) {
      const handler = mount.sockets[route.operationId];
      if (route.api !== mount.api || !handler) continue;
      sockets.push({ ...compilePath(route.path), route, mount, handler, server });
    }
  }
  if (sockets.length === 0) return undefined;
  const open = new Set<WebSocket>();
  let refused = 0;

  const accept = (
    match: SocketRoute,
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    values: string[],
    url: URL,
  ) => {
    const { route, mount } = match;
    const path = url.pathname;
    let principal: string | undefined;
    if (mount.guard) {
      const query = mount.auth?.query;
      try {
        principal = mount.guard({
          path,
          headers: request.headers,
          queryKey: query ? url.searchParams.get(query) : undefined,
        });
      } catch (error) {
        if (!(error instanceof KeyRefused)) throw error;
        refused += 1;
        log.warn('upgrade refused', { path, reason: error.reason, refused });
        refuse(socket, 401, 'Unauthorized', error.message, { 'WWW-Authenticate': error.challenge });
        return;
      }
    }
    let params: Record<string, string>;
    try {
      params = Object.fromEntries(match.names.map((name, index) => [name, decodeURIComponent(values[index]!)]));
    } catch {
      refuse(socket, 400, 'Bad Request', `Malformed percent-encoding in path "${path}"`);
      return;
    }
    const query = queryCoercer(route.schemas.query)(Object.fromEntries(url.searchParams));
    const problem =
      validator(route.schemas.params, 'path')?.(params) ?? validator(route.schemas.query, 'query')?.(query);
    if (problem) {
      refuse(socket, 400, 'Bad Request', problem);
      return;
    }
    match.server.handleUpgrade(request, socket, head, (ws) => {
      open.add(ws);
      ws.on('close', () => open.delete(ws));
      // A malformed frame is reported here and ws closes that connection: it must not reach the process
      ws.on('error', (error) => mount.log.info('websocket closed on a client error', { path, error }));
      try {
        match.handler(ws, {
          params,
          query: query as Record<string, string>,
          headers: request.headers,
          remoteAddress: request.socket.remoteAddress,
          signal: mount.signal,
          ...(principal === undefined ? {} : { principal }),
        });
      } catch (error) {
        mount.log.error('socket handler failed', { path, error });
        ws.close(1011, 'Internal error');
      }
    });
  };

  return {
    onUpgrade(request, socket, head) {
      socket.on('error', (error) => log.debug('upgrade connection error', { error }));
      let url: URL;
      try {
        url = new URL(request.url ?? '/', 'http://upgrade.invalid');
      } catch {
        refuse(socket, 400, 'Bad Request', 'Malformed request target');
        return;
      }
      for (const match of request.method === 'GET' ? sockets : []) {
        const values = match.pattern.exec(url.pathname);
        if (!values) continue;
        try {
          accept(match, request, socket, head, values.slice(1), url);
        } catch (error) {
          log.error('upgrade failed', { path: url.pathname, error });
          refuse(socket, 500, 'Internal Server Error', 'Internal Server Error');
        }
        return;
      }
      serveAsHttp(options.app, request, socket);
    },
    async close() {
      const clients = [...open];
      if (clients.length === 0) return;
      const closed = Promise.all(
        clients.map(
          (ws) =>
            new Promise<void>((done) => {
              if (ws.readyState === ws.CLOSED) return done();
              ws.once('close', () => done());
              ws.close(1001, 'Server shutting down');
            }),
        ),
      );
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise<void>((done) => (timer = setTimeout(done, CLOSE_GRACE_MS)))]);
      clearTimeout(timer);
      for (const ws of clients) ws.terminate();
    },
  };
}
