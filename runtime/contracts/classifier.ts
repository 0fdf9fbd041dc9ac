/** The two model families a classifier serves: bounce next action and backoff */
export type ClassifierModel = 'bnac' | 'backoff';

/** One classification: a class from the model's closed list and the probability of that class */
export interface Classification {
  label: string;
  /** Calibrated probability of `label`, in [0, 1] */
  probability: number;
}

/** One input feature of a classifier's model and how much it weighed for the answered class (higher: more) */
export interface ExplanationFeature {
  feature: string;
  weight: number;
}

/** Why a text got its class: the rule that decided it, when one did, else the model's top features when it names them */
export interface Explanation extends Classification {
  /** Id of the classifier's rule that decided the class; absent when the model did */
  rule?: string;
  /**
   * Optional (plugin API 1.6), when no rule decided: the features that weighed most for the class, heaviest first
   * (the API answers at most five). `bounce-model` names words, weighted by how much the class's log-probability
   * falls without them
   */
  features?: ExplanationFeature[];
}

/** Options of one `classify` call */
export interface ClassifyOptions {
  /** Aborts pending work; the promise then rejects */
  signal?: AbortSignal;
}

/**
 * What a `kind: 'classifier'` plugin's `service` implements. The API plugin hands each raw reply to
 * `normalise` (the classifier's input contract), keys its cache on the result and sends the texts it does not
 * hold to `classify`, which answers one classification per text, in input order. Both must be pure functions:
 * the same text and version always give the same answer.
 */
export interface Classifier {
  /** Changes whenever any answer may change, the normaliser's included; part of every cache key */
  readonly version: string;
  /**
   * Turns a raw bounce reply into the text `classify` takes; `/normalise` answers it and the cache keys on it.
   * Never throws. Without it (plugin API 1.0), `classify` receives the replies as sent. Since plugin API 1.1.
   */
  normalise?(message: string): string;
  /** Classifies texts, one result per text in input order; an empty input answers `[]` */
  classify(model: ClassifierModel, texts: readonly string[], options?: ClassifyOptions): Promise<Classification[]>;
  /**
   * Optional (plugin API 1.3): classifies one text as `classify` does and says what decided it. Meant for the rare
   * explanation (an applied backoff policy's reason), not for throughput
   */
  explain?(model: ClassifierModel, text: string): Explanation;
}

/**
 * What the `bounce-classifier` API plugin offers other plugins as its `service` (plugin API 1.2): raw replies
 * classified exactly as its endpoints classify them, normalised and through its cache
 */
export interface ReplyClassifier {
  classifyReplies(
    model: ClassifierModel,
    messages: readonly string[],
    options?: ClassifyOptions,
  ): Promise<Classification[]>;
  /** Optional (plugin API 1.3): one raw reply normalised and explained; absent when the classifier cannot explain */
  explainReply?(model: ClassifierModel, message: string): Explanation | undefined;
}
