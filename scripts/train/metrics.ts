// Classification metrics shared by training (scripts/train.ts, held-out report) and the dev-set evaluation
// (scripts/eval.ts), so both report the same figures computed the same way.
import { rng } from './linear-train.ts';

/** Precision, recall, F1 and support (true rows) of one class. */
export interface ClassScore {
  label: string;
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

/** Held-out results of one label set. */
export interface Evaluation {
  readonly labels: readonly string[];
  readonly accuracy: number;
  readonly macroF1: number;
  readonly perClass: ClassScore[];
  readonly perFamily: { family: string; accuracy: number; n: number }[];
  /** confusion[true][predicted] counts. */
  readonly confusion: number[][];
  /** Mean predicted probability of the chosen class, to compare with accuracy. */
  readonly meanConfidence: number;
}

/** confusion[true][predicted] counts over label indices `0..labels.length-1`. */
export function confusionMatrix(
  labels: readonly string[],
  truth: readonly number[],
  predicted: readonly number[],
): number[][] {
  const k = labels.length;
  const confusion = labels.map(() => new Array<number>(k).fill(0));
  truth.forEach((t, i) => {
    confusion[t]![predicted[i]!]!++;
  });
  return confusion;
}

/** Per-class precision, recall, F1 and support from a confusion matrix; a class never predicted has precision 0. */
export function perClassScores(labels: readonly string[], confusion: readonly (readonly number[])[]): ClassScore[] {
  return labels.map((label, c) => {
    const tp = confusion[c]![c]!;
    const support = confusion[c]!.reduce((a, b) => a + b, 0);
    const predictedN = confusion.reduce((a, row) => a + row[c]!, 0);
    const precision = predictedN ? tp / predictedN : 0;
    const recall = support ? tp / support : 0;
    const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
    return { label, precision, recall, f1, support };
  });
}

/** Mean F1 over the classes that occur as a true label (support > 0); 0 when none does. */
export function macroF1Present(perClass: readonly ClassScore[]): number {
  const present = perClass.filter((c) => c.support > 0);
  return present.length ? present.reduce((a, c) => a + c.f1, 0) / present.length : 0;
}

/** Indices of the classes that occur in a confusion matrix, as a true or a predicted label, in label order. */
export function occurringClasses(confusion: readonly (readonly number[])[]): number[] {
  return confusion.flatMap((row, c) => (row.some((n) => n > 0) || confusion.some((r) => r[c]! > 0) ? [c] : []));
}

/** The confusion matrix cut down to the given class indices (rows and columns). */
export function subMatrix(confusion: readonly (readonly number[])[], classes: readonly number[]): number[][] {
  return classes.map((t) => classes.map((p) => confusion[t]![p]!));
}

/**
 * Share of answers that are acceptable: `accepted[i]` lists the classes counted right for row i (the label alone,
 * or every plausible reading of an ambiguous row). 0 for no rows.
 */
export function lenientAccuracy(
  predicted: readonly string[],
  accepted: readonly (readonly string[])[],
): { n: number; correct: number; accuracy: number } {
  let correct = 0;
  predicted.forEach((p, i) => {
    if (accepted[i]!.includes(p)) correct++;
  });
  const n = predicted.length;
  return { n, correct, accuracy: n ? correct / n : 0 };
}

/** One equal-width confidence bin: [lo, hi), the last one closed. */
export interface CalibrationBin {
  lo: number;
  hi: number;
  n: number;
  meanConfidence: number;
  accuracy: number;
}

/** Calibration of the returned probability against correctness. */
export interface Calibration {
  /** Expected calibration error: sum over bins of (bin share) x |bin accuracy - bin mean confidence|, in [0, 1]. */
  ece: number;
  n: number;
  meanConfidence: number;
  accuracy: number;
  /**
   * Top-label Brier score of the returned probability (not the multiclass one over every class): the mean of
   * (p - 1)^2 over right answers and p^2 over wrong ones. It rewards accuracy and honest probabilities together, where
   * the ECE sees only the second, so a retrain that moves both one way each is compared by it.
   */
  brier: number;
  /** Non-empty bins only. */
  bins: CalibrationBin[];
}

/**
 * Calibration over `bins` equal-width bins of [0, 1]: a probability p falls in bin floor(p * bins), p = 1 in
 * the last one. All figures are 0 for no rows.
 */
export function calibration(confidence: readonly number[], correct: readonly boolean[], bins = 10): Calibration {
  const n = confidence.length;
  const count = new Array<number>(bins).fill(0);
  const conf = new Array<number>(bins).fill(0);
  const right = new Array<number>(bins).fill(0);
  confidence.forEach((p, i) => {
    const b = Math.min(bins - 1, Math.max(0, Math.floor(p * bins)));
    count[b]!++;
    conf[b]! += p;
    if (correct[i]) right[b]!++;
  });
  let ece = 0;
  const out: CalibrationBin[] = [];
  for (let b = 0; b < bins; b++) {
    const m = count[b]!;
    if (m === 0) continue;
    const bin = { lo: b / bins, hi: (b + 1) / bins, n: m, meanConfidence: conf[b]! / m, accuracy: right[b]! / m };
    ece += (m / n) * Math.abs(bin.accuracy - bin.meanConfidence);
    out.push(bin);
  }
  const sum = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0);
  return {
    ece,
    n,
    meanConfidence: n ? sum(confidence) / n : 0,
    accuracy: n ? correct.filter(Boolean).length / n : 0,
    brier: n ? sum(confidence.map((p, i) => (p - (correct[i] ? 1 : 0)) ** 2)) / n : 0,
    bins: out,
  };
}

