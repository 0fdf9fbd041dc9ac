/*
 * Calibration on the gathered real replies of the `calibration` split (never trained on):
 * - the model's softmax temperature, rescaled so the probability of the answered class matches how often it is
 *   right on real text (the corpus-fitted temperature is a start: synthetic text is easier than real mail);
 * - each rule's probability: its measured precision, shrunk towards the pooled precision of all rules, since a
 *   rule fires on few held-out rows.
 */
import { aggregate, predictLogits, softmax, temperatureAt, type Calibration, type LinearModel } from '../../plugins/bounce-model/linear-model.ts';
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

const strict = (row: RealRow, task: TaskName): boolean => !(row[`ambiguous_${task}`]?.length);

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

/**
 * The temperature factor minimising the negative log-likelihood of the true class over both tasks' strict rows,
 * the coverage factor kept; returns the calibration with the rescaled temperature.
 */
export function fitRealTemperature(model: LinearModel, start: Calibration, rows: readonly RealRow[], tasks: readonly CalibrationTask[]): Calibration {
  const held = predictLogits(model, rows.map((r) => normalise(r.text)));
  const p = new Float64Array(model.labels.length);
  const nll = (factor: number): number => {
    let sum = 0;
    for (const task of tasks) {
      const classes = new Float64Array(task.labels.length);
      held.forEach(({ logits, coverage }, i) => {
        const row = rows[i]!;
        if (!strict(row, task.name)) return;
        p.set(logits);
        softmax(p, p.length, temperatureAt(start.temperature * factor, start.coverageAlpha, coverage));
        aggregate(p, task.map, classes);
        sum -= Math.log(Math.max(classes[task.labels.indexOf(row[task.name])]!, 1e-6));
      });
    }
    return sum;
  };
  let lo = Math.log(0.3);
  let hi = Math.log(10);
  const phi = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 40; i++) {
    const a = hi - phi * (hi - lo);
    const b = lo + phi * (hi - lo);
    if (nll(Math.exp(a)) < nll(Math.exp(b))) hi = b;
    else lo = a;
  }
  return { temperature: Number((start.temperature * Math.exp((lo + hi) / 2)).toFixed(4)), coverageAlpha: start.coverageAlpha };
}
