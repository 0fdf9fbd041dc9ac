/*
 * Seeded AdaGrad training of the bounce model's multinomial logistic regression, and the calibration fitted on
 * held-out data: used by npm run train only, so the plugin (plugins/bounce-model/linear-model.ts) ships inference alone.
 */
import { extractFeatures, newFeatures, type Features } from '../../plugins/bounce-model/features.ts';
import {
  coverage,
  scoreFeatures,
  softmax,
  temperatureAt,
  type LinearModel,
} from '../../plugins/bounce-model/linear-model.ts';

/** Training hyper-parameters; all fixed, so training is reproducible. */
export interface TrainOptions {
  readonly bits: number;
  readonly epochs: number;
  readonly learningRate: number;
  /**
   * Label smoothing: the share of each example's target spread evenly over every class. Without it the loss keeps
   * growing a word's weight until a reply it decides is certain, and an unseen reply that shares that word gets the
   * same certainty: smoothing bounds how sure training can make one example (measured in README.md, "Measured")
   */
  readonly smoothing: number;
  readonly seed: number;
  /** Models averaged into the shipped one (scripts/train.ts, `averaged`), with seeds seed, seed+1, ... */
  readonly runs: number;
}

/** Defaults measured to train fast and generalise across providers. */
export const DEFAULT_TRAIN_OPTIONS: TrainOptions = {
  bits: 18,
  epochs: 6,
  learningRate: 0.2,
  smoothing: 0.1,
  seed: 7,
  runs: 4,
};

/** A normalised text with its class index. */
export interface Example {
  readonly text: string;
  readonly label: number;
}

/** Seeded PRNG (mulberry32): uniform floats in [0, 1); training and the corpus generator must be reproducible. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Trains one model with per-weight AdaGrad on softmax cross-entropy over an example order seeded by `opts.seed`.
 * Deterministic for equal inputs.
 */
export function train(
  examples: readonly Example[],
  labels: readonly string[],
  opts: TrainOptions = DEFAULT_TRAIN_OPTIONS,
): LinearModel {
  const feats = examples.map((e) => copyFeatures(extractFeatures(e.text, opts.bits)));
  return trainRun(examples, feats, labels, opts, opts.seed);
}

/**
 * The model whose weights and biases are the mean of the runs' (taken one at a time: a run is tens of MB). Averaged
 * logits are the logits of the averaged weights, so this is an ensemble at the cost of one model.
 */
export function averageOf(runs: Iterable<LinearModel>): LinearModel {
  let model: LinearModel | undefined;
  let n = 0;
  for (const next of runs) {
    n++;
    if (model === undefined) {
      model = next;
      continue;
    }
    for (let i = 0; i < model.weights.length; i++) model.weights[i]! += next.weights[i]!;
    for (let c = 0; c < model.bias.length; c++) model.bias[c]! += next.bias[c]!;
  }
  if (model === undefined) throw new Error('averageOf needs at least one run');
  for (let i = 0; i < model.weights.length; i++) model.weights[i]! /= n;
  for (let c = 0; c < model.bias.length; c++) model.bias[c]! /= n;
  return model;
}

function trainRun(
  examples: readonly Example[],
  feats: readonly Features[],
  labels: readonly string[],
  opts: TrainOptions,
  seed: number,
): LinearModel {
  const k = labels.length;
  const buckets = 1 << opts.bits;
  const weights = new Float32Array(buckets * k);
  const bias = new Float32Array(k);
  const g2 = new Float32Array(buckets * k);
  const g2Bias = new Float64Array(k);
  const model: LinearModel = { labels, bits: opts.bits, temperature: 1, coverageAlpha: 0, weights, bias };
  const p = new Float64Array(k);
  const lr = opts.learningRate;
  const spread = opts.smoothing / k;
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (const n of epochOrder(examples.length, seed, epoch)) {
      const f = feats[n]!;
      scoreFeatures(model, f, p);
      softmax(p, k, 1);
      // The gradient of cross-entropy against the smoothed target: p minus (1 - smoothing) on the label, spread on all
      for (let c = 0; c < k; c++) p[c]! -= spread;
      p[examples[n]!.label]! -= 1 - opts.smoothing;
      for (let c = 0; c < k; c++) {
        const g = p[c]!;
        g2Bias[c] += g * g;
        bias[c]! -= (lr * g) / Math.sqrt(g2Bias[c]! + 1e-8);
      }
      for (let i = 0; i < f.length; i++) {
        const v = f.value[i]!;
        const row = f.index[i]! * k;
        for (let c = 0; c < k; c++) {
          const g = v * p[c]!;
          if (g === 0) continue;
          const at = row + c;
          g2[at]! += g * g;
          weights[at]! -= (lr * g) / Math.sqrt(g2[at]!);
        }
      }
    }
  }
  return model;
}

