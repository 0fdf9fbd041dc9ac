/** `/healthz` and `/readyz` (spec/openapi/host.yaml): readiness asks every plugin, and the key guards them only when configured to */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost } from '../../runtime/mod.ts';
import { rejects } from '../rejects.ts';
import { document, HELLO_PLUGIN, tempDir, writePlugin } from './_fixtures.ts';

const dir = tempDir();
const KEY = 'health-key-1';
const hello = writePlugin(dir, 'hello', { 'mod.ts': HELLO_PLUGIN });
// A store-like plugin whose readiness is switched from outside, through a file, as a database going away would be
const flaky = writePlugin(dir, 'flaky', {
  'mod.ts': `
import { existsSync } from 'node:fs';
import { definePlugin, Type } from '@capstan';
export default definePlugin({
  id: 'flaky', kind: 'store', apiVersion: '^1.2.0',
  config: Type.Object({ down: Type.String(), hang: Type.Boolean({ default: false }) }),
  setup(ctx) {
    return {
      service: {},
      ready: async () => {
        if (ctx.config.hang) await new Promise(() => {});
        if (existsSync(ctx.config.down)) throw new Error('Database does not answer: connection refused');
      },
    };
  },
});
`,
});
const quiet = createLogger({ service: 'test', write: () => {} });

async function withHost(plugins: unknown[], env: Record<string, string>, run: (base: string) => Promise<void>) {
  const host = await startHost(document(plugins), { baseDir: dir, ephemeralPorts: true, log: quiet, env });
  try {
    await run(host.urls[0]!);
  } finally {
    await host.close();
  }
}

test('readyz answers 200 while every plugin is ready and 503 naming the failing plugin otherwise', async () => {
  const down = `${dir}/down`;
  await withHost(
    [
      { id: 'hello', path: hello },
      { id: 'db', path: flaky, config: { down } },
    ],
    {},
    async (base) => {
      const ok = await fetch(`${base}/readyz`);
      assert.is(ok.status, 200);
      assert.equal(await ok.json(), { status: 'ready' });
      const { writeFileSync, rmSync } = await import('node:fs');
      writeFileSync(down, '');
      const failing = await fetch(`${base}/readyz`);
      assert.is(failing.status, 503);
      assert.equal(await failing.json(), {
        error: 'Not ready: "db" failed its readiness check',
        failing: [{ part: 'db', error: 'Database does not answer: connection refused' }],
      });
      const health = await fetch(`${base}/healthz`);
      assert.is(health.status, 200, 'the process still serves');
      assert.equal(await health.json(), { status: 'ok' });
      rmSync(down);
      assert.is((await fetch(`${base}/readyz`)).status, 200, 'ready again once the store answers');
    },
  );
});

test('readyz counts a check that hangs as failed after 2 s, without hanging the probe', async () => {
  await withHost([{ id: 'db', path: flaky, config: { down: `${dir}/never`, hang: true } }], {}, async (base) => {
    const started = Date.now();
    const answer = await fetch(`${base}/readyz`);
    assert.is(answer.status, 503);
    assert.match((await answer.json()).failing[0].error, /took longer than 2000 ms/);
    assert.ok(Date.now() - started < 4_000);
  });
});

test('the built-in plugins are ready once started: store, model pool, classifier API', async () => {
  await withHost(
    [{ id: 'ip-schedule' }, { id: 'bounce-classifier', config: { cache: { enabled: false } } }],
    {},
    async (base) => {
      const answer = await fetch(`${base}/readyz`);
      assert.equal([answer.status, await answer.json()], [200, { status: 'ready' }]);
    },
  );
});

test('with API keys, healthz and readyz stay open by default while metrics needs a key', async () => {
  await withHost([{ id: 'hello', path: hello, config: { keys: [KEY] } }], {}, async (base) => {
    assert.is((await fetch(`${base}/healthz`)).status, 200);
    assert.is((await fetch(`${base}/readyz`)).status, 200);
    const refused = await fetch(`${base}/metrics`);
    assert.is(refused.status, 401);
    assert.match((await refused.json()).error, /^Missing API key/);
    assert.is((await fetch(`${base}/metrics`, { headers: { 'x-api-key': KEY } })).status, 200);
  });
});

test('CAPSTAN_AUTH_EXEMPT replaces the default: empty puts health behind the key, a list can open metrics', async () => {
  await withHost([{ id: 'hello', path: hello, config: { keys: [KEY] } }], { CAPSTAN_AUTH_EXEMPT: '' }, async (base) => {
    assert.is((await fetch(`${base}/healthz`)).status, 401);
    assert.is((await fetch(`${base}/readyz`)).status, 401);
    assert.is((await fetch(`${base}/healthz`, { headers: { 'x-api-key': KEY } })).status, 200);
  });
  await withHost(
    [{ id: 'hello', path: hello, config: { keys: [KEY] } }],
    { CAPSTAN_AUTH_EXEMPT: '/metrics' },
    async (base) => {
      assert.is((await fetch(`${base}/metrics`)).status, 200);
      assert.is((await fetch(`${base}/healthz`)).status, 401);
    },
  );
});

test('a plugin cannot serve the host API', async () => {
  const thief = writePlugin(dir, 'thief', {
    'mod.ts': HELLO_PLUGIN.replace("api: 'ip-schedule'", "api: 'host'").replace(
      /handlers: \{[\s\S]*?\n      \},\n/,
      "handlers: { getHealth: () => ({ body: { status: 'ok' } }) },\n",
    ),
  });
  await rejects(
    startHost(document([{ id: 'thief', path: thief }]), { baseDir: dir, ephemeralPorts: true, log: quiet, env: {} }),
    /Plugin "thief" serves API "host", which only the host serves/,
  );
});

test.run();
