/*
 * Public loader API of the bounce models. Inputs are NORMALISED texts
 * (plugins/bounce-classifier/normalise.ts); predict is synchronous and
 * allocation-light, meant for the request thread or a worker.
 */
import { readFileSync } from 'node:fs';
import { extractFeatures, newFeatures } from './features.ts';
import { scoreFeatures, softmax } from './linear-model.ts';
import { decodeModel } from './model-file.ts';

/** A class with its calibrated probability in (0, 1]. */
export interface Prediction {
  readonly label: string;
  readonly probability: number;
}

/** A loaded classifier. */
export interface Model {
  /** Model name stored in the file (`bnac` or `backoff`). */
  readonly name: string;
  /** Hash of the weights and settings; cache keys should include it. */
  readonly version: string;
  /** Closed list of classes the model can return. */
  readonly labels: readonly string[];
  /** Classifies one normalised text. */
  predict(normalisedText: string): Prediction;
  /** Classifies normalised texts, in input order. */
  predictBatch(normalisedTexts: readonly string[]): Prediction[];
}

/** Loads a model from a file path or the file's bytes. */
export function loadModel(source: string | Uint8Array): Model {
  const { name, version, model } = decodeModel(typeof source === 'string' ? readFileSync(source) : source);
  const k = model.labels.length;
  const features = newFeatures();
  const scores = new Float64Array(k);
  const predict = (text: string): Prediction => {
    scoreFeatures(model, extractFeatures(text, model.bits, features), scores);
    const best = softmax(scores, k, model.temperature);
    return { label: model.labels[best]!, probability: scores[best]! };
  };
  return {
    name,
    version,
    labels: model.labels,
    predict,
    predictBatch: (texts) => texts.map(predict),
  };
}