/** The q-quantile of ascending `sorted` values (nearest rank) */
const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))]!;

/** Resamples drawn for an ECE interval: enough that the 5th and 95th percentiles move by under 0.002 between seeds. */
export const ECE_RESAMPLES = 2000;

/**
 * A bootstrap interval of the ECE: the rows are drawn with replacement `resamples` times (seeded, so reruns agree),
 * the ECE of each draw computed, and the (1 - level) / 2 and (1 + level) / 2 quantiles returned. On a hundred rows one
 * confident error moves the ECE by about 0.01: the interval says how far the figure itself can be trusted. ECE is
 * biased upwards on few rows (each bin's gap is never negative), so the interval can sit above the true error.
 */
export function eceInterval(
  confidence: readonly number[],
  correct: readonly boolean[],
  bins = 10,
  level = 0.9,
  resamples = ECE_RESAMPLES,
  seed = 1,
): [number, number] {
  const n = confidence.length;
  if (n === 0) return [0, 0];
  const next = rng(seed);
  const p = new Array<number>(n);
  const ok = new Array<boolean>(n);
  const eces: number[] = [];
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < n; i++) {
      const j = Math.floor(next() * n);
      p[i] = confidence[j]!;
      ok[i] = correct[j]!;
    }
    eces.push(expectedCalibrationError(p, ok, bins));
  }
  eces.sort((a, b) => a - b);
  return [quantile(eces, (1 - level) / 2), quantile(eces, (1 + level) / 2)];
}

/**
 * The ECE these probabilities would show on this many rows were every one exact: each answer of probability p is
 * drawn right with chance p, `resamples` times (seeded), and the (1 - level) / 2, 0.5 and (1 + level) / 2 quantiles of
 * those ECEs returned. ECE never reaches 0 on a finite set, as each bin's gap is never negative: on a hundred rows the
 * median is 0.02 with every p at 0.9 and 0.07 with p spread over 0.5 to 1. A measured ECE inside this range cannot be
 * told from sampling noise.
 */
export function exactEce(
  confidence: readonly number[],
  bins = 10,
  level = 0.9,
  resamples = ECE_RESAMPLES,
  seed = 1,
): { low: number; median: number; high: number } {
  if (confidence.length === 0) return { low: 0, median: 0, high: 0 };
  const next = rng(seed);
  const ok = new Array<boolean>(confidence.length);
  const eces: number[] = [];
  for (let r = 0; r < resamples; r++) {
    confidence.forEach((p, i) => {
      ok[i] = next() < p;
    });
    eces.push(expectedCalibrationError(confidence, ok, bins));
  }
  eces.sort((a, b) => a - b);
  return {
    low: quantile(eces, (1 - level) / 2),
    median: quantile(eces, 0.5),
    high: quantile(eces, (1 + level) / 2),
  };
}

