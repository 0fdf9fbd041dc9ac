/**
 * `capstan replay` throughput per log format, in lines/s on one core, against a same-run baseline: reading the same
 * file in the same line chunks and doing nothing with them. Per format, three figures: cached (a second replay of the
 * file, every reply's classes known), uncached (a file whose failure replies are all distinct, never seen before:
 * each goes through the classifier's normaliser and model), and the baseline. Then RSS over a large Postfix log
 * (BENCH_RSS_MB, 1024 by default; measured first, in a fresh process), sampled every 100 ms while it streams, and the
 * worst case for the classifier: a Postfix log whose every line is a failure with a reply never seen. Logs come from
 * the seeded generator
 * (scripts/replay/synth-week.ts); the Postfix ones carry 3 lines of other processes per delivery line, as a maillog
 * does. Goals: Postfix ≥ 200,000 lines/s cached, ≥ 50,000 uncached.
 *
 * Run: `npm run bench replay` (BENCH_LINES: lines of each format's log, 1,000,000 by default)
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { usePlugin, type ReplyClassifier } from '../runtime/mod.ts';
import { policyTable } from '../plugins/ip-schedule/backoff/table.ts';
import type { FormatName } from '../plugins/ip-schedule/replay/attempt.ts';
import { sources } from '../plugins/ip-schedule/replay/input.ts';
import { ReplyClassCache } from '../plugins/ip-schedule/replay/reply-classes.ts';
import { replay } from '../plugins/ip-schedule/replay/replay.ts';
import { Providers } from '../plugins/ip-schedule/backoff/providers.ts';
import { engineSimulator } from '../plugins/ip-schedule/replay/simulate.ts';
import { synthWeek, type SynthOptions } from '../scripts/replay/synth-week.ts';

const LINES = Number(process.env.BENCH_LINES) || 1_000_000;
const RSS_MB = Number(process.env.BENCH_RSS_MB ?? 1024);
const FORMATS: FormatName[] = ['postfix', 'exim', 'kumomta', 'halon', 'powermta'];
const WEEK_HOURS = 168;

const dir = await mkdtemp(join(tmpdir(), 'capstan-bench-replay-'));

/** Writes the generator's lines to `file` until `stop` says enough; answers lines and bytes written */
async function write(
  file: string,
  options: SynthOptions,
  stop: (lines: number, bytes: number) => boolean = () => false,
): Promise<{ lines: number; bytes: number }> {
  const out = createWriteStream(file);
  let lines = 0;
  let bytes = 0;
  let batch: string[] = [];
  const flush = async () => {
    const text = `${batch.join('\n')}\n`;
    bytes += Buffer.byteLength(text);
    batch = [];
    if (!out.write(text)) await once(out, 'drain');
  };
  for (const line of synthWeek(options)) {
    batch.push(line);
    lines++;
    if (batch.length === 10_000) {
      await flush();
      if (stop(lines, bytes)) break;
    }
  }
  if (batch.length > 0) await flush();
  out.end();
  await once(out, 'finish');
  return { lines, bytes };
}

const plugin = await usePlugin<ReplyClassifier>(
  { id: 'bounce-classifier' },
  { baseDir: dir, env: { SERVICE_BNAC_CACHE_FOLDER: join(dir, 'cache') } },
);
const table = policyTable({ policies: {} });
const providers = new Providers();

/**
 * One replay: wall seconds, lines, and the CPU seconds of the process (the worker pool's threads included). On a
 * shared machine the wall figure follows the load; lines per CPU second (`cpuRate`) barely does, and is what one free
 * core would do
 */
async function timedReplay(
  file: string,
  format: FormatName,
  classes: ReplyClassCache,
): Promise<{ seconds: number; lines: number; cpuSeconds: number }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const report = await replay({
    sources: await sources([file], process.stdin),
    format,
    classes,
    simulator: engineSimulator(table, { providers, shares: [] }),
    providerOf: (mx, domain) => providers.of(mx || undefined, domain || undefined),
  });
  const used = process.cpuUsage(cpu);
  return {
    seconds: (performance.now() - start) / 1000,
    lines: report.lines,
    cpuSeconds: (used.user + used.system) / 1e6,
  };
}

