import { availableParallelism } from 'node:os';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { usePlugin } from '../../runtime/mod.ts';
import type { Classifier } from '../../runtime/mod.ts';
import { classifierConformance } from 'capstan/conformance';

classifierConformance('bounce-model', async () => {
  const plugin = await usePlugin<Classifier>({ id: 'bounce-model' });
  return { classifier: plugin.service, close: plugin.close };
});

classifierConformance('bounce-model with small pool tasks', async () => {
  // Every batch, even of one text, goes through the pool, in many tasks that must come back in order
  const plugin = await usePlugin<Classifier>({ id: 'bounce-model', config: { inlineMax: 0, taskSize: 16 } });
  return { classifier: plugin.service, close: plugin.close };
});

test('once the pool has run a task, readiness answers while classify batches still wait for the pool', async () => {
  const plugin = await usePlugin<Classifier>({ id: 'bounce-model', config: { inlineMax: 0, taskSize: 16 } });
  try {
    await plugin.ready!();
    const texts = Array.from({ length: 64 }, (_, i) =>
      plugin.service.normalise!(`550 5.1.1 <user${i}@example.com>: Recipient address rejected: User unknown`),
    );
    // More batches than the shared pool has threads (at most one per core): a probe task queued behind them would start
    // only once every batch had, so some batch would be done, and outlive the abort, by the time the probe answers.
    // Counting finished batches could not tell: the pool settles tasks that end together in one go, probe included.
    const controller = new AbortController();
    const batches = Array.from({ length: 2 * availableParallelism() }, () =>
      plugin.service.classify('bnac', texts, { signal: controller.signal }),
    );
    await plugin.ready!();
    controller.abort();
    const outcomes = await Promise.allSettled(batches);
    assert.equal(
      outcomes.map((o) => o.status),
      batches.map(() => 'rejected'),
      'batches finished before the probe answered',
    );
  } finally {
    await plugin.close();
  }
});

test.run();