/** Examples an epoch can order: a 32-bit hash times this, plus an index, stays an exact double (2 ** 53) */
const MAX_EXAMPLES = 2 ** 21;

/**
 * The order an epoch visits `n` examples in: by a hash of each one's index, the seed and the epoch. Examples added
 * after the others (an operator's corrections) fall in among them and leave their order as it was, so a retrain with a
 * few more lines moves the models by what those lines teach, not by a new shuffle of everything: the corrections gate
 * (scripts/train/gate.ts) compares what the corrections did, not two training draws
 */
export function epochOrder(n: number, seed: number, epoch: number): Uint32Array {
  if (n > MAX_EXAMPLES) throw new Error(`${n} training examples: at most ${MAX_EXAMPLES} can be ordered`);
  const keys = new Float64Array(n);
  const salt = mix32(mix32(seed) ^ Math.imul(epoch + 1, 0x9e3779b1));
  // Hash in the high bits, index in the low: ties cannot reorder, and one typed-array sort does it
  for (let i = 0; i < n; i++) keys[i] = mix32(i ^ salt) * MAX_EXAMPLES + i;
  keys.sort();
  return Uint32Array.from(keys, (key) => key % MAX_EXAMPLES);
}

/** Murmur3's 32-bit finaliser: every input bit moves every output bit */
function mix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function copyFeatures(f: Features): Features {
  return {
    index: f.index.slice(0, f.length),
    value: f.value.slice(0, f.length),
    length: f.length,
    lexical: f.lexical.slice(0, f.lexicalLength),
    lexicalLength: f.lexicalLength,
  };
}

/** Raw class scores (before softmax) and lexical coverage for each text. */
export function predictLogits(
  model: LinearModel,
  texts: readonly string[],
): { logits: Float64Array; coverage: number }[] {
  const f = newFeatures();
  const k = model.labels.length;
  const seen = (bucket: number): boolean => {
    for (let c = 0; c < k; c++) if (model.weights[bucket * k + c] !== 0) return true;
    return false;
  };
  return texts.map((t) => {
    const p = new Float64Array(k);
    scoreFeatures(model, extractFeatures(t, model.bits, f), p);
    return { logits: p, coverage: coverage(f, seen) };
  });
}

/** What calibration fits: see `temperatureAt`. */
export interface Calibration {
  readonly temperature: number;
  readonly coverageAlpha: number;
}

/**
 * Temperature and coverage factor minimising held-out negative log-likelihood: a grid over the factor, and for
 * each a golden-section search over log T.
 */
export function fitCalibration(
  held: readonly { logits: Float64Array; coverage: number }[],
  labels: readonly number[],
): Calibration {
  const p = new Float64Array(held[0]?.logits.length ?? 0);
  const nll = (t: number, alpha: number): number => {
    let sum = 0;
    held.forEach(({ logits, coverage: cover }, i) => {
      p.set(logits);
      softmax(p, p.length, temperatureAt(t, alpha, cover));
      sum -= Math.log(Math.max(p[labels[i]!]!, 1e-12));
    });
    return sum;
  };
  let best: Calibration & { loss: number } = { temperature: 1, coverageAlpha: 0, loss: Infinity };
  for (let step = 0; step <= 12; step++) {
    const alpha = step * 0.25;
    let lo = Math.log(0.05);
    let hi = Math.log(20);
    const phi = (Math.sqrt(5) - 1) / 2;
    for (let i = 0; i < 30; i++) {
      const a = hi - phi * (hi - lo);
      const b = lo + phi * (hi - lo);
      if (nll(Math.exp(a), alpha) < nll(Math.exp(b), alpha)) hi = b;
      else lo = a;
    }
    const temperature = Number(Math.exp((lo + hi) / 2).toFixed(4));
    const loss = nll(temperature, alpha);
    if (loss < best.loss - 1e-6) best = { temperature, coverageAlpha: alpha, loss };
  }
  return { temperature: best.temperature, coverageAlpha: best.coverageAlpha };
}
