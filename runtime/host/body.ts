import type { IncomingMessage } from 'node:http';
import { CapstanError } from './errors.ts';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** Reads and parses a JSON request body of at most `limit` bytes; undefined when there is none */
export async function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const declared = req.headers['content-length'];
  const hasBody = (declared !== undefined && declared !== '0') || req.headers['transfer-encoding'] !== undefined;
  if (!hasBody) return undefined;
  const type = req.headers['content-type'] ?? '';
  if (!JSON_TYPE.test(type)) {
    throw new CapstanError('HOST_ERR_CONTENT_TYPE', `Unsupported content type "${type}": send "application/json"`);
  }
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
  const text = await readText(req, limit);
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CapstanError('HOST_ERR_INVALID_JSON', `Malformed JSON body: ${(error as Error).message}`);
  }
}

/**
 * Collects the body with plain listeners: an async iterator costs several promise turns per request. The listeners
 * stay anonymous because tsx names every named closure at creation, which shows on this hot path.
 */
function readText(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      if (size > limit) return; // already refused: drain the rest
      size += chunk.length;
      if (size > limit) fail(tooLarge(limit));
      else chunks.push(chunk);
    });
    req.once('end', () => done(chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.once('error', fail);
  });
}

function tooLarge(limit: number): CapstanError {
  return new CapstanError('HOST_ERR_BODY_TOO_LARGE', `Request body is larger than the limit of ${limit} bytes`);
}
