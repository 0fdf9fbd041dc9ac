/**
 * Host overhead: a trivial route mounted through the whole Capstan path (router, validation, plugin handler, JSON)
 * against a raw `node:http` hello world, measured in the same run. Goal: ratio ≥ 0.5.
 */
import { createLogger } from '../runtime/observability/logger.ts';
import { startHost } from '../runtime/mod.ts';
import { tempDir, writePlugin } from '../test/host/_fixtures.ts';
import { load, rawHello, row, startServers } from './_http.ts';

const servers = await startServers(import.meta.filename, async () => {
  const plugin = writePlugin(tempDir('capstan-bench-'), 'trivial', {
    'mod.ts': `import { definePlugin, Type } from '@capstan';
export default definePlugin({ id: 'trivial', kind: 'api', api: 'ip-schedule', apiVersion: '^1.0.0', config: Type.Object({}),
  setup: () => ({ handlers: { getStatusAll: () => ({ body: { ips: {} } }) } }) });
`,
  });
  const doc = {
    version: '6.10',
    servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }],
    plugins: [{ id: 'trivial', path: plugin }],
  };
  const host = await startHost(doc, { ephemeralPorts: true, log: createLogger({ service: 'bench', level: 'error' }) });
  return { capstan: host.urls[0], raw: (await rawHello()).url };
});

if (servers) {
  const raw = await load(servers.urls.raw);
  const capstan = await load(`${servers.urls.capstan}/status`, { strict: true });
  servers.stop();
  console.log('HTTP GET, 50 connections; servers in one process, load generator in another');
  row('raw node:http hello world', `${Math.round(raw.rps)} req/s`, `p99 ${raw.p99} ms`);
  row(
    'capstan trivial mounted route (GET /status)',
    `${Math.round(capstan.rps)} req/s`,
    `p99 ${capstan.p99} ms   ratio ${(capstan.rps / raw.rps).toFixed(2)} (goal 0.5)`,
  );
}
