import type { ClassifierModel } from '../../runtime/mod.ts';
import { classifyPacked, loadModels } from './_models.ts';
import type { ModelConfig, Models, PackedResults } from './_models.ts';

/** One task: a model and a batch of normalised texts */
export interface ClassifyTask {
  model: ClassifierModel;
  texts: string[];
}

// Read once per worker thread: every later task of this worker reuses the loaded models
let models: Promise<Models> | undefined;

/** Pool task: classifies a batch of normalised texts with one model */
export default async function classifyTask(
  task: ClassifyTask,
  init: { config: ModelConfig; baseDir: string },
): Promise<PackedResults> {
  models ??= loadModels(init.config, init.baseDir);
  return classifyPacked((await models)[task.model], task.texts);
}
