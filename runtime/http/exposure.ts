/**
 * The start-up warning for a server that anyone on the network may use: a listener on an address other than loopback
 * while some route answers without a key. Health checks and static pages are open on purpose and hold no data, so
 * they are not named.
 */
import type { Server } from 'node:http';
import type { Logger } from '../core/types.ts';
import type { KeyGuard } from './auth.ts';
import type { Mount } from './route-handler.ts';

/** Paths open by default that tell nothing but whether the process serves */
const HEALTH_CHECKS = new Set(['/healthz', '/readyz']);

/** The routes of a server anyone may call, by group: whole APIs, host paths, exempt paths */
export function openRoutes(
  mounts: readonly Mount[],
  hostGuard: KeyGuard | undefined,
  exempt: ReadonlySet<string>,
): string[] {
  const open = mounts
    .filter((m) => m.guard === undefined)
    .map((m) => `every route of API "${m.api}" (plugin "${m.pluginId}")`);
  if (hostGuard === undefined) return [...open, '/metrics', '/openapi.json'];
  return [
    ...open,
    ...[...exempt].filter((path) => !HEALTH_CHECKS.has(path)).map((path) => `${path} (CAPSTAN_AUTH_EXEMPT)`),
  ];
}

/** Whether a bound address is reachable only from this machine; a Unix socket (no address) counts as local */
export function isLoopback(server: Server): boolean {
  const bound = server.address();
  if (bound === null || typeof bound === 'string') return true;
  const address = bound.address.toLowerCase();
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** Logs, once per server, which routes anyone reaching its non-loopback listeners may call */
export function warnIfExposed(
  log: Logger,
  server: string,
  listeners: readonly { url: string; server: Server }[],
  open: readonly string[],
): void {
  const exposed = listeners.filter((l) => !isLoopback(l.server)).map((l) => l.url);
  if (exposed.length === 0 || open.length === 0) return;
  log.warn(
    `open to anyone on ${exposed.join(', ')}: ${open.join(', ')}; put them behind a key (API_KEY) unless a firewall limits who connects, see docs/operations.md#api-keys`,
    { server, open },
  );
}