/** Expected calibration error over `bins` equal-width bins (see `calibration`). */
export function expectedCalibrationError(
  confidence: readonly number[],
  correct: readonly boolean[],
  bins = 10,
): number {
  return calibration(confidence, correct, bins).ece;
}

/** Answers whose probability is strictly above `threshold`: how many, their share of all answers, their accuracy. */
export function aboveThreshold(
  confidence: readonly number[],
  correct: readonly boolean[],
  threshold: number,
): { threshold: number; n: number; share: number; accuracy: number } {
  let n = 0;
  let right = 0;
  confidence.forEach((p, i) => {
    if (p > threshold) {
      n++;
      if (correct[i]) right++;
    }
  });
  return { threshold, n, share: confidence.length ? n / confidence.length : 0, accuracy: n ? right / n : 0 };
}

/**
 * The share of the errors that would fall above `threshold` if every probability were exact: each answer of
 * probability p is wrong with chance 1 - p, so the expected errors above it over all expected errors. A classifier
 * right on most replies and sure of them puts many of its few errors above the threshold even when perfectly
 * calibrated; against this figure the measured share tells over-confidence from that.
 */
export function expectedErrorShare(confidence: readonly number[], threshold: number): number {
  let above = 0;
  let all = 0;
  for (const p of confidence) {
    all += 1 - p;
    if (p > threshold) above += 1 - p;
  }
  return all > 0 ? above / all : 0;
}

/** Computes accuracy, per-class P/R/F1, per-family accuracy and the confusion matrix. */
export function evaluate(
  labels: readonly string[],
  truth: readonly number[],
  predicted: readonly number[],
  confidence: readonly number[],
  families: readonly string[],
): Evaluation {
  const k = labels.length;
  const confusion = confusionMatrix(labels, truth, predicted);
  const fam = new Map<string, { ok: number; n: number }>();
  let ok = 0;
  truth.forEach((t, i) => {
    const f = fam.get(families[i]!) ?? { ok: 0, n: 0 };
    f.n++;
    if (t === predicted[i]) {
      ok++;
      f.ok++;
    }
    fam.set(families[i]!, f);
  });
  const perClass = perClassScores(labels, confusion);
  return {
    labels,
    accuracy: ok / truth.length,
    macroF1: perClass.reduce((a, c) => a + c.f1, 0) / k,
    perClass,
    perFamily: [...fam]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([family, f]) => ({ family, accuracy: f.ok / f.n, n: f.n })),
    confusion,
    meanConfidence: confidence.reduce((a, b) => a + b, 0) / confidence.length,
  };
}

const pct = (x: number): string => (100 * x).toFixed(1);

/** Markdown section for one label set. */
export function evaluationMarkdown(title: string, e: Evaluation): string {
  const lines = [
    `## ${title}`,
    '',
    `Held-out accuracy **${pct(e.accuracy)} %**, macro-F1 ${pct(e.macroF1)} %, mean confidence ${pct(e.meanConfidence)} %.`,
    '',
    '| class | precision % | recall % | F1 % | support |',
    '|---|---|---|---|---|',
    ...e.perClass.map((c) => `| ${c.label} | ${pct(c.precision)} | ${pct(c.recall)} | ${pct(c.f1)} | ${c.support} |`),
    '',
    '| held-out family | accuracy % | n |',
    '|---|---|---|',
    ...e.perFamily.map((f) => `| ${f.family} | ${pct(f.accuracy)} | ${f.n} |`),
    '',
    'Confusion matrix (rows: true class, columns: predicted, by row number):',
    '',
    `| # | true \\ predicted | ${e.labels.map((_, i) => i + 1).join(' | ')} |`,
    `|---|---|${e.labels.map(() => '---').join('|')}|`,
    ...e.confusion.map(
      (row, i) => `| ${i + 1} | ${e.labels[i]} | ${row.map((n) => (n ? String(n) : '.')).join(' | ')} |`,
    ),
    '',
  ];
  return lines.join('\n');
}
