/**
 * `capstan_classifications_total` counts replies, not distinct classes: a batch whose replies share a class adds
 * the number of those replies to that class's sample. Through the plugin API, with the built-in model.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { usePlugin } from '../../runtime/mod.ts';
import { test } from '../../test/_deadline.ts';

/** The samples of `capstan_classifications_total` for model `bnac`, by class */
function bnacCounts(metrics: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const [, labels, value] of metrics.matchAll(/^capstan_classifications_total\{([^}]*)\} (\S+)$/gm)) {
    if (!labels!.includes('model="bnac"')) continue;
    counts.set(/class="([^"]+)"/.exec(labels!)![1]!, Number(value));
  }
  return counts;
}

test('a batch with a repeated class counts classifications_total by its size', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'capstan-metrics-'));
  const plugin = await usePlugin({ id: 'bounce-classifier', config: { cache: { enabled: false } } }, { baseDir: dir });
  try {
    const grey = '451 4.7.1 Greylisting in effect, please come back later';
    const messages = [
      grey,
      `${grey} (again)`,
      grey,
      '550 5.1.1 The email account that you tried to reach does not exist',
    ];
    const request = { params: {}, query: {}, headers: {}, body: { messages }, signal: new AbortController().signal };
    const answer = await plugin.handlers.classifyBnacV2!(request);
    const classes = (answer.body as { class: string }[]).map((result) => result.class);
    const expected = new Map<string, number>();
    for (const name of classes) expected.set(name, (expected.get(name) ?? 0) + 1);
    assert.ok(
      [...expected.values()].some((count) => count > 1),
      `a class repeats in the batch: ${classes.join(', ')}`,
    );
    assert.equal(Object.fromEntries(bnacCounts(await plugin.metrics())), Object.fromEntries(expected));
  } finally {
    await plugin.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test.run();
