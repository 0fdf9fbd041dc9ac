/** The two model families a classifier serves: bounce next action and backoff */
export type ClassifierModel = 'bnac' | 'backoff';

/** One classification: a class from the model's closed list and the probability of that class */
export interface Classification {
  label: string;
  /** Calibrated probability of `label`, in [0, 1] */
  probability: number;
}

/** Options of one `classify` call */
export interface ClassifyOptions {
  /** Aborts pending work; the promise then rejects */
  signal?: AbortSignal;
}

/**
 * What a `kind: 'classifier'` plugin's `service` implements. It receives normalised texts (the API plugin
 * normalises and caches) and answers one classification per text, in input order. It must be a pure
 * function of the text: the same text and version always give the same classification.
 */
export interface Classifier {
  /** Changes whenever any model's answers may change; part of every cache key */
  readonly version: string;
  /** Classifies texts, one result per text in input order; an empty input answers `[]` */
  classify(model: ClassifierModel, texts: readonly string[], options?: ClassifyOptions): Promise<Classification[]>;
}
