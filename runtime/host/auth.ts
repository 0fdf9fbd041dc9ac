import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthOptions } from '../plugins/types.ts';
import { CapstanError } from './errors.ts';
import { hostErrors } from './host-errors.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Who a key is, for the audit trail: `key:` and the first 12 hex digits of its SHA-256 (never the key itself); undefined
 * without a key
 */
export function keyPrincipal(key: unknown): string | undefined {
  return typeof key === 'string' && key !== '' ? `key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}` : undefined;
}

/** A 401 with the `WWW-Authenticate` challenge naming the header the key goes in */
export class KeyRefused extends CapstanError {
  readonly challenge: string;
  readonly reason: 'missing' | 'invalid';
  constructor(reason: 'missing' | 'invalid', headers: readonly string[]) {
    const refusal = (reason === 'missing' ? hostErrors.HOST_ERR_KEY_MISSING : hostErrors.HOST_ERR_KEY_INVALID)(headers.join('" or "'));
    super(refusal.code, refusal.message, { status: refusal.status, expose: refusal.expose });
    this.reason = reason;
    // No registered scheme exists for a key in a header; this one names the header so a client knows where to put it
    this.challenge = headers.map((h) => `ApiKey realm="capstan", header="${h}"`).join(', ');
  }
}

/** What a key guard looks at: a Koa context fits, and so does an upgrade request with its key moved into `headers` */
export interface GuardedRequest {
  path: string;
  headers: Record<string, unknown>;
}

/** A key check that lets the exempt paths through; throws `KeyRefused` */
export type KeyGuard = (request: GuardedRequest) => void;

/**
 * Builds a guard accepting a key of any of `auths` (each in its own header) on every path not in `exempt`; undefined
 * when none has keys, so the routes it guards are open
 */
export function apiKeyGuard(exempt: ReadonlySet<string>, ...auths: (AuthOptions | undefined)[]): KeyGuard | undefined {
  // Comparing fixed-size digests keeps the time independent of where, and whether, the key differs
  const byHeader = new Map<string, { name: string; keys: Buffer[] }>();
  for (const auth of auths) {
    if (!auth || auth.keys.length === 0) continue;
    const header = auth.header.toLowerCase();
    const entry = byHeader.get(header) ?? { name: auth.header, keys: [] };
    entry.keys.push(...auth.keys.map(digest));
    byHeader.set(header, entry);
  }
  if (byHeader.size === 0) return undefined;
  const names = [...byHeader.values()].map((e) => e.name);
  return (request) => {
    if (exempt.has(request.path)) return;
    const headers = request.headers;
    let given = false;
    let ok = false;
    for (const [header, { keys }] of byHeader) {
      const value = headers[header];
      if (typeof value !== 'string' || value === '') continue;
      given = true;
      const candidate = digest(value);
      for (const key of keys) ok = timingSafeEqual(key, candidate) || ok;
    }
    if (!ok) throw new KeyRefused(given ? 'invalid' : 'missing', names);
  };
}