const cpuRate = (run: { lines: number; cpuSeconds: number }) =>
  `${Math.round(run.lines / run.cpuSeconds).toLocaleString('en-US')} per CPU s`;

async function baseline(file: string): Promise<number> {
  const start = performance.now();
  let lines = 0;
  const [source] = await sources([file], process.stdin);
  for await (const chunk of source!.open()) lines += chunk.length;
  return lines / ((performance.now() - start) / 1000);
}

const rate = (n: number) => `${Math.round(n).toLocaleString('en-US').padStart(10)} lines/s`;

if (RSS_MB > 0) {
  const file = join(dir, 'large-postfix.log');
  const limit = RSS_MB * 1024 * 1024;
  // A week at this rate is far beyond the limit: the file stops at the limit, mid-week
  const { lines, bytes } = await write(
    file,
    { seed: 3, perHour: 200_000, format: 'postfix', noise: 3 },
    (_lines, written) => written >= limit,
  );
  const startRss = process.memoryUsage().rss;
  let maxRss = startRss;
  const sampler = setInterval(() => {
    maxRss = Math.max(maxRss, process.memoryUsage().rss);
  }, 100);
  const run = await timedReplay(file, 'postfix', new ReplyClassCache(plugin.service));
  clearInterval(sampler);
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
  console.log(
    `RSS on a ${mb((await stat(file)).size)} Postfix log (${lines.toLocaleString('en-US')} lines, ${mb(bytes)} ` +
      `written): ${mb(startRss)} before, ${mb(maxRss)} at most while replaying (${rate(run.lines / run.seconds)})`,
  );
}

console.log(
  `replay throughput, ${LINES.toLocaleString('en-US')} lines a format ` +
    `(load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)} on ` +
    `${(await import('node:os')).cpus().length} cores: figures are noisy)`,
);
for (const format of FORMATS) {
  const noise = format === 'postfix' ? 3 : 0;
  const perHour = Math.ceil(LINES / (WEEK_HOURS * (noise + 1)));
  const file = join(dir, `${format}.log`);
  const unique = join(dir, `${format}-unique.log`);
  await write(file, { seed: 1, perHour, format, noise });
  await write(unique, { seed: 2, perHour, format, noise, uniqueReplies: true });
  const base = await baseline(file);
  const classes = new ReplyClassCache(plugin.service);
  await timedReplay(file, format, classes);
  const cached = await timedReplay(file, format, classes);
  const fresh = new ReplyClassCache(plugin.service);
  const uncached = await timedReplay(unique, format, fresh);
  const cachedRate = cached.lines / cached.seconds;
  const uncachedRate = uncached.lines / uncached.seconds;
  console.log(
    `${format.padEnd(9)} baseline ${rate(base)} | cached ${rate(cachedRate)} ` +
      `(${(cachedRate / base).toFixed(2)}x baseline; ${cpuRate(cached)}) | uncached ` +
      `${rate(uncachedRate)} (${(uncachedRate / base).toFixed(2)}x; ${cpuRate(uncached)}; ` +
      `${fresh.classified.toLocaleString('en-US')} distinct replies classified)`,
  );
  await rm(file);
  await rm(unique);
}

// The worst case: every line a failed delivery with a reply never seen before
const worst = join(dir, 'postfix-failures.log');
await write(worst, {
  seed: 4,
  perHour: Math.ceil(LINES / WEEK_HOURS),
  format: 'postfix',
  failureShare: 1,
  uniqueReplies: true,
});
const worstBase = await baseline(worst);
const worstClasses = new ReplyClassCache(plugin.service);
const worstRun = await timedReplay(worst, 'postfix', worstClasses);
console.log(
  `postfix, every line a failure with a distinct reply: uncached ${rate(worstRun.lines / worstRun.seconds)} ` +
    `(${cpuRate(worstRun)}; ${(worstRun.lines / worstRun.seconds / worstBase).toFixed(2)}x baseline ` +
    `${rate(worstBase)}; ${worstClasses.classified.toLocaleString('en-US')} replies classified)`,
);
await rm(worst);

await plugin.close();
await rm(dir, { recursive: true, force: true });
