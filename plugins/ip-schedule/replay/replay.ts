/**
 * The replay itself: each source's lines parsed and their failures classified in chunks, the sources merged in time
 * order (several hosts' logs, or a rotated set given in any order, interleave as they happened), every attempt fed to
 * the policy simulator and counted in the report.
 */
import type { Attempt, FormatName, LineReader } from './attempt.ts';
import { detectFormat, FORMATS, SNIFF_LINES } from './formats/mod.ts';
import type { Source } from './input.ts';
import type { ReplyClassCache } from './reply-classes.ts';
import { ReportBuilder, type ReplayReport } from './report.ts';
import type { ClassifiedAttempt, PolicySimulator, ProviderOf } from './simulate.ts';
import type { WarmupPlan } from './warmup-plan.ts';

export interface ReplayOptions {
  sources: readonly Source[];
  format: FormatName | 'auto';
  /** Epoch ms: attempts before `from` or at/after `to` are skipped */
  from?: number;
  to?: number;
  classes: ReplyClassCache;
  simulator: PolicySimulator;
  providerOf: ProviderOf;
  /** Warm-up schedules to set what was sent against (`--schedules`) */
  warmup?: WarmupPlan;
  /** Called after each chunk of lines, for a progress bar */
  progress?: (lines: number) => void;
}

interface InputStats {
  name: string;
  format: FormatName | null;
  lines: number;
  attempts: number;
}

/** Attempts of one source in chunks, each with its provider and (failures) classes */
async function* classifiedChunks(
  source: Source,
  options: ReplayOptions,
  stats: InputStats,
  counted: (lines: number) => void,
): AsyncGenerator<ClassifiedAttempt[]> {
  let reader: LineReader | undefined = options.format === 'auto' ? undefined : FORMATS[options.format].reader();
  let held: string[] = [];
  const { from = -Infinity, to = Infinity, providerOf } = options;
  const parse = async (lines: string[]): Promise<ClassifiedAttempt[]> => {
    const attempts: ClassifiedAttempt[] = [];
    const failed: ClassifiedAttempt[] = [];
    for (let line of lines) {
      if (line.endsWith('\r')) line = line.slice(0, -1);
      const attempt = reader!(line) as (Attempt & Partial<ClassifiedAttempt>) | undefined;
      if (!attempt || attempt.time < from || attempt.time >= to) continue;
      attempt.provider = providerOf(attempt.remoteMx, attempt.recipientDomain);
      attempts.push(attempt as ClassifiedAttempt);
      if (attempt.outcome !== 'sent') failed.push(attempt as ClassifiedAttempt);
    }
    const classes = await options.classes.classify(failed.map((a) => a.reply));
    failed.forEach((attempt, index) => {
      attempt.bnac = classes[index]!.bnac;
      attempt.backoff = classes[index]!.backoff;
    });
    stats.attempts += attempts.length;
    return attempts;
  };
  if (reader) stats.format = options.format as FormatName;
  const detect = () => {
    const format = detectFormat(held.filter((line) => line.trim() !== ''));
    if (!format) throw new Error(`Cannot tell the format of "${source.name}" from its first lines: give --format`);
    stats.format = format.name;
    reader = format.reader();
  };
  for await (const lines of source.open()) {
    stats.lines += lines.length;
    counted(lines.length);
    let batch = lines;
    if (!reader) {
      held.push(...lines);
      if (held.length < SNIFF_LINES) continue;
      detect();
      batch = held;
      held = [];
    }
    yield await parse(batch);
  }
  if (!reader && held.some((line) => line.trim() !== '')) {
    detect();
    yield await parse(held);
  }
}

/** Where a source stands in the merge: its current chunk and the next attempt in it */
interface Head {
  chunks: AsyncGenerator<ClassifiedAttempt[]>;
  chunk: ClassifiedAttempt[];
  index: number;
}

/** Moves `head` to its next attempt, reading chunks as needed; false when the source has none left */
async function advance(head: Head): Promise<boolean> {
  while (head.index >= head.chunk.length) {
    const next = await head.chunks.next();
    if (next.done) return false;
    head.chunk = next.value;
    head.index = 0;
  }
  return true;
}

/** Replays the sources: the report of what was sent, how it was classified, and what the engine would have done */
export async function replay(options: ReplayOptions): Promise<ReplayReport> {
  const report = new ReportBuilder();
  const inputs: InputStats[] = options.sources.map((source) => ({
    name: source.name,
    format: options.format === 'auto' ? null : options.format,
    lines: 0,
    attempts: 0,
  }));
  let lines = 0;
  const counted = (more: number) => {
    lines += more;
    options.progress?.(lines);
  };
  const heads: Head[] = [];
  for (const [index, source] of options.sources.entries()) {
    const head = { chunks: classifiedChunks(source, options, inputs[index]!, counted), chunk: [], index: 0 };
    if (await advance(head)) heads.push(head);
  }
  let clock = -Infinity;
  let outOfOrder = 0;
  while (heads.length > 0) {
    let at = 0;
    for (let k = 1; k < heads.length; k++)
      if (heads[k]!.chunk[heads[k]!.index]!.time < heads[at]!.chunk[heads[at]!.index]!.time) at = k;
    const head = heads[at]!;
    const attempt = head.chunk[head.index++]!;
    if (attempt.time < clock) outOfOrder++;
    else clock = attempt.time;
    report.add(attempt);
    // The engine's clock never goes back: a late line is replayed at the time already reached
    const replayed = attempt.time < clock ? { ...attempt, time: clock } : attempt;
    report.decide(options.simulator.observe(replayed));
    if (options.warmup) {
      if (attempt.outcome === 'sent') options.warmup.sent(attempt);
      if (options.simulator.share) report.decide(options.warmup.observe(replayed, options.simulator.share));
    }
    if (head.index >= head.chunk.length && !(await advance(head))) heads.splice(at, 1);
  }
  if (clock > -Infinity) report.decide(options.simulator.finish(clock));
  const built = report.build({
    engine: options.simulator.name,
    inputs,
    outOfOrder,
    distinctReplies: options.classes.classified,
  });
  if (options.warmup && built.from && built.to)
    built.warmup = options.warmup.build(Date.parse(built.from), Date.parse(built.to));
  return built;
}
