import type { Duplex } from 'node:stream';
import { JSON_CONTENT_TYPE } from './content-type.ts';

/**
 * Ends a connection that left Node's HTTP response machinery (a request Node refused, an upgrade) with an answer
 * shaped as every other error: `{"error": message}` as JSON. `head`: the request was HEAD, so no body follows.
 */
export function endWithJson(socket: Duplex, status: number, text: string, message: string, options: { headers?: Record<string, string>; head?: boolean } = {}): void {
  const body = JSON.stringify({ error: message });
  const extra = Object.entries(options.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: ${JSON_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${options.head ? '' : body}`);
}
