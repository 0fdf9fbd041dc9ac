import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rejects } from '../rejects.ts';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost, usePlugin } from '../../runtime/mod.ts';
import { document, tempDir, writePlugin } from './_fixtures.ts';

const dir = tempDir();
const WORKER = `import { threadId } from 'node:worker_threads';
export default async function (payload: { n: number; answered?: SharedArrayBuffer }, init: { config: { factor: number } }): Promise<{ value: number; thread: number }> {
  if (payload.answered) {
    // Answers only once the main thread says it reads the first answer: [1] go, [0] answered
    const flags = new Int32Array(payload.answered);
    Atomics.wait(flags, 1, 0, 5000);
    Atomics.store(flags, 0, 1);
  }
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
    return {
      handlers: {
        getStatus: async ({ params }) => {
          const n = Number(params.ip);
          if (n !== 13) return { body: await ctx.pool!.run({ n }) };
          // 13: on one thread, a task queued behind another is given up once the thread has answered it, while the
          // first answer is being read (Piscina reads a thread's answers in one go)
          const controller = new AbortController();
          const answered = new SharedArrayBuffer(8);
          const first = ctx.pool!.run({ n: 1 });
          const task = ctx.pool!.run({ n, answered }, { signal: controller.signal });
          await first.then(() => {
            // Blocking, so the thread's answer is queued behind the first one before anything reads it
            const flags = new Int32Array(answered);
            Atomics.store(flags, 1, 1);
            Atomics.notify(flags, 1);
            const deadline = Date.now() + 5000;
            while (Atomics.load(flags, 0) === 0 && Date.now() < deadline);
            const posted = Date.now() + 50;
            while (Date.now() < posted);
            controller.abort();
          });
          return { body: { value: await task.then(() => 'answered', (e) => (e as Error).name), thread: 0 } };
        },
      },
      service: ctx.pool,
    };
  },
});
`,
  });
const plugin = poolPlugin('threaded', "scriptPool: 'calc'");
const singleThread = poolPlugin('single', "scriptPool: 'other'");
let logged: string[] = [];
const log = createLogger({
  service: 'test',
  write: (l) => {
    logged.push(l);
    if (process.env.DEBUG) process.stderr.write(l);
  },
});

const poolDocument = (path: string) =>
  document([{ id: 'threaded', path, config: { factor: 3 } }], {
    threads: {
      scripts: [
        { id: 'calc', count: 2 },
        { id: 'other', count: 1 },
      ],
    },
  });

async function statusOf(path: string): Promise<{ value: number; thread: number }> {
  logged = [];
  const host = await startHost(poolDocument(path), { baseDir: dir, ephemeralPorts: true, log });
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

test('pool logs an answer that comes back for an aborted task, and keeps serving, instead of crashing the host', async () => {
  logged = [];
  const host = await startHost(poolDocument(singleThread), { baseDir: dir, ephemeralPorts: true, log });
  try {
    const res = await fetch(`${host.urls[0]}/status/13`);
    assert.is(res.status, 200);
    assert.is((await res.json()).value, 'AbortError');
    // Piscina reports the answer that arrives for no task as an error event: unheard, it would end this process
    const deadline = Date.now() + 5_000;
    const warning = () =>
      logged.map((l) => JSON.parse(l)).find((l) => l.level === 'warn' && l.msg === 'Worker pool error');
    while (!warning() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.ok(warning(), `a warning is logged: ${logged.join('')}`);
    assert.is(warning().pool, 'other');
    assert.match(warning().error, /^Unexpected message from Worker/);
    const after = await fetch(`${host.urls[0]}/status/14`);
    assert.is(after.status, 200);
    assert.is((await after.json()).value, 42);
  } finally {
    await host.close();
  }
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
