/**
 * The classifier contracts: what a `kind: 'classifier'` plugin's service implements (`Classifier`) and what the
 * `bounce-classifier` API plugin offers other plugins (`ReplyClassifier`). Generated from `spec/contracts/`.
 */
export type {
  Classification,
  ClassifierModel,
  Classifier,
  ClassifyOptions,
  Explanation,
  ExplanationFeature,
} from '../../generated/contracts/classifier.ts';
export type { ReplyClassifier } from '../../generated/contracts/reply-classifier.ts';
import { documents } from '../../generated/openapi.ts';

/** The most features an explanation names: `maxItems` of Explanation.features in spec/openapi/bounce-classifier.yaml */
export const EXPLANATION_FEATURES: number =
  documents['bounce-classifier'].components.schemas.Explanation.properties.features.maxItems;
