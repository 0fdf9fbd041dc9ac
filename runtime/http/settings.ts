import { hostErrors } from '../core/host-errors.ts';
import { LOG_LEVELS, type LogLevel } from '../observability/logger.ts';

/**
 * Settings of the host itself. They come from the environment because the startup document is the MTA's format:
 * it has no place for them and rejects unknown properties.
 */
export interface HostSettings {
  /**
   * The host's own key (`API_KEY`), accepted on every route; once set, or once any plugin has keys, every route but
   * the exempt paths needs a key
   */
  apiKeys: readonly string[];
  /** Request paths answered without an API key even when keys are configured (default: the health checks) */
  authExempt: ReadonlySet<string>;
  /** A client must send the whole header within this time */
  headersTimeoutMs: number;
  /** A client must send the whole request, body included, within this time */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this time */
  keepAliveTimeoutMs: number;
  /** Connections beyond this many are closed as soon as they are accepted */
  maxConnections: number;
  tls: { minVersion: 'TLSv1.2' | 'TLSv1.3'; ciphers: string };
  /** The least level logged (`CAPSTAN_LOG_LEVEL`) */
  logLevel: LogLevel;
}

/**
 * Forward-secret AEAD suites only: the TLS 1.3 suites (all of them are) and ECDHE with GCM or ChaCha20-Poly1305 for
 * TLS 1.2. Listed explicitly because OpenSSL's defaults also accept static-RSA key exchange and CBC with SHA-1.
 */
export const DEFAULT_TLS_CIPHERS = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

/** Paths open without a key unless `CAPSTAN_AUTH_EXEMPT` says otherwise */
const DEFAULT_AUTH_EXEMPT = '/healthz,/readyz';

const TLS_VERSIONS = ['TLSv1.2', 'TLSv1.3'] as const;

function integer(env: Record<string, string | undefined>, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) {
    throw hostErrors.HOST_ERR_SETTING_NUMBER(name, raw, min);
  }
  return value;
}

/**
 * `CAPSTAN_LOG_LEVEL`, or `fallback` when unset: `serve` logs at info, a one-off command (`usePlugin`) at warn. A
 * misspelt level (`WARN`, `warning`) would otherwise log at the fallback without a word
 */
export function logLevelSetting(env: Record<string, string | undefined>, fallback: LogLevel): LogLevel {
  const level = env.CAPSTAN_LOG_LEVEL || fallback;
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw hostErrors.HOST_ERR_SETTING_LOG_LEVEL(level, LOG_LEVELS.join('", "'));
  }
  return level as LogLevel;
}

/** Reads the host settings; an invalid value stops start-up with a message naming the variable */
export function hostSettings(env: Record<string, string | undefined>): HostSettings {
  // Load balancers and orchestrators probe without a key; a set variable, even empty, replaces the list
  const exempt = (env.CAPSTAN_AUTH_EXEMPT ?? DEFAULT_AUTH_EXEMPT)
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const relative = exempt.find((p) => !p.startsWith('/'));
  if (relative !== undefined) {
    throw hostErrors.HOST_ERR_SETTING_EXEMPT(relative);
  }
  const headersTimeoutMs = integer(env, 'CAPSTAN_HEADERS_TIMEOUT_MS', 10_000, 1);
  const requestTimeoutMs = integer(env, 'CAPSTAN_REQUEST_TIMEOUT_MS', 60_000, 1);
  // Node refuses a header deadline past the request deadline; say so in our words rather than its
  if (headersTimeoutMs > requestTimeoutMs) {
    throw hostErrors.HOST_ERR_SETTING_TIMEOUTS(headersTimeoutMs, requestTimeoutMs);
  }
  const minVersion = env.CAPSTAN_TLS_MIN_VERSION || 'TLSv1.2';
  if (!(TLS_VERSIONS as readonly string[]).includes(minVersion)) {
    throw hostErrors.HOST_ERR_SETTING_TLS_VERSION(minVersion, TLS_VERSIONS.join('" or "'));
  }
  const logLevel = logLevelSetting(env, 'info');
  // The variable the bounce classifier's clients and README always used; compared exactly, spaces included
  const apiKey = env.API_KEY ?? '';
  return {
    apiKeys: apiKey.trim() === '' ? [] : [apiKey],
    authExempt: new Set(exempt),
    headersTimeoutMs,
    requestTimeoutMs,
    // Above the 60 s idle timeout of common load balancers, so they never reuse a connection the host just closed
    keepAliveTimeoutMs: integer(env, 'CAPSTAN_KEEPALIVE_TIMEOUT_MS', 65_000, 1),
    maxConnections: integer(env, 'CAPSTAN_MAX_CONNECTIONS', 4096, 1),
    tls: {
      minVersion: minVersion as HostSettings['tls']['minVersion'],
      ciphers: env.CAPSTAN_TLS_CIPHERS || DEFAULT_TLS_CIPHERS,
    },
    logLevel,
  };
}
