/*
 * Calibration on gathered real replies no model it applies to was trained on:
 * - the model's softmax temperature, rescaled so the probability of the answered class matches how often it is
 *   right on real text (the corpus-fitted temperature is a start: synthetic text is easier than real mail);
 * - then a monotone map (isotonic regression, in blocks of at least MIN_BLOCK answers, averaged over bootstrap
 *   resamples) from the linear model's probability among bounces to how often its answers of that probability were
 *   right, fitted on the answers the service gives from the model (no rule fired): the `calibration` split
 *   predicted by the final model, and the `train` split predicted by the held-out model trained without any real
 *   reply (scripts/train.ts, crossValidate);
 * - then, per answered class, a shift of the mapped probability's log-odds fitted on the same answers (classShifts);
 * - each rule's probability: its measured precision, shrunk towards the pooled precision of all rules, since a
 *   rule fires on few held-out rows.
 */
import {
  aggregate,
  bounceShare,
  softmax,
  temperatureAt,
  type LinearModel,
} from '../../plugins/bounce-model/linear-model.ts';
import { predictLogits, rng, type Calibration } from './linear-train.ts';
import {
  calibrated,
  type ModelCalibration,
  type ProbabilityMap,
  type RuleProbabilities,
} from '../../plugins/bounce-model/model.ts';
import { servedText } from './served-text.ts';
import { matchRule } from '../../plugins/bounce-model/rules.ts';
import type { RealRow } from './real-text.ts';

type TaskName = 'bnac' | 'backoff';

/** A task as calibration needs it: its classes, and each inner class's (situation's) output class index. */
export interface CalibrationTask {
  readonly name: TaskName;
  readonly labels: readonly string[];
  readonly map: Uint8Array;
}

const strict = (row: RealRow, task: TaskName): boolean => !row[`ambiguous_${task}`]?.length;

/** Weight of the pooled precision in a rule's figure, in rows: a rule seen right on 2 of 2 rows is not certain. */
export const RULE_PRIOR_ROWS = 4;
/** Bounds of a rule's probability: measured on a few hundred rows, nothing is certain. */
const RULE_FLOOR = 0.3;
const RULE_CEILING = 0.99;

const clamp = (p: number): number => Math.min(RULE_CEILING, Math.max(RULE_FLOOR, p));

/** Per-task rule precision on the rows (strict rows only), shrunk towards the pooled precision (Laplace-smoothed). */
export function ruleProbabilities(rows: readonly RealRow[]): RuleProbabilities {
  const table = (task: TaskName) => {
    const seen = new Map<string, { n: number; right: number }>();
    let n = 0;
    let right = 0;
    for (const row of rows) {
      if (!strict(row, task)) continue;
      const rule = matchRule(task, servedText(row.text));
      if (!rule) continue;
      const ok = rule.label === row[task] ? 1 : 0;
      const s = seen.get(rule.id) ?? { n: 0, right: 0 };
      s.n++;
      s.right += ok;
      seen.set(rule.id, s);
      n++;
      right += ok;
    }
    const pooled = clamp((right + 1) / (n + 2));
    const rules: Record<string, number> = {};
    for (const [id, s] of [...seen].sort(([a], [b]) => a.localeCompare(b))) {
      rules[id] = Number(clamp((s.right + RULE_PRIOR_ROWS * pooled) / (s.n + RULE_PRIOR_ROWS)).toFixed(4));
    }
    return { pooled: Number(pooled.toFixed(4)), rules, measuredOn: n };
  };
  return { bnac: table('bnac'), backoff: table('backoff') };
}

/** A held-out prediction with its true class index per task (-1: not scored for that task). */
export interface HeldOutPrediction {
  readonly logits: Float64Array;
  readonly coverage: number;
  readonly truth: Readonly<Record<TaskName, number>>;
}

/** Mean negative log-likelihood of the true classes of `held` at a temperature. */
function meanNll(
  held: readonly HeldOutPrediction[],
  tasks: readonly CalibrationTask[],
  temperature: number,
  coverageAlpha: number,
): number {
  const p = new Float64Array(held[0]?.logits.length ?? 0);
  let sum = 0;
  let n = 0;
  for (const task of tasks) {
    const classes = new Float64Array(task.labels.length);
    for (const { logits, coverage, truth } of held) {
      const t = truth[task.name];
      if (t < 0) continue;
      p.set(logits);
      softmax(p, p.length, temperatureAt(temperature, coverageAlpha, coverage));
      aggregate(p, task.map, classes);
      sum -= Math.log(Math.max(classes[t]!, 1e-6));
      n++;
    }
  }
  return n ? sum / n : 0;
}

/**
 * The temperature factor minimising the mean negative log-likelihood of the true class on the real calibration
 * rows (strict rows of both tasks) plus, when given, the same mean on the corpus rows held out by whole phrasing
 * file: a few dozen real replies alone would swing the temperature on one or two confident errors, so the
 * thousands of held-out synthetic replies weigh as much as they do, no more. The coverage factor is kept.
 */
