import { usePlugin } from '../../../runtime/mod.ts';
import type { Classifier } from '../../../runtime/mod.ts';
import { classifierConformance } from '../../../test/conformance/classifier.ts';

classifierConformance('rules-classifier (docs example)', async () => {
  const plugin = await usePlugin<Classifier>({ id: 'rules', path: new URL('.', import.meta.url).pathname });
  return { classifier: plugin.service, close: plugin.close };
});
