/**
 * Host overhead: a trivial route mounted through the whole Capstan path (router, auth hook, validation, plugin
 * handler, JSON) against a raw `node:http` hello world, measured in the same run. Goal: ratio ≥ 0.5.
 * The servers run in a child process so the load generator does not share their event loop.
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { load, row } from './_http.ts';

if (process.argv[2] === 'serve') {
  const { startHost } = await import('../runtime/mod.ts');
  const { rawHello } = await import('./_http.ts');
  const { createLogger } = await import('../runtime/host/logger.ts');
  const { tempDir, writePlugin } = await import('../test/host/_fixtures.ts');
  const dir = tempDir('capstan-bench-');
  const plugin = writePlugin(dir, 'trivial', {
    'mod.ts': `import { definePlugin, Type } from '@capstan';
export default definePlugin({ id: 'trivial', kind: 'api', api: 'ip-schedule', apiVersion: '^1.0.0', config: Type.Object({}),
  setup: () => ({ handlers: { getStatusAll: () => ({ body: { hello: 'world' } }) } }) });
`,
  });
  const doc = { version: '6.10', servers: [{ id: 'api', type: 'http', listeners: [{ address: '127.0.0.1', port: 8080 }] }], plugins: [{ id: 'trivial', path: plugin }] };
  const host = await startHost(doc, { ephemeralPorts: true, log: createLogger({ service: 'bench', level: 'error' }) });
  const raw = await rawHello();
  process.send!({ capstan: host.urls[0], raw: raw.url });
} else {
  const child = fork(join(import.meta.dirname, 'host.bench.ts'), ['serve'], { execArgv: ['--import', 'tsx'] });
  const urls = await new Promise<{ capstan: string; raw: string }>((done) => child.once('message', done as never));
  try {
    await load(urls.raw, { seconds: 1 });
    await load(`${urls.capstan}/status`, { seconds: 1 });
    const raw = await load(urls.raw);
    const capstan = await load(`${urls.capstan}/status`);
    console.log('HTTP, 50 connections, one server process, load generator in another');
    row('raw node:http hello world', `${Math.round(raw.rps)} req/s`);
    row('capstan trivial mounted route (GET /status)', `${Math.round(capstan.rps)} req/s`, capstan.rps / raw.rps);
    row('capstan p99 latency', `${capstan.p99} ms`);
    if (capstan.non2xx + capstan.errors > 0) console.log(`warning: ${capstan.non2xx} non-2xx and ${capstan.errors} errors`);
  } finally {
    child.kill();
  }
}
