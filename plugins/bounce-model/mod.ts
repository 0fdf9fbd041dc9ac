/**
 * The built-in classifier plugin: the trained BNAC and backoff models behind the `Classifier` service.
 *
 * Batches run in the worker pool, split into tasks of `taskSize` texts because a task costs more than a
 * message; batches of at most `inlineMax` texts are classified on the main thread, where a pool round
 * trip would cost more than the classification.
 *
 * @example
 * ```ts
 * import { usePlugin } from '../../runtime/mod.ts';
 * import type { Classifier } from '../../runtime/mod.ts';
 * const plugin = await usePlugin({ id: 'bounce-model' });
 * const classifier = plugin.service as Classifier;
 * const [result] = await classifier.classify('bnac', [classifier.normalise!('451 4.7.1 Greylisting in effect')]);
 * console.log(result.label, result.probability); // GRAYLISTING 0.99 (the greylisting rule's precision, measured on the holdout)
 * await plugin.close();
 * ```
 */
import { setMaxListeners } from 'node:events';
import { bounceModelConfigSchema } from '../../generated/validators/plugins/bounce-model.ts';
import { definePlugin, EXPLANATION_FEATURES } from '../../runtime/mod.ts';
import type {
  Classification,
  Classifier,
  ClassifierModel,
  ClassifyOptions,
  Explanation,
  PoolHandle,
} from '../../runtime/mod.ts';
import { classifyPacked, loadModels, unpack } from './_models.ts';
import type { Models, PackedResults } from './_models.ts';
import { normalise } from './normalise.ts';
import type { ClassifyTask } from './worker.ts';

class ModelClassifier implements Classifier {
  readonly version: string;
  readonly #models: Models;
  readonly #pool: PoolHandle | undefined;
  readonly #inlineMax: number;
  readonly #taskSize: number;
  #poolRan = false;

  constructor(models: Models, pool: PoolHandle | undefined, options: { inlineMax: number; taskSize: number }) {
    this.version = `bnac:${models.bnac.version}+backoff:${models.backoff.version}`;
    this.#models = models;
    this.#pool = pool;
    this.#inlineMax = options.inlineMax;
    this.#taskSize = options.taskSize;
  }

  /**
   * Resolves once a pool thread has run a task: the thread loads the models on its first one. After that the answer
   * stands: a probe's task would queue behind classify batches, and a busy instance would read as not ready.
   */
  async ready(): Promise<void> {
    if (!this.#pool || this.#poolRan) return;
    try {
      await this.#pool.run({ model: 'bnac', texts: [] } satisfies ClassifyTask);
      this.#poolRan = true;
    } catch (error) {
      throw new Error(`Worker pool does not run a task: ${(error as Error).message}`);
    }
  }

  normalise(message: string): string {
    return normalise(message);
  }

  explain(model: ClassifierModel, text: string): Explanation {
    const { label, probability, rule, features } = this.#models[model].explain(text);
    if (rule !== undefined) return { label, probability, rule };
    return features === undefined
      ? { label, probability }
      : { label, probability, features: features.slice(0, EXPLANATION_FEATURES).map((f) => ({ ...f })) };
  }

  async classify(
    model: ClassifierModel,
    texts: readonly string[],
    options?: ClassifyOptions,
  ): Promise<Classification[]> {
    options?.signal?.throwIfAborted();
    const loaded = this.#models[model];
    const results = new Array<Classification>(texts.length);
    if (!this.#pool || texts.length <= this.#inlineMax) {
      unpack(loaded, classifyPacked(loaded, texts), results, 0);
      return results;
    }
    const pool = this.#pool;
    // At least one task per thread, so that a large batch uses every thread
    const size = Math.min(this.#taskSize, Math.ceil(texts.length / pool.threads));
    // One listener on the caller's signal, however many tasks listen to ours
    const local = new AbortController();
    setMaxListeners(Math.ceil(texts.length / size) + 1, local.signal);
    const forward = () => local.abort(options?.signal?.reason);
    options?.signal?.addEventListener('abort', forward, { once: true });
    try {
      const tasks: Promise<void>[] = [];
      for (let start = 0; start < texts.length; start += size) {
        const task: ClassifyTask = { model, texts: texts.slice(start, start + size) };
        tasks.push(
          pool
            .run<PackedResults>(task, { signal: local.signal })
            .then((packed) => unpack(loaded, packed, results, start)),
        );
      }
      await Promise.all(tasks);
      return results;
    } catch (error) {
      // One failed task fails the batch: stop the others instead of classifying for nobody
      local.abort(error);
      throw error;
    } finally {
      options?.signal?.removeEventListener('abort', forward);
    }
  }
}

export default definePlugin({
  id: 'bounce-model',
  kind: 'classifier',
  apiVersion: '^1.8.0',
  description: 'Trained BNAC and backoff models (hashed n-gram softmax regression)',
  config: bounceModelConfigSchema,
  capabilities: { pool: { worker: new URL('./worker.ts', import.meta.url).href } },
  async setup(ctx) {
    const models = await loadModels(ctx.config, ctx.baseDir);
    const classifier = new ModelClassifier(models, ctx.pool, ctx.config);
    return { service: classifier, ready: () => classifier.ready() };
  },
});
