import type { IncomingMessage } from 'node:http';
import type { CapstanError } from '../core/errors.ts';
import { hostErrors } from '../core/host-errors.ts';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;

/**
 * Deepest nesting of arrays and objects a body may have. JSON.parse takes seconds, blocking every client, on a few
 * megabytes of nested brackets; no operation's schema nests anywhere near this deep.
 */
export const MAX_BODY_DEPTH = 64;

/** What an operation's spec lets a request body be */
export interface BodyTypes {
  /** The spec declares an `application/json` body */
  json: boolean;
  /** Other media types the spec declares (lower case): their bodies are handed over as raw bytes */
  raw: readonly string[];
}

const JSON_ONLY: BodyTypes = { json: true, raw: [] };

/** The media types an operation takes, for a message's `"%s"`: `application/json" or "message/rfc822` */
export function acceptedTypes(types: BodyTypes): string {
  return [...(types.json ? ['application/json'] : []), ...types.raw].join('" or "');
}

/**
 * Reads a request body of at most `limit` bytes; undefined when there is none. A body in one of `types.raw` is
 * answered as its bytes (a Buffer), unparsed; any other is parsed as JSON (when the operation takes JSON).
 */
export async function readBody(req: IncomingMessage, limit: number, types: BodyTypes = JSON_ONLY): Promise<unknown> {
  const declared = req.headers['content-length'];
  const hasBody = (declared !== undefined && declared !== '0') || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return undefined;
  const type = req.headers['content-type'] ?? '';
  if (types.raw.length > 0 && types.raw.includes(type.split(';')[0]!.trim().toLowerCase())) {
    if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
    return readBytes(req, limit);
  }
  if (!types.json || !JSON_TYPE.test(type)) {
    throw hostErrors.HOST_ERR_CONTENT_TYPE(type, acceptedTypes(types));
  }
  const charset = CHARSET.exec(type)?.[1];
  if (charset !== undefined && !/^utf-?8$/i.test(charset)) {
    throw hostErrors.HOST_ERR_CHARSET(charset);
  }
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
  const bytes = await readBytes(req, limit);
  if (nestedTooDeep(bytes)) {
    throw hostErrors.HOST_ERR_BODY_TOO_DEEP(MAX_BODY_DEPTH);
  }
  const text = bytes.toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw hostErrors.HOST_ERR_INVALID_JSON((error as Error).message);
  }
}

/** One pass over the bytes, skipping strings; stops at the first bracket past the limit */
function nestedTooDeep(bytes: Uint8Array): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === 0x5c)
        i++; // backslash: the next byte is escaped, even a quote
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > MAX_BODY_DEPTH) return true;
    } else if (byte === 0x5d || byte === 0x7d) depth--;
  }
  return false;
}

/**
 * Collects the body with plain listeners: an async iterator costs several promise turns per request. The listeners
 * stay anonymous because tsx names every named closure at creation, which shows on this hot path.
 */
function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > limit) return; // already refused: drain the rest
      size += chunk.length;
      if (size > limit) fail(tooLarge(limit));
      else chunks.push(chunk);
    });
    req.once('end', () => done(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    // The only error a request stream has is its connection going away before the body is complete
    req.once('error', (error) => fail(hostErrors.HOST_ERR_ABORTED({ cause: error })));
  });
}

function tooLarge(limit: number): CapstanError {
  return hostErrors.HOST_ERR_BODY_TOO_LARGE(limit);
}
