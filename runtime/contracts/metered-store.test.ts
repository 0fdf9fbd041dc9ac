import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rejects } from '../../test/rejects.ts';
import { storeContract } from '../../generated/contracts/store.ts';
import { meteredStore, type MetricLabels, type PluginMetrics, type ScheduleStore } from '../mod.ts';

/** A plugin's metrics that keep each counted label set as `operation outcome` */
function recorder(): { metrics: PluginMetrics; counted: string[] } {
  const counted: string[] = [];
  const metrics = {
    counter: () => ({ inc: (labels?: MetricLabels) => counted.push(`${labels?.operation} ${labels?.outcome}`) }),
  } as unknown as PluginMetrics;
  return { metrics, counted };
}

test('meteredStore counts every operation of the store contract but watch, and passes watch through', async () => {
  const stub: Record<string, () => Promise<unknown>> = {};
  for (const name of Object.keys(storeContract.methods)) stub[name] = async () => name;
  const { metrics, counted } = recorder();
  const store = meteredStore(stub as unknown as ScheduleStore, metrics) as unknown as typeof stub;
  for (const name of Object.keys(storeContract.methods)) assert.is(await store[name]!(), name);
  const operations = Object.keys(storeContract.methods).filter((name) => name !== 'watch');
  assert.equal(
    counted,
    operations.map((name) => `${name} ok`),
  );
});

test('meteredStore counts a lost compare-and-set as a conflict, a throw as an error, and leaves out what is absent', async () => {
  const { metrics, counted } = recorder();
  const store = meteredStore(
    {
      get: async () => undefined,
      list: async () => {
        throw new Error('disk gone');
      },
      put: async () => undefined,
      delete: async () => false,
      deletePolicy: async () => false,
    } as unknown as ScheduleStore,
    metrics,
  );
  assert.is(await store.get('192.0.2.1'), undefined);
  await rejects(() => store.list(), /^disk gone$/);
  await store.put('192.0.2.1', {} as never, { expected: null });
  await store.delete('192.0.2.1', { expected: 1 });
  await store.deletePolicy!('p', { expires: 1 });
  assert.equal(counted, ['get ok', 'list error', 'put conflict', 'delete conflict', 'deletePolicy conflict']);
  assert.is(store.watch, undefined);
  assert.is(store.queryAudit, undefined);
});

test.run();
