import type { Duplex } from 'node:stream';
import { JSON_CONTENT_TYPE } from './content-type.ts';

/**
 * How long a connection ended with such an answer may stay half-open: time enough for the answer to reach a client
 * that reads it, while one that never closes its side does not keep the connection (and its slot of
 * CAPSTAN_MAX_CONNECTIONS) forever
 */
const LINGER_MS = 1000;

/**
 * Ends a connection that left Node's HTTP response machinery (a request Node refused, an upgrade) with an answer
 * shaped as every other error: `{"error": message}` as JSON. `head`: the request was HEAD, so no body follows. The
 * connection is destroyed `LINGER_MS` after the answer, if the client has not closed it by then.
 */
export function endWithJson(
  socket: Duplex,
  status: number,
  text: string,
  message: string,
  options: { headers?: Record<string, string>; head?: boolean } = {},
): void {
  const body = JSON.stringify({ error: message });
  const extra = Object.entries(options.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${options.head ? '' : body}`,
  );
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => clearTimeout(timer));
}