export function fitRealTemperature(
  model: LinearModel,
  start: Calibration,
  rows: readonly RealRow[],
  tasks: readonly CalibrationTask[],
  corpusHeld: readonly HeldOutPrediction[] = [],
): Calibration {
  // Ambiguous rows and tasks not asked for score nothing (-1)
  const real = realHeldOut(model, rows, tasks);
  const nll = (factor: number): number =>
    meanNll(real, tasks, start.temperature * factor, start.coverageAlpha) +
    (corpusHeld.length ? meanNll(corpusHeld, tasks, start.temperature * factor, start.coverageAlpha) : 0);
  let lo = Math.log(0.3);
  let hi = Math.log(10);
  const phi = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 40; i++) {
    const a = hi - phi * (hi - lo);
    const b = lo + phi * (hi - lo);
    if (nll(Math.exp(a)) < nll(Math.exp(b))) hi = b;
    else lo = a;
  }
  return {
    temperature: Number((start.temperature * Math.exp((lo + hi) / 2)).toFixed(4)),
    coverageAlpha: start.coverageAlpha,
  };
}

/** A held-out prediction with the normalised text it was made on (a rule may decide it instead of the model). */
export interface HeldOutText extends HeldOutPrediction {
  readonly text: string;
}

/** The fewest answers a step of the map stands on: fewer and one error moves it by more than the goal ECE. */
export const MIN_BLOCK = 10;
const MAP_FLOOR = 0.01;
const MAP_CEILING = 0.995;

/**
 * Isotonic regression of right (1) or wrong (0) on probability, by pool-adjacent-violators, with any block under
 * MIN_BLOCK answers merged into its nearer neighbour; each step's value is its share right, smoothed by half an
 * answer each way ((right + 0.5) / (n + 1)) so that a step of all right answers is not certain.
 */
export function isotonicMap(points: readonly { p: number; right: boolean }[]): ProbabilityMap {
  const sorted = [...points].sort((a, b) => a.p - b.p);
  const blocks: { lo: number; n: number; right: number }[] = [];
  const mean = (b: { n: number; right: number }) => b.right / b.n;
  for (const { p, right } of sorted) {
    blocks.push({ lo: p, n: 1, right: right ? 1 : 0 });
    while (blocks.length > 1 && mean(blocks.at(-2)!) >= mean(blocks.at(-1)!)) {
      const last = blocks.pop()!;
      blocks.at(-1)!.n += last.n;
      blocks.at(-1)!.right += last.right;
    }
  }
  for (let small = blocks.findIndex((b) => b.n < MIN_BLOCK); small >= 0 && blocks.length > 1;) {
    const before = blocks[small - 1];
    const after = blocks[small + 1];
    const into =
      before === undefined ||
      (after !== undefined &&
        Math.abs(mean(after) - mean(blocks[small]!)) < Math.abs(mean(before) - mean(blocks[small]!)))
        ? small + 1
        : small - 1;
    const [a, b] = into < small ? [blocks[into]!, blocks[small]!] : [blocks[small]!, blocks[into]!];
    blocks.splice(Math.min(into, small), 2, { lo: a.lo, n: a.n + b.n, right: a.right + b.right });
    small = blocks.findIndex((x) => x.n < MIN_BLOCK);
  }
  const from: number[] = [];
  const to: number[] = [];
  for (const b of blocks) {
    const value = Math.min(MAP_CEILING, Math.max(MAP_FLOOR, (b.right + 0.5) / (b.n + 1)));
    // Merging and smoothing may leave a step below the one before: the map stays monotone
    from.push(from.length === 0 ? 0 : Number(b.lo.toFixed(4)));
    to.push(Number(Math.max(value, to.at(-1) ?? 0).toFixed(4)));
  }
  return { from, to, measuredOn: points.length };
}

/** Bootstrap maps averaged into the shipped one, and the seed of their resamples. */
export const MAP_BAGS = 50;
const MAP_SEED = 3463;

/**
 * The average of isotonic maps (isotonicMap) fitted on `bags` bootstrap resamples of the points. One step map of a
 * hundred-odd answers moves by several points when a few answers change (six more calibration replies moved the
 * backoff model's ECE on the dev set from 0.039 to 0.055); the average keeps the map monotone and varies less. Chosen by
 * 5-fold cross-validation on the calibration part's own answers: lower Brier score, log loss and ECE than one map for
 * both models.
 */
