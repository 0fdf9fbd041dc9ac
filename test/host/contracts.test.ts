/**
 * The service contracts of spec/contracts/ are checked when one plugin's service is handed to another: a store or a
 * classifier that lacks a method, or whose `version` is not a string, stops start-up naming both plugins and the member
 */
import * as assert from 'uvu/assert';
import { test } from '../_deadline.ts';
import { createLogger } from '../../runtime/observability/logger.ts';
import { startHost, usePlugin } from '../../runtime/mod.ts';
import { rejects } from '../rejects.ts';
import { document, tempDir, writePlugin } from './_fixtures.ts';

const dir = tempDir();
const log = createLogger({ service: 'test', write: () => {} });

/** A plugin of `kind` whose service is `service` (TypeScript source of an object literal) */
function servicePlugin(id: string, kind: string, service: string): string {
  return writePlugin(dir, id, {
    'mod.ts': `
import { definePlugin, Type } from '@capstan';
export default definePlugin({
  id: '${id}', kind: '${kind}', apiVersion: '^1.2.0', config: Type.Object({}),
  setup: () => ({ service: ${service} }),
});
`,
  });
}

const STORE_WITHOUT_LIST = `{
  get: async () => undefined,
  put: async () => 1,
  delete: async () => false,
}`;

async function startupError(plugins: unknown[]): Promise<string> {
  try {
    const host = await startHost(document(plugins), { baseDir: dir, ephemeralPorts: true, log });
    await host.close();
  } catch (error) {
    return (error as Error).message;
  }
  return assert.unreachable('startup should fail') as never;
}

test('startHost refuses a store plugin that lacks a method of ScheduleStore, naming the plugin and the method', async () => {
  const path = servicePlugin('listless-store', 'store', STORE_WITHOUT_LIST);
  assert.match(
    await startupError([
      { id: 'ip-schedule', config: { store: 'listless-store' } },
      { id: 'listless-store', path },
    ]),
    'Cannot start plugin "ip-schedule": plugin "listless-store" does not implement "ScheduleStore": method "list" is missing',
  );
});

test('startHost refuses a store whose optional method is not a function', async () => {
  const path = servicePlugin(
    'odd-store',
    'store',
    STORE_WITHOUT_LIST.replace('{', '{ list: async () => [], watch: true,'),
  );
  assert.match(
    await startupError([
      { id: 'ip-schedule', config: { store: 'odd-store' } },
      { id: 'odd-store', path },
    ]),
    'plugin "odd-store" does not implement "ScheduleStore": method "watch" is not a function',
  );
});

test('usePlugin refuses a classifier whose version is not a string, naming the property', async () => {
  const path = servicePlugin('numbered', 'classifier', '{ version: 3, classify: async () => [] }');
  await rejects(
    usePlugin(
      { id: 'bounce-classifier', config: { classifier: 'numbered' } },
      { baseDir: dir, entries: [{ id: 'numbered', path }] },
    ),
    /^Cannot start plugin "bounce-classifier": plugin "numbered" does not implement "Classifier": property "version" must be string$/,
  );
});

test('usePlugin starts bounce-classifier with a classifier that has every member of Classifier', async () => {
  const path = servicePlugin('whole', 'classifier', "{ version: 'w1', classify: async () => [] }");
  const plugin = await usePlugin(
    { id: 'bounce-classifier', config: { classifier: 'whole' } },
    { baseDir: dir, entries: [{ id: 'whole', path }] },
  );
  await plugin.close();
});

test.run();
