import type { components } from '../../generated/types/bounce-classifier.ts';
import { EXPLANATION_FEATURES, type Classifier, type ClassifierModel } from '../../runtime/mod.ts';
import type { Answer } from './classify.ts';

/** What decided a class, as the API answers it (`?explain=true`) */
export type ApiExplanation = components['schemas']['Explanation'];

/** Distinct texts explained between two turns of the event loop: the built-in model's take up to 2 ms each */
const EXPLAINED_PER_TURN = 16;

/**
 * `answers` (the formatted `results` of `texts`) with what decided each class as `explanation`, as `?explain=true` and
 * `capstan classify --explain` answer it: the operator's correction where one answered, else the classifier's rule or
 * features; none where the classifier cannot explain
 */
export async function withExplanations<A extends object>(
  classifier: Classifier,
  model: ClassifierModel,
  texts: readonly string[],
  results: readonly Answer[],
  answers: readonly A[],
  signal?: AbortSignal,
): Promise<(A & { explanation?: ApiExplanation })[]> {
  const explanations = await explainTexts(classifier, model, texts, signal);
  return answers.map((answer, i) => {
    const correction = results[i]!.correction;
    const explanation = correction === undefined ? explanations[i] : { by: 'correction' as const, correction };
    return explanation ? { ...answer, explanation } : answer;
  });
}

/**
 * Explains normalised texts, in input order, each distinct text once; undefined for each when the classifier cannot
 * explain. Computed on every request, never cached: the cache keeps classes only, so a plain answer costs what it did.
 * `explain` is synchronous: a large batch yields to other requests between slices, and stops when `signal` aborts
 */
async function explainTexts(
  classifier: Classifier,
  model: ClassifierModel,
  texts: readonly string[],
  signal?: AbortSignal,
): Promise<(ApiExplanation | undefined)[]> {
  if (typeof classifier.explain !== 'function') return texts.map(() => undefined);
  const seen = new Map<string, ApiExplanation>();
  const out: ApiExplanation[] = [];
  for (const text of texts) {
    let explained = seen.get(text);
    if (explained === undefined) {
      if (seen.size > 0 && seen.size % EXPLAINED_PER_TURN === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        signal?.throwIfAborted();
      }
      explained = toApi(classifier.explain(model, text));
      seen.set(text, explained);
    }
    out.push(explained);
  }
  return out;
}

function toApi({ rule, features }: { rule?: unknown; features?: unknown }): ApiExplanation {
  if (typeof rule === 'string') return { by: 'rule', rule };
  if (!Array.isArray(features)) return { by: 'model' };
  // A custom classifier's features are copied field by field: whatever else it put there is not answered
  const named = features
    .filter(
      (f): f is { feature: string; weight: number } => typeof f?.feature === 'string' && Number.isFinite(f?.weight),
    )
    .slice(0, EXPLANATION_FEATURES)
    .map(({ feature, weight }) => ({ feature, weight }));
  return { by: 'model', features: named };
}

/** An explanation as one column: empty when the classifier gives none */
export function explanationColumn(explanation: ApiExplanation | undefined): string {
  if (!explanation) return '';
  if (explanation.by === 'rule') return `rule=${explanation.rule}`;
  if (explanation.by === 'correction') return `correction=${explanation.correction}`;
  return `model=${(explanation.features ?? []).map(({ feature, weight }) => `${feature}:${weight}`).join(',')}`;
}
