import type { Classification, ClassifierModel, PluginMetrics } from '../../runtime/mod.ts';
import type { ResultCache } from './cache/result-cache.ts';

/** What the API counts: answered classifications and cache lookups */
export interface ClassifierMetrics {
  /** Counts a batch's answers by model and class, one increment per distinct class */
  answered(model: ClassifierModel, results: readonly Classification[]): void;
  /** Counts one cache lookup of `hits + misses` texts */
  looked(model: ClassifierModel, hits: number, misses: number): void;
}

/** Declares the plugin's families; the cache's size is read at scrape time, not counted per request */
export function classifierMetrics(metrics: PluginMetrics, cache: () => ResultCache | undefined): ClassifierMetrics {
  const classifications = metrics.counter({
    name: 'classifications_total',
    help: 'Replies classified (cached or not), by model and class',
    labelNames: ['model', 'class'],
  });
  const hits = metrics.counter({
    name: 'cache_hits_total',
    help: 'Texts the classification cache answered, by model',
    labelNames: ['model'],
  });
  const misses = metrics.counter({
    name: 'cache_misses_total',
    help: 'Texts the classification cache did not hold, by model',
    labelNames: ['model'],
  });
  metrics.gauge({
    name: 'cache_entries',
    help: 'Results held by the classification cache in memory',
    collect: (gauge) => {
      const stats = cache()?.stats();
      if (stats) gauge.set({}, stats.number_of_elements);
    },
  });
  metrics.gauge({
    name: 'cache_bytes',
    help: 'Bytes the classification cache counts for its entries in memory',
    collect: (gauge) => {
      const stats = cache()?.stats();
      if (stats) gauge.set({}, stats.size_in_bytes);
    },
  });
  const byModel = { bnac: { model: 'bnac' }, backoff: { model: 'backoff' } } as const;
  return {
    answered(model, results) {
      if (results.length === 1) {
        classifications.inc({ model, class: results[0]!.label });
        return;
      }
      const counts = new Map<string, number>();
      for (const { label } of results) counts.set(label, (counts.get(label) ?? 0) + 1);
      for (const [label, count] of counts) classifications.inc({ model, class: label }, count);
    },
    looked(model, hitCount, missCount) {
      if (hitCount > 0) hits.inc(byModel[model], hitCount);
      if (missCount > 0) misses.inc(byModel[model], missCount);
    },
  };
}
