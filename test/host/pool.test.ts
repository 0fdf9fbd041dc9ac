import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rejects } from '../rejects.ts';
import { createLogger } from '../../runtime/host/logger.ts';
import { startHost, usePlugin } from '../../runtime/mod.ts';
import { document, tempDir, writePlugin } from './_fixtures.ts';

const dir = tempDir();
const plugin = writePlugin(dir, 'threaded', {
  'worker.ts': `import { threadId } from 'node:worker_threads';
export default async function (payload: { n: number }, init: { config: { factor: number } }): Promise<{ value: number; thread: number }> {
  return { value: payload.n * init.config.factor, thread: threadId };
}
`,
  'mod.ts': `import { definePlugin, Type } from '@capstan';
export default definePlugin({
  id: 'threaded',
  kind: 'api',
  api: 'ip-schedule',
  apiVersion: '^1.0.0',
  config: Type.Object({ factor: Type.Integer({ default: 2 }) }),
  capabilities: { pool: { worker: new URL('./worker.ts', import.meta.url).href, threads: 'calc' } },
  setup(ctx) {
    return { handlers: { getStatus: async ({ params }) => ({ body: await ctx.pool!.run({ n: Number(params.ip) }) }) }, service: ctx.pool };
  },
});
`,
});
const log = createLogger({ service: 'test', write: (l) => process.env.DEBUG && process.stderr.write(l) });

test('pool runs a plugin worker written in TypeScript in a named thread pool', async () => {
  const doc = document([{ id: 'threaded', path: plugin, config: { factor: 3 } }], { threads: { scripts: [{ id: 'calc', count: 2 }] } });
  const host = await startHost(doc, { baseDir: dir, ephemeralPorts: true, log });
  try {
    const res = await fetch(`${host.urls[0]}/status/14`);
    const body = await res.json();
    if (res.status !== 200) console.log(body);
    assert.is(body.value, 42);
    assert.ok(body.thread > 0, 'ran off the main thread');
  } finally {
    await host.close();
  }
});

test('pool names an unknown thread pool in the startup error', async () => {
  await rejects(() => usePlugin({ id: 'threaded', path: plugin }, { baseDir: dir }), /Unknown thread pool "calc"/, 'loading the plugin');
});

test.run();
