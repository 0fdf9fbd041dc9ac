import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Classification, ClassifierModel } from '../../runtime/mod.ts';
import { loadModel } from './model.ts';

/** Config of the `bounce-model` plugin: model file paths, empty for the built-in ones */
export interface ModelConfig {
  bnac: string;
  backoff: string;
  /** Whether the rule table decides where it matches; false measures the trained models alone */
  rules: boolean;
}

/** A loaded model, as `loadModel` gives it */
export type LoadedModel = Awaited<ReturnType<typeof loadModel>>;

/** Both models of the plugin */
export type Models = Readonly<Record<ClassifierModel, LoadedModel>>;

/** Results of a task, compact so that handing them back from a worker stays cheap */
export interface PackedResults {
  labels: Uint8Array;
  probabilities: Float64Array;
}

const BUILT_IN: Record<ClassifierModel, string> = {
  bnac: fileURLToPath(new URL('./models/bnac.model', import.meta.url)),
  backoff: fileURLToPath(new URL('./models/backoff.model', import.meta.url)),
};

/** Loads both model files; relative paths resolve against the startup document's folder */
export async function loadModels(config: ModelConfig, baseDir: string): Promise<Models> {
  const path = (model: ClassifierModel) => {
    const configured = config[model];
    if (configured === '') return BUILT_IN[model];
    return isAbsolute(configured) ? configured : resolve(baseDir, configured);
  };
  const options = { rules: config.rules };
  const [bnac, backoff] = await Promise.all([loadModel(path('bnac'), options), loadModel(path('backoff'), options)]);
  return { bnac, backoff };
}

/** Classifies texts with one model, packing labels as indices into `model.labels` */
export function classifyPacked(model: LoadedModel, texts: readonly string[]): PackedResults {
  const index = new Map(model.labels.map((label, i) => [label, i]));
  const predictions = model.predictBatch([...texts]);
  const labels = new Uint8Array(predictions.length);
  const probabilities = new Float64Array(predictions.length);
  predictions.forEach((prediction, i) => {
    labels[i] = index.get(prediction.label)!;
    probabilities[i] = prediction.probability;
  });
  return { labels, probabilities };
}

/** Unpacks `classifyPacked` results into `out` from position `offset` */
export function unpack(model: LoadedModel, packed: PackedResults, out: Classification[], offset: number): void {
  for (let i = 0; i < packed.labels.length; i++) {
    out[offset + i] = { label: model.labels[packed.labels[i]!]!, probability: packed.probabilities[i]! };
  }
}
