/*
 * Multinomial logistic regression over hashed features: scoring and calibrated
 * softmax (training is scripts/train/linear-train.ts). Weights are a dense bucket-major
 * matrix (bucket b, class k at b * K + k) so one feature reads K adjacent floats.
 */
import type { Features } from './features.ts';
/** Trained weights plus what is needed to score with them. */
export interface LinearModel {
  readonly labels: readonly string[];
  readonly bits: number;
  /** Softmax temperature fitted on held-out predictions (1 = none). */
  temperature: number;
  /** How much the temperature rises as lexical coverage falls (0 = not at all); see `temperatureAt`. */
  coverageAlpha: number;
  readonly weights: Float32Array;
  readonly bias: Float32Array;
}

/** Writes raw class scores (logits) of `f` into `scores`. */
export function scoreFeatures(model: LinearModel, f: Features, scores: Float64Array): void {
  const k = model.labels.length;
  const w = model.weights;
  for (let c = 0; c < k; c++) scores[c] = model.bias[c]!;
  for (let i = 0; i < f.length; i++) {
    const v = f.value[i]!;
    const row = f.index[i]! * k;
    for (let c = 0; c < k; c++) scores[c] += v * w[row + c]!;
  }
}

/**
 * Sums the probabilities of the inner classes (situations) into the output classes they map to, into `out`;
 * returns the arg-max output index. A situation mapped past the classes (NO_CLASS: text that is not a bounce) adds to
 * none, so the classes sum to the share the model gives to the text being a bounce at all.
 */
export function aggregate(probabilities: Float64Array, map: Uint8Array, out: Float64Array): number {
  out.fill(0);
  for (let j = 0; j < map.length; j++) if (map[j]! < out.length) out[map[j]!] += probabilities[j]!;
  let best = 0;
  for (let c = 1; c < out.length; c++) if (out[c]! > out[best]!) best = c;
  return best;
}

/** Softmax of `scores / temperature` in place; returns the arg-max index. */
export function softmax(scores: Float64Array, k: number, temperature: number): number {
  let best = 0;
  for (let c = 1; c < k; c++) if (scores[c]! > scores[best]!) best = c;
  const max = scores[best]!;
  let sum = 0;
  for (let c = 0; c < k; c++) {
    const e = Math.exp((scores[c]! - max) / temperature);
    scores[c] = e;
    sum += e;
  }
  for (let c = 0; c < k; c++) scores[c] = scores[c]! / sum;
  return best;
}

/**
 * Share of a text's words and word pairs that training saw, smoothed so that an empty text counts as covered.
 * A reply made mostly of n-grams the model never saw is a guess whatever its softmax says.
 */
export function coverage(f: Features, seen: (bucket: number) => boolean): number {
  let hits = 0;
  for (let i = 0; i < f.lexicalLength; i++) if (seen(f.lexical[i]!)) hits++;
  return (hits + 1) / (f.lexicalLength + 1);
}

/**
 * Softmax temperature for a reply of the given coverage: the fitted temperature, raised as coverage falls, so a
 * reply made mostly of unseen n-grams gets a flatter, less sure distribution.
 */
export function temperatureAt(temperature: number, coverageAlpha: number, cover: number): number {
  return temperature * (1 + coverageAlpha * (1 - cover));
}

/** The total of the class probabilities of `aggregate`: how likely the text is a bounce at all. */
export function bounceShare(classes: Float32Array | Float64Array): number {
  let sum = 0;
  for (let c = 0; c < classes.length; c++) sum += classes[c]!;
  return sum;
}
