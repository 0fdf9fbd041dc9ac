import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthOptions, NamedApiKey } from '../core/types.ts';
import { CapstanError } from '../core/errors.ts';
import { hostErrors } from '../core/host-errors.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The header the host's own key (`API_KEY`) goes in, as the built-in plugins name it */
export const HOST_KEY_HEADER = 'x-api-key';

/** A 401 with the `WWW-Authenticate` challenge naming the header the key goes in */
export class KeyRefused extends CapstanError {
  readonly challenge: string;
  readonly reason: 'missing' | 'invalid';
  constructor(reason: 'missing' | 'invalid', headers: readonly string[]) {
    const refusal = (reason === 'missing' ? hostErrors.HOST_ERR_KEY_MISSING : hostErrors.HOST_ERR_KEY_INVALID)(
      headers.join('" or "'),
    );
    super(refusal.code, refusal.message, { status: refusal.status, expose: refusal.expose });
    this.reason = reason;
    // No registered scheme exists for a key in a header; this one names the header so a client knows where to put it
    this.challenge = headers.map((h) => `ApiKey realm="capstan", header="${h}"`).join(', ');
  }
}

/** What a key guard looks at: a Koa context fits, and so does an upgrade request */
export interface GuardedRequest {
  path: string;
  headers: Record<string, unknown>;
  /** A key from the address's query parameter (WebSocket upgrades only), tried when no header carries one */
  queryKey?: string | null;
}

/**
 * A key check that lets the exempt paths through: answers the principal of the key given (undefined on an exempt
 * path), throws `KeyRefused` when no accepted key was given
 */
export type KeyGuard = (request: GuardedRequest) => string | undefined;

interface KnownKey {
  digest: Buffer;
  principal: string;
}

/** Who a key stands for in logs and audit records: its name, else a fingerprint from which the key cannot be had */
function principalOf(key: string | NamedApiKey, hash: Buffer): string {
  return typeof key === 'string' ? `key:${hash.toString('hex', 0, 6)}` : key.name;
}

/** Whether `auth` configures any key */
export function hasKeys(auth: AuthOptions | undefined): auth is AuthOptions {
  return auth !== undefined && auth.keys.length > 0;
}

/**
 * Builds a guard accepting a key of any of `auths` (each in its own header) on every path not in `exempt`; undefined
 * when none has keys, so the routes it guards are open
 */
export function apiKeyGuard(exempt: ReadonlySet<string>, ...auths: (AuthOptions | undefined)[]): KeyGuard | undefined {
  // Comparing fixed-size digests keeps the time independent of where, and whether, the key differs
  const byHeader = new Map<string, { name: string; keys: KnownKey[] }>();
  for (const auth of auths) {
    if (!hasKeys(auth)) continue;
    const header = auth.header.toLowerCase();
    const entry = byHeader.get(header) ?? { name: auth.header, keys: [] };
    for (const key of auth.keys) {
      const hash = digest(typeof key === 'string' ? key : key.key);
      entry.keys.push({ digest: hash, principal: principalOf(key, hash) });
    }
    byHeader.set(header, entry);
  }
  if (byHeader.size === 0) return undefined;
  const names = [...byHeader.values()].map((e) => e.name);
  const everyKey = [...byHeader.values()].flatMap((e) => e.keys);
  return (request) => {
    if (exempt.has(request.path)) return undefined;
    let given = false;
    let principal: string | undefined;
    const check = (value: string, keys: readonly KnownKey[]) => {
      given = true;
      const candidate = digest(value);
      // Every key is compared, matched or not
      for (const key of keys) if (timingSafeEqual(key.digest, candidate)) principal ??= key.principal;
    };
    for (const [header, { keys }] of byHeader) {
      const value = request.headers[header];
      if (typeof value === 'string' && value !== '') check(value, keys);
    }
    if (!given && request.queryKey) check(request.queryKey, everyKey);
    if (principal === undefined) throw new KeyRefused(given ? 'invalid' : 'missing', names);
    return principal;
  };
}

/** Which keys each route of a host accepts (docs/operations.md, "API keys") */
export interface KeyPolicy {
  /** Guard of the routes and sockets of a plugin with `auth`: the host's keys and the plugin's own */
  forPlugin(auth: AuthOptions | undefined): KeyGuard | undefined;
  /**
   * Guard of the host's routes (`/metrics`, `/openapi.json`, unmatched paths) and of plugins without keys of their
   * own: any key configured anywhere. Undefined when no key is configured at all, and then every route is open
   */
  host: KeyGuard | undefined;
}

/**
 * Keys by default: once the host has a key (`API_KEY`) or any plugin has keys, every route needs one, except the
 * paths in `exempt`. A plugin's own keys stay its own: they open its routes and the host's, not another plugin's
 * that has keys of its own.
 */
export function keyPolicy(
  exempt: ReadonlySet<string>,
  hostKeys: readonly string[],
  pluginAuths: readonly (AuthOptions | undefined)[],
): KeyPolicy {
  const hostAuth: AuthOptions = { header: HOST_KEY_HEADER, keys: hostKeys };
  // The plugins' headers first: a refusal names the header as the plugin spells it
  const host = apiKeyGuard(exempt, ...pluginAuths, hostAuth);
  return { host, forPlugin: (auth) => (hasKeys(auth) ? apiKeyGuard(exempt, auth, hostAuth) : host) };
}

/** Why `auth`, as a plugin's setup returned it, cannot be used; undefined when it can */
export function authProblem(auth: unknown): string | undefined {
  if (auth === undefined) return undefined;
  const { header, keys, query } = (auth ?? {}) as Partial<AuthOptions>;
  if (typeof header !== 'string' || header === '') return '"header" is not a non-empty string';
  if (query !== undefined && (typeof query !== 'string' || query === '')) return '"query" is not a non-empty string';
  if (!Array.isArray(keys)) return '"keys" is not an array';
  const nonEmpty = (value: unknown) => typeof value === 'string' && value !== '';
  const bad = keys.findIndex((key) => !(nonEmpty(key) || (nonEmpty(key?.name) && nonEmpty(key?.key))));
  return bad === -1 ? undefined : `"keys[${bad}]" is neither a non-empty string nor a {name, key} pair of them`;
}
