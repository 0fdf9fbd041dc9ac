import { errors } from './errors.ts';
import type { Classification, Classifier, ClassifierModel } from '../../runtime/mod.ts';
import type { ResultCache } from './cache/result-cache.ts';
import { CLASSES } from './classes.ts';
import { withStatusText } from './status-text.ts';
import type { ClassifierMetrics } from './metrics.ts';

/** Options of one classification request */
export interface ClassifyRequestOptions {
  /** false: the cache is neither read nor written */
  useCache: boolean;
  signal?: AbortSignal;
}

/**
 * The classifier's input contract, a reply that is only a code given its status's description first
 * (`withStatusText`); or the replies as sent when it has none (plugin API 1.0 classifiers)
 */
export function normaliserOf(classifier: Pick<Classifier, 'normalise'>): (message: string) => string {
  return typeof classifier.normalise === 'function'
    ? (message) => classifier.normalise!(withStatusText(message))
    : (message) => message;
}

/** A class as answered: the classifier's, or an operator's correction's (`correction`, its id; probability 1) */
export interface Answer extends Classification {
  correction?: string;
}

/** Operators' corrections by normalised text (`corrections/corrections.ts`) */
export interface CorrectionLookup {
  lookup(model: ClassifierModel, text: string): { label: string; id: string } | undefined;
}

/**
 * What classification works with; `metrics`, when given, counts every answer (the endpoints and the service alike);
 * `corrections`, when given, are laid over the classifier's answers (never cached: the cache keeps its classes)
 */
export interface ClassifyDeps {
  classifier: Classifier;
  cache?: ResultCache;
  metrics?: Pick<ClassifierMetrics, 'answered'>;
  corrections?: CorrectionLookup;
}

/**
 * Classifies texts already normalised: answers what the cache holds and sends the rest, each distinct text once, to
 * the classifier in one call, and counts the answers. Results come back in input order.
 */
export async function classifyNormalised(
  deps: ClassifyDeps,
  model: ClassifierModel,
  texts: readonly string[],
  options: ClassifyRequestOptions,
): Promise<Answer[]> {
  const results: Answer[] = await lookupAndClassify(deps, model, texts, options);
  if (deps.corrections) {
    for (let i = 0; i < texts.length; i++) {
      const corrected = deps.corrections.lookup(model, texts[i]!);
      if (corrected) results[i] = { label: corrected.label, probability: 1, correction: corrected.id };
    }
  }
  deps.metrics?.answered(model, results);
  return results;
}

async function lookupAndClassify(
  deps: ClassifyDeps,
  model: ClassifierModel,
  texts: readonly string[],
  options: ClassifyRequestOptions,
): Promise<Classification[]> {
  const results =
    options.useCache && deps.cache
      ? deps.cache.lookup(model, texts)
      : new Array<Classification | undefined>(texts.length);
  // A batch often repeats a reply: classify each distinct missing text once
  const missing = new Map<string, number[]>();
  for (let i = 0; i < texts.length; i++) {
    if (results[i] !== undefined) continue;
    const positions = missing.get(texts[i]!);
    if (positions) positions.push(i);
    else missing.set(texts[i]!, [i]);
  }
  if (missing.size === 0) return results as Classification[];
  const missingTexts = [...missing.keys()];
  const fresh = await deps.classifier.classify(model, missingTexts, { signal: options.signal });
  checkResults(model, fresh, missingTexts.length);
  let k = 0;
  for (const positions of missing.values()) {
    const result = fresh[k++]!;
    for (const position of positions) results[position] = result;
  }
  if (options.useCache) deps.cache?.store(model, missingTexts, fresh);
  return results as Classification[];
}

// A custom classifier that breaks the contract must give an error, never a class the API does not know
function checkResults(model: ClassifierModel, results: readonly Classification[], expected: number): void {
  if (!Array.isArray(results) || results.length !== expected) {
    throw errors.BOUNCE_ERR_RESULT_COUNT(String((results as unknown[])?.length), expected);
  }
  for (const result of results) {
    const { label, probability } = result ?? {};
    if (!CLASSES[model].has(label) || !(probability >= 0 && probability <= 1)) {
      throw errors.BOUNCE_ERR_RESULT(model, JSON.stringify(result));
    }
  }
}
