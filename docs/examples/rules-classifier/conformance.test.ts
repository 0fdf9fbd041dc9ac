// The classifier conformance suite run against this example, as a plugin author runs it against their own:
// `npx tsx conformance.test.ts` (or `node --import tsx conformance.test.ts`) beside the plugin, Capstan installed.
import { fileURLToPath } from 'node:url';
import { usePlugin } from 'capstan';
import type { Classifier } from 'capstan';
import { classifierConformance } from 'capstan/conformance';

classifierConformance('rules-classifier (docs example)', async () => {
  const plugin = await usePlugin<Classifier>({ id: 'rules', path: fileURLToPath(new URL('.', import.meta.url)) });
  return { classifier: plugin.service, close: plugin.close };
});