export function baggedMap(
  points: readonly { p: number; right: boolean }[],
  bags = MAP_BAGS,
  seed = MAP_SEED,
): ProbabilityMap {
  if (points.length === 0) return isotonicMap(points);
  const next = rng(seed);
  const maps = Array.from({ length: bags }, () =>
    isotonicMap(points.map(() => points[Math.floor(next() * points.length)]!)),
  );
  const from: number[] = [];
  const to: number[] = [];
  for (const x of [...new Set(maps.flatMap((m) => m.from))].sort((a, b) => a - b)) {
    const value = Number((maps.reduce((sum, m) => sum + calibrated(m, x), 0) / bags).toFixed(4));
    // A breakpoint where the average does not move is no step
    if (value === to.at(-1)) continue;
    from.push(x);
    to.push(value);
  }
  return { from, to, measuredOn: points.length };
}

/** Answers of a class that weigh as much as the map in its shift: a class answered 20 times moves half way. */
export const CLASS_PRIOR_ANSWERS = 20;

const logit = (p: number): number => Math.log(p / (1 - p));

/**
 * Per answered class, the shift of the mapped probability's log-odds that brings the class's mean mapped probability
 * to its share right (smoothed by half an answer each way), times n / (n + CLASS_PRIOR_ANSWERS): the map is fitted on
 * all classes' answers together, and on held-out replies some classes' answers (the catch-all BLOCKED above all) are
 * right less often than others' of the same probability. Chosen by 5-fold cross-validation (ten draws) on the map's
 * own answers: lower log loss and Brier score for both models than the map alone (BNAC 0.377 to 0.364 and 0.118 to
 * 0.112; backoff 0.434 to 0.426 and 0.141 to 0.139), best with 10 to 20 answers of prior.
 */
export function classShifts(
  points: readonly { p: number; right: boolean; label: string }[],
  map: ProbabilityMap,
): Record<string, number> {
  const by = new Map<string, { n: number; right: number; mapped: number }>();
  for (const { p, right, label } of points) {
    const s = by.get(label) ?? { n: 0, right: 0, mapped: 0 };
    s.n++;
    s.right += right ? 1 : 0;
    s.mapped += calibrated(map, p);
    by.set(label, s);
  }
  const shifts: Record<string, number> = {};
  for (const [label, s] of [...by].sort(([a], [b]) => a.localeCompare(b))) {
    const shift = (s.n / (s.n + CLASS_PRIOR_ANSWERS)) * (logit((s.right + 0.5) / (s.n + 1)) - logit(s.mapped / s.n));
    shifts[label] = Number(shift.toFixed(4));
  }
  return shifts;
}

/**
 * Each task's map and class shifts, fitted on the held-out answers of the linear model (rows a rule decides are left
 * out, as the service answers them with the rule's own figure; ambiguous rows score nothing) at the shipped
 * temperature.
 */
export function fitModelCalibration(
  held: readonly HeldOutText[],
  tasks: readonly CalibrationTask[],
  calibration: Calibration,
): ModelCalibration {
  const fit = (task: CalibrationTask): ProbabilityMap => {
    const p = new Float64Array(held[0]?.logits.length ?? 0);
    const classes = new Float64Array(task.labels.length);
    const points: { p: number; right: boolean; label: string }[] = [];
    for (const { logits, coverage, truth, text } of held) {
      const t = truth[task.name];
      if (t < 0 || matchRule(task.name, text)) continue;
      p.set(logits);
      softmax(p, p.length, temperatureAt(calibration.temperature, calibration.coverageAlpha, coverage));
      const best = aggregate(p, task.map, classes);
      // Among bounces, as the service reads the map (plugins/bounce-model/model.ts)
      points.push({ p: classes[best]! / bounceShare(classes), right: best === t, label: task.labels[best]! });
    }
    const map = baggedMap(points);
    return { ...map, classShift: classShifts(points, map) };
  };
  const [bnac, backoff] = (['bnac', 'backoff'] as const).map((name) => {
    const task = tasks.find((t) => t.name === name);
    if (!task) throw new Error(`fitModelCalibration: no task "${name}"`);
    return fit(task);
  });
  return { bnac: bnac!, backoff: backoff! };
}

/** The calibration split's held-out predictions by `model`, with their texts and true classes (-1: ambiguous). */
export function realHeldOut(
  model: LinearModel,
  rows: readonly RealRow[],
  tasks: readonly CalibrationTask[],
): HeldOutText[] {
  const texts = rows.map((r) => servedText(r.text));
  return predictLogits(model, texts).map(({ logits, coverage }, i) => ({
    logits,
    coverage,
    text: texts[i]!,
    truth: realTruth(rows[i]!, tasks),
  }));
}

/** A real row's class index per task, -1 where it is ambiguous or the task is not asked for. */
export function realTruth(row: RealRow, tasks: readonly CalibrationTask[]): Record<TaskName, number> {
  const of = (name: TaskName): number => {
    const task = tasks.find((t) => t.name === name);
    return task && strict(row, name) ? task.labels.indexOf(row[name]) : -1;
  };
  return { bnac: of('bnac'), backoff: of('backoff') };
}
