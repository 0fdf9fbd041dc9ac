import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rejects } from '../rejects.ts';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost, usePlugin } from '../../runtime/mod.ts';
import { document, tempDir, writePlugin } from './_fixtures.ts';

const dir = tempDir();
const WORKER = `import { threadId } from 'node:worker_threads';
export default async function (payload: { n: number }, init: { config: { factor: number } }): Promise<{ value: number; thread: number }> {
  return { value: payload.n * init.config.factor, thread: threadId };
}
`;
/** A plugin running its worker in the pool its `capabilities.pool` names, as `names` (the properties after `worker`) */
const poolPlugin = (name: string, names: string) =>
  writePlugin(dir, name, {
    'worker.ts': WORKER,
    'mod.ts': `import { definePlugin, Type } from '@capstan';
export default definePlugin({
  id: '${name}',
  kind: 'api',
  api: 'ip-schedule',
  apiVersion: '^1.0.0',
  config: Type.Object({ factor: Type.Integer({ default: 2 }) }),
  capabilities: { pool: { worker: new URL('./worker.ts', import.meta.url).href, ${names} } },
  setup(ctx) {
    return { handlers: { getStatus: async ({ params }) => ({ body: await ctx.pool!.run({ n: Number(params.ip) }) }) }, service: ctx.pool };
  },
});
`,
  });
const plugin = poolPlugin('threaded', "scriptPool: 'calc'");
let logged: string[] = [];
const log = createLogger({
  service: 'test',
  write: (l) => {
    logged.push(l);
    if (process.env.DEBUG) process.stderr.write(l);
  },
});

async function statusOf(path: string): Promise<{ value: number; thread: number }> {
  logged = [];
  const doc = document([{ id: 'threaded', path, config: { factor: 3 } }], {
    threads: {
      scripts: [
        { id: 'calc', count: 2 },
        { id: 'other', count: 1 },
      ],
    },
  });
  const host = await startHost(doc, { baseDir: dir, ephemeralPorts: true, log });
  try {
    const res = await fetch(`${host.urls[0]}/status/14`);
    assert.is(res.status, 200);
    return await res.json();
  } finally {
    await host.close();
  }
}

test('pool runs a plugin worker written in TypeScript in a named thread pool', async () => {
  const body = await statusOf(plugin);
  assert.is(body.value, 42);
  assert.ok(body.thread > 0, 'ran off the main thread');
  assert.not.match(logged.join(''), /deprecated/);
});

test('pool takes the 1.0 name "threads" for the script pool, with a deprecation warning', async () => {
  const body = await statusOf(poolPlugin('legacy', "threads: 'calc'"));
  assert.is(body.value, 42);
  const warning = logged.map((l) => JSON.parse(l)).find((l) => l.level === 'warn' && /deprecated/.test(l.msg));
  assert.ok(warning, 'a deprecation warning is logged');
  assert.is(warning.msg, '"capabilities.pool.threads" is deprecated since plugin API 1.2: rename it to "scriptPool"');
  assert.is(warning.plugin, 'threaded');
});

test('pool refuses a plugin naming two different pools under the old and the new name', async () => {
  const both = poolPlugin('both', "scriptPool: 'calc', threads: 'other'");
  await rejects(
    () => statusOf(both),
    /Cannot load plugin "threaded": "capabilities.pool" names pool "calc" as "scriptPool" and "other" as "threads"/,
  );
});

test('pool names an unknown thread pool in the startup error', async () => {
  await rejects(
    () => usePlugin({ id: 'threaded', path: plugin }, { baseDir: dir }),
    /Unknown thread pool "calc": add it to "threads.scripts"/,
    'loading the plugin',
  );
});

test.run();
