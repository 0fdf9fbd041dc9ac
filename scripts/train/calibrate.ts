/*
 * Calibration on the gathered real replies of the `calibration` split (never trained on):
 * - the model's softmax temperature, rescaled so the probability of the answered class matches how often it is
 *   right on real text (the corpus-fitted temperature is a start: synthetic text is easier than real mail);
 * - each rule's probability: its measured precision, shrunk towards the pooled precision of all rules, since a
 *   rule fires on few held-out rows.
 */
import { aggregate, softmax, temperatureAt, type LinearModel } from '../../plugins/bounce-model/linear-model.ts';
import { predictLogits, type Calibration } from './linear-train.ts';
import type { RuleProbabilities } from '../../plugins/bounce-model/model.ts';
import { normalise } from '../../plugins/bounce-model/normalise.ts';
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
      const rule = matchRule(task, normalise(row.text));
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
  const truthOf = (row: RealRow, name: TaskName): number => {
    const task = tasks.find((t) => t.name === name);
    return task && strict(row, name) ? task.labels.indexOf(row[name]) : -1;
  };
  const real: HeldOutPrediction[] = predictLogits(
    model,
    rows.map((r) => normalise(r.text)),
  ).map(({ logits, coverage }, i) => ({
    logits,
    coverage,
    truth: { bnac: truthOf(rows[i]!, 'bnac'), backoff: truthOf(rows[i]!, 'backoff') },
  }));
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
