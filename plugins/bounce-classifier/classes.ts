import type { ClassifierModel } from '../../runtime/mod.ts';
import { BACKOFF_CLASSES, BNAC_CLASSES } from '../../generated/data/bounce-classifier.ts';

/**
 * Each model's classes, from the spec's lists (generated/): a result outside them is never answered. Its own module
 * so that the cache and the classification path both read it without importing each other
 */
export const CLASSES: Record<ClassifierModel, ReadonlySet<string>> = {
  bnac: new Set(BNAC_CLASSES),
  backoff: new Set(BACKOFF_CLASSES),
};
