import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthOptions } from '../plugins/types.ts';
import { CapstanError } from './errors.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Builds the API-key check of a plugin; undefined when it has no keys (the API is open) */
export function apiKeyCheck(auth: AuthOptions | undefined): ((headers: Record<string, unknown>) => void) | undefined {
  if (!auth || auth.keys.length === 0) return undefined;
  const header = auth.header.toLowerCase();
  // Comparing fixed-size digests keeps the time independent of where, and whether, the key differs
  const keys = auth.keys.map(digest);
  return (headers) => {
    const given = headers[header];
    if (typeof given !== 'string' || given === '') {
      throw new CapstanError('HOST_ERR_UNAUTHORIZED', `Missing API key: send it in the "${auth.header}" header`);
    }
    const candidate = digest(given);
    let ok = false;
    for (const key of keys) ok = timingSafeEqual(key, candidate) || ok;
    if (!ok) throw new CapstanError('HOST_ERR_UNAUTHORIZED', `Invalid API key in the "${auth.header}" header`);
  };
}
