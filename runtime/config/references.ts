import type { Issue } from './explain.ts';
import { formatPath } from './path.ts';
import type { DocPath } from './path.ts';

type Bag = Record<string, unknown>;

const isBag = (value: unknown): value is Bag => value !== null && typeof value === 'object' && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const at = (value: unknown, key: string): unknown => (isBag(value) ? value[key] : undefined);

/**
 * Checks the rules a JSON Schema cannot express: unique ids, references to thread pools and
 * keys by id, the key an https server needs and listeners that bind twice. Reads the document
 * defensively, so it also runs on documents the schema rejects and reports everything in one pass.
 * The https key is an error only for `serve`: the MTA itself takes the certificate from its
 * running configuration, so for `config check` it is a warning.
 */
export function checkReferences(
  doc: unknown,
  options: { serve?: boolean } = {},
): { errors: Issue[]; warnings: Issue[] } {
  const issues: Issue[] = [];
  const warnings: Issue[] = [];
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
    if (at(server, 'type') === 'https')
      httpsKey(options.serve ? issues : warnings, at(server, 'id'), path, keyIds, options.serve);
  });
  sharedBinds(warnings, servers);
  scriptPool(issues, at(at(at(doc, 'queues'), 'threads'), 'script'), ['queues', 'threads', 'script'], scriptIds);
  const cert = at(at(at(at(doc, 'environment'), 'controlsocket'), 'tls'), 'cert');
  refer(issues, cert, ['environment', 'controlsocket', 'tls', 'cert'], keyIds, 'pki.private');
  return { errors: issues, warnings };
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
    else
      issues.push({
        path: [...path, index, key],
        message: `duplicate ${what} "${value}": already used by item ${earlier}`,
      });
  });
}

function refer(issues: Issue[], id: unknown, path: DocPath, known: Set<unknown>, where: string): void {
  if (typeof id === 'string' && !known.has(id)) {
    const noun =
      where === 'pki.private' ? 'key' : where === 'threads.events' ? 'event thread pool' : 'script thread pool';
    issues.push({ path, message: `no ${noun} "${id}" in "${where}": add it there or fix the id` });
  }
}

function scriptPool(issues: Issue[], pool: unknown, path: DocPath, known: Set<unknown>): void {
  refer(issues, at(pool, 'id'), [...path, 'id'], known, 'threads.scripts');
  const hooks = at(pool, 'hooks');
  if (isBag(hooks))
    for (const [hook, id] of Object.entries(hooks))
      refer(issues, id, [...path, 'hooks', hook], known, 'threads.scripts');
}

function httpsKey(issues: Issue[], id: unknown, path: DocPath, keyIds: Set<unknown>, serve?: boolean): void {
  if (typeof id !== 'string' || keyIds.has(id) || keyIds.size === 1) return;
  const have = keyIds.size === 0 ? 'there is none' : `there are ${keyIds.size} and none is named "${id}"`;
  const need = `a key in "pki.private" with id "${id}", or a single key: ${have}`;
  if (serve) issues.push({ path, message: `a server of type "https" needs ${need}` });
  else
    issues.push({
      path,
      message: `has no key in "pki.private": fine for the MTA, which takes the certificate from its running configuration, but "capstan serve" needs ${need}`,
    });
}

/** Two listeners on one address and port cannot both bind; an absent address is every address. */
function sharedBinds(issues: Issue[], servers: unknown[]): void {
  const first = new Map<string, DocPath>();
  servers.forEach((server, index) =>
    list(at(server, 'listeners')).forEach((listener, item) => {
      const port = at(listener, 'port');
      if (typeof port !== 'number') return;
      const address = at(listener, 'address');
      const key = `${typeof address === 'string' ? address.toLowerCase() : '*'} ${port}`;
      const path = ['servers', index, 'listeners', item];
      const earlier = first.get(key);
      if (earlier === undefined) first.set(key, path);
      else if (earlier[1] !== index) {
        const where = typeof address === 'string' ? `"${address}" port ${port}` : `every address on port ${port}`;
        issues.push({
          path,
          message: `binds ${where}, as "${formatPath(earlier)}" does: only one of the two servers can listen there`,
        });
      }
    }),
  );
}
