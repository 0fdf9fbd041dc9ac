import type { Issue } from './explain.ts';
import type { DocPath } from './path.ts';

type Bag = Record<string, unknown>;

const isBag = (value: unknown): value is Bag => value !== null && typeof value === 'object' && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const at = (value: unknown, key: string): unknown => (isBag(value) ? value[key] : undefined);

/**
 * Checks the rules a JSON Schema cannot express: unique ids, references to thread pools and
 * keys by id, and the key an https server needs. Reads the document defensively, so it also
 * runs on documents the schema rejects and reports everything in one pass.
 */
export function checkReferences(doc: unknown): Issue[] {
  const issues: Issue[] = [];
  const servers = list(at(doc, 'servers'));
  const keys = list(at(at(doc, 'pki'), 'private'));
  const scripts = list(at(at(doc, 'threads'), 'scripts'));
  const events = list(at(at(doc, 'threads'), 'events'));
  unique(issues, servers, ['servers'], 'id', 'server id');
  unique(issues, list(at(doc, 'plugins')), ['plugins'], 'id', 'plugin id');
  unique(issues, keys, ['pki', 'private'], 'id', 'key id');
  unique(issues, scripts, ['threads', 'scripts'], 'id', 'script pool id');
  unique(issues, events, ['threads', 'events'], 'id', 'event pool id');
  unique(issues, list(at(at(doc, 'spool'), 'paths')), ['spool', 'paths'], 'path', 'spool path');
  const scriptIds = ids(scripts);
  const eventIds = ids(events);
  const keyIds = ids(keys);
  servers.forEach((server, index) => {
    const path = ['servers', index];
    unique(issues, list(at(server, 'listeners')), [...path, 'listeners'], 'id', 'listener id');
    const threads = at(server, 'threads');
    refer(issues, at(at(threads, 'event'), 'id'), [...path, 'threads', 'event', 'id'], eventIds, 'threads.events');
    scriptPool(issues, at(threads, 'script'), [...path, 'threads', 'script'], scriptIds);
    if (at(server, 'type') === 'https') httpsKey(issues, at(server, 'id'), path, keyIds);
  });
  scriptPool(issues, at(at(at(doc, 'queues'), 'threads'), 'script'), ['queues', 'threads', 'script'], scriptIds);
  const cert = at(at(at(at(doc, 'environment'), 'controlsocket'), 'tls'), 'cert');
  refer(issues, cert, ['environment', 'controlsocket', 'tls', 'cert'], keyIds, 'pki.private');
  return issues;
}

function ids(items: unknown[]): Set<unknown> {
  return new Set(items.map((item) => at(item, 'id')));
}

function unique(issues: Issue[], items: unknown[], path: DocPath, key: string, what: string): void {
  const first = new Map<unknown, number>();
  items.forEach((item, index) => {
    const value = at(item, key);
    if (typeof value !== 'string') return;
    const earlier = first.get(value);
    if (earlier === undefined) first.set(value, index);
    else issues.push({ path: [...path, index, key], message: `duplicate ${what} "${value}": already used by item ${earlier}` });
  });
}

function refer(issues: Issue[], id: unknown, path: DocPath, known: Set<unknown>, where: string): void {
  if (typeof id === 'string' && !known.has(id)) {
    const noun = where === 'pki.private' ? 'key' : where === 'threads.events' ? 'event thread pool' : 'script thread pool';
    issues.push({ path, message: `no ${noun} "${id}" in "${where}": add it there or fix the id` });
  }
}

function scriptPool(issues: Issue[], pool: unknown, path: DocPath, known: Set<unknown>): void {
  refer(issues, at(pool, 'id'), [...path, 'id'], known, 'threads.scripts');
  const hooks = at(pool, 'hooks');
  if (isBag(hooks)) for (const [hook, id] of Object.entries(hooks)) refer(issues, id, [...path, 'hooks', hook], known, 'threads.scripts');
}

function httpsKey(issues: Issue[], id: unknown, path: DocPath, keyIds: Set<unknown>): void {
  if (typeof id !== 'string' || keyIds.has(id) || keyIds.size === 1) return;
  const have = keyIds.size === 0 ? 'there is none' : `there are ${keyIds.size} and none is named "${id}"`;
  issues.push({ path, message: `a server of type "https" needs a key in "pki.private" with id "${id}", or a single key: ${have}` });
}
