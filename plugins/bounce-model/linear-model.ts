/*
 * Multinomial logistic regression over hashed features: scoring, calibrated
 * softmax, and seeded AdaGrad training. Weights are a dense bucket-major
 * matrix (bucket b, class k at b * K + k) so one feature reads K adjacent floats.
 */
import { extractFeatures, newFeatures, type Features } from './features.ts';

/** Trained weights plus what is needed to score with them. */
export interface LinearModel {
  readonly labels: readonly string[];
  readonly bits: number;
  /** Softmax temperature fitted on held-out predictions (1 = none). */
  temperature: number;
  readonly weights: Float32Array;
  readonly bias: Float32Array;
}

/** Training hyper-parameters; all fixed, so training is reproducible. */
export interface TrainOptions {
  readonly bits: number;
  readonly epochs: number;
  readonly learningRate: number;
  readonly seed: number;
}

/** Defaults measured to train fast and generalise across providers. */
export const DEFAULT_TRAIN_OPTIONS: TrainOptions = { bits: 18, epochs: 6, learningRate: 0.2, seed: 7 };

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

/** A normalised text with its class index. */
export interface Example {
  readonly text: string;
  readonly label: number;
}

/** Seeded PRNG (mulberry32) for the example order. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Trains with per-weight AdaGrad on softmax cross-entropy; deterministic for equal inputs. */
export function train(examples: readonly Example[], labels: readonly string[], opts: TrainOptions = DEFAULT_TRAIN_OPTIONS): LinearModel {
  const k = labels.length;
  const buckets = 1 << opts.bits;
  const weights = new Float32Array(buckets * k);
  const bias = new Float32Array(k);
  const g2 = new Float32Array(buckets * k);
  const g2Bias = new Float64Array(k);
  const model: LinearModel = { labels, bits: opts.bits, temperature: 1, weights, bias };
  const feats = examples.map((e) => copyFeatures(extractFeatures(e.text, opts.bits)));
  const order = examples.map((_, i) => i);
  const random = rng(opts.seed);
  const p = new Float64Array(k);
  const lr = opts.learningRate;
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const n of order) {
      const f = feats[n]!;
      scoreFeatures(model, f, p);
      softmax(p, k, 1);
      p[examples[n]!.label]! -= 1;
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

function copyFeatures(f: Features): Features {
  return { index: f.index.slice(0, f.length), value: f.value.slice(0, f.length), length: f.length };
}

/** Raw class scores (before softmax) for each text. */
export function predictLogits(model: LinearModel, texts: readonly string[]): Float64Array[] {
  const f = newFeatures();
  return texts.map((t) => {
    const p = new Float64Array(model.labels.length);
    scoreFeatures(model, extractFeatures(t, model.bits, f), p);
    return p;
  });
}

/** Temperature minimising held-out negative log-likelihood, by golden-section search over log T. */
export function fitTemperature(logits: readonly Float64Array[], labels: readonly number[]): number {
  const nll = (t: number): number => {
    let sum = 0;
    const p = new Float64Array(logits[0]?.length ?? 0);
    logits.forEach((l, i) => {
      p.set(l);
      softmax(p, p.length, t);
      sum -= Math.log(Math.max(p[labels[i]!]!, 1e-12));
    });
    return sum;
  };
  let lo = Math.log(0.05);
  let hi = Math.log(20);
  const phi = (Math.sqrt(5) - 1) / 2;
  for (let i = 0; i < 40; i++) {
    const a = hi - phi * (hi - lo);
    const b = lo + phi * (hi - lo);
    if (nll(Math.exp(a)) < nll(Math.exp(b))) hi = b;
    else lo = a;
  }
  return Number(Math.exp((lo + hi) / 2).toFixed(4));
}
