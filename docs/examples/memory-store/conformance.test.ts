// The store conformance suite run against this example, as a plugin author runs it against their own:
// `npx tsx conformance.test.ts` (or `node --import tsx conformance.test.ts`) beside the plugin, Capstan installed.
import { fileURLToPath } from 'node:url';
import { usePlugin } from 'capstan';
import type { ScheduleStore } from 'capstan';
import { storeConformance } from 'capstan/conformance';

// A test that does not apply is skipped with the reason, which the suite prints
/** The checks of counting across hosts (plugin API 1.6): a store that no two hosts share skips them */
const COUNTING = [
  'exchangeCounts hands each host the batches of the others, in order, once (plugin API 1.6)',
  'claimCounts lets exactly one of concurrent claims from the same counts win (plugin API 1.6)',
];
const NO_AUDIT =
  'the example keeps nothing across a restart, so it keeps no audit trail (the host still logs every entry)';
storeConformance(
  'memory-store (docs example)',
  async () => {
    const plugin = await usePlugin<ScheduleStore>({ id: 'memory', path: fileURLToPath(new URL('.', import.meta.url)) });
    return { store: plugin.service, close: plugin.close };
  },
  {
    skip: {
      ...Object.fromEntries(
        [
          'audit entries go with the writes that succeed, and only those',
          'audit queries filter by time, action, subject and principal',
          'audit queries page newest first with limit and before',
          'audit entries survive a restart',
        ].map((title) => [title, NO_AUDIT]),
      ),
      ...Object.fromEntries(
        COUNTING.map((title) => [title, 'one host per store: ip-schedule counts in its own process']),
      ),
    },
  },
);
