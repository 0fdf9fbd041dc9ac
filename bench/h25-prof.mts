import { existsSync, writeFileSync } from 'node:fs';
import { usePlugin, type ReplyClassifier } from '../runtime/mod.ts';
import { policyTable } from '../plugins/ip-schedule/backoff/table.ts';
import { sources } from '../plugins/ip-schedule/replay/input.ts';
import { ReplyClassCache } from '../plugins/ip-schedule/replay/reply-classes.ts';
import { replay } from '../plugins/ip-schedule/replay/replay.ts';
import { Providers } from '../plugins/ip-schedule/backoff/providers.ts';
import { engineSimulator } from '../plugins/ip-schedule/replay/simulate.ts';
import { synthWeek } from '../scripts/replay/synth-week.ts';
const mode = process.argv[2] ?? 'cached';
const files = [1, 2].map((seed) => `/tmp/h25/pf-${mode}-${seed}.log`);
for (const [i, file] of files.entries()) if (!existsSync(file)) writeFileSync(file, [...synthWeek({ seed: i + 10, perHour: 600, format: 'postfix', noise: 3, uniqueReplies: mode !== 'cached', ...(mode === 'worst' ? { noise: 0, failureShare: 1, perHour: 200 } : {}) })].join('\n') + '\n');
const plugin = await usePlugin<ReplyClassifier>({ id: 'bounce-classifier' }, { baseDir: '/tmp/h25', env: { SERVICE_BNAC_CACHE_FOLDER: '/tmp/h25/cache-' + process.pid } });
const table = policyTable({ policies: {} });
const providers = new Providers();
let classes = new ReplyClassCache(plugin.service);
for (const file of [files[0], mode === 'cached' ? files[0] : files[1]]) {
  if (mode !== 'cached') classes = new ReplyClassCache(plugin.service);
  const t = performance.now();
  const r = await replay({ sources: await sources([file!], process.stdin), format: 'postfix', classes, simulator: engineSimulator(table, { providers, shares: [] }), providerOf: (mx, d) => providers.of(mx || undefined, d || undefined) });
  console.log(mode, r.lines, Math.round(r.lines / ((performance.now() - t) / 1000)), 'lines/s', classes.classified);
}
await plugin.close();
