import { readFile, chmod, chown, lstat, rm } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { resolve } from 'node:path';
import type { Logger } from '../core/types.ts';
import { JSON_CONTENT_TYPE } from './content-type.ts';
import { hostErrors } from '../core/host-errors.ts';
import { endWithJson } from './raw-answer.ts';
import type { HostSettings } from './settings.ts';

/** A listener of the startup document: TCP or Unix-socket form */
export interface ListenerSpec {
  id?: string;
  port?: number;
  address?: string;
  path?: string;
  owner?: string;
  group?: string;
  chmod?: string;
  backlog?: number;
}

/** Key and certificate in PEM form */
export interface TlsMaterial {
  key: string;
  cert: string;
}

/** A socket being served */
export interface Listening {
  url: string;
  server: Server;
}

async function userOrGroupId(name: string, file: '/etc/passwd' | '/etc/group'): Promise<number> {
  if (/^\d+$/.test(name)) return Number(name);
  const line = (await readFile(file, 'utf8')).split('\n').find((l) => l.split(':')[0] === name);
  if (!line)
    throw (file === '/etc/passwd' ? hostErrors.HOST_ERR_UNKNOWN_USER : hostErrors.HOST_ERR_UNKNOWN_GROUP)(name);
  return Number(line.split(':')[2]);
}

async function removeStaleSocket(path: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (!info) return;
  if (!info.isSocket()) throw hostErrors.HOST_ERR_SOCKET_IN_THE_WAY(path);
  await rm(path);
}

/** What Node's own answers to broken requests become: the same statuses, as JSON */
const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Request took too long: send the headers and body sooner'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request headers are too large'],
};

/** Answers a request Node refused before Koa saw it, or closes the connection when nothing can be answered */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // Node's own handler answers only while no response has started on the connection; so do we
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  const code = error.code ?? '';
  if (!socket.writable || pending?.headersSent || !(code in CLIENT_ERRORS || code.startsWith('HPE_'))) {
    socket.destroy();
    return;
  }
  const [status, text, message] = CLIENT_ERRORS[code] ?? [400, 'Bad Request', 'Malformed HTTP request'];
  // An answer to HEAD carries no body, or the client reads it as the start of another response
  endWithJson(socket, status, text, message, {
    head: (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ',
  });
}

/** An `Expect` other than 100-continue: Node would answer 417 with no body */
function answerExpectation(request: IncomingMessage, response: ServerResponse): void {
  const body = JSON.stringify({
    error: `Unsupported expectation "${request.headers.expect}": only "100-continue" is supported`,
  });
  response.writeHead(417, { 'content-type': JSON_CONTENT_TYPE, 'content-length': Buffer.byteLength(body) });
  response.end(request.method === 'HEAD' ? undefined : body);
}

function createServer(handler: RequestListener, settings: HostSettings, tls: TlsMaterial | undefined): Server {
  const limits = {
    headersTimeout: settings.headersTimeoutMs,
    requestTimeout: settings.requestTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    // Node checks the deadlines only this often (30 s by default), which would stretch each of them by up to that much
    connectionsCheckingInterval: Math.min(1000, settings.headersTimeoutMs),
  };
  if (!tls) return createHttpServer(limits, handler);
  try {
    return createHttpsServer(
      {
        ...limits,
        key: tls.key,
        cert: tls.cert,
        minVersion: settings.tls.minVersion,
        ciphers: settings.tls.ciphers,
        honorCipherOrder: true,
      },
      handler,
    );
  } catch (error) {
    throw hostErrors.HOST_ERR_TLS_CIPHERS(settings.tls.ciphers, (error as Error).message);
  }
}

/** Opens one listener for `handler`, over TLS when `tls` is given; port 0 when `ephemeral` */
export async function listen(
  handler: RequestListener,
  listener: ListenerSpec,
  options: { baseDir: string; tls?: TlsMaterial; ephemeral?: boolean; settings: HostSettings; log: Logger },
): Promise<Listening> {
  const server = createServer(handler, options.settings, options.tls);
  server.maxConnections = options.settings.maxConnections;
  server.on('clientError', answerClientError);
  server.on('checkExpectation', answerExpectation);
  let dropped = 0;
  server.on('drop', () => {
    dropped += 1;
    options.log.warn('connection refused: too many connections', {
      maxConnections: options.settings.maxConnections,
      dropped,
    });
  });
  const scheme = options.tls ? 'https' : 'http';
  const backlog = listener.backlog ?? 511;
  await new Promise<void>((done, fail) => {
    server.once('error', (error) => fail(hostErrors.HOST_ERR_LISTEN(describe(listener), error.message)));
    if (listener.path !== undefined) {
      const path = resolve(options.baseDir, listener.path);
      removeStaleSocket(path).then(() => server.listen({ path, backlog }, done), fail);
    } else {
      server.listen(
        { port: options.ephemeral ? 0 : listener.port, host: listener.address, backlog, ipv6Only: false },
        done,
      );
    }
  });
  if (listener.path !== undefined) {
    const path = resolve(options.baseDir, listener.path);
    if (listener.chmod) await chmod(path, parseInt(listener.chmod, 8));
    if (listener.owner || listener.group) {
      const uid = listener.owner ? await userOrGroupId(listener.owner, '/etc/passwd') : -1;
      const gid = listener.group ? await userOrGroupId(listener.group, '/etc/group') : -1;
      await chown(path, uid, gid);
    }
    return { url: `${scheme}+unix:${path}`, server };
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { url: `${scheme}://${host}:${address.port}`, server };
}

function describe(listener: ListenerSpec): string {
  return listener.path ?? `${listener.address ?? '*'}:${listener.port}`;
}

/** Stops accepting, lets in-flight requests finish (up to `graceMs`), then closes what is left */
export async function stopListening(server: Server, graceMs: number): Promise<void> {
  const closed = new Promise<void>((done) => server.close(() => done()));
  // Keep-alive connections become idle once their in-flight response is sent; close them as they do
  const sweep = setInterval(() => server.closeIdleConnections(), 50);
  const timer = setTimeout(() => server.closeAllConnections(), graceMs);
  await closed;
  clearInterval(sweep);
  clearTimeout(timer);
}
