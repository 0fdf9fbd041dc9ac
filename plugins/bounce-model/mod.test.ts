import { usePlugin } from '../../runtime/mod.ts';
import type { Classifier } from '../../runtime/mod.ts';
import { classifierConformance } from '../../test/conformance/classifier.ts';

classifierConformance('bounce-model', async () => {
  const plugin = await usePlugin<Classifier>({ id: 'bounce-model' });
  return { classifier: plugin.service, close: plugin.close };
});

classifierConformance('bounce-model with small pool tasks', async () => {
  // Every batch, even of one text, goes through the pool, in many tasks that must come back in order
  const plugin = await usePlugin<Classifier>({ id: 'bounce-model', config: { inlineMax: 0, taskSize: 16 } });
  return { classifier: plugin.service, close: plugin.close };
});
