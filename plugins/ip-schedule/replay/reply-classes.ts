/**
 * Classes of the replies of failed attempts, through the bounce-classifier's `ReplyClassifier` service: the same
 * normaliser, classifier and per-normalised-reply cache as `POST /v1/backoff/events`. In front of it a memo of raw
 * replies, so a log's thousands of repeats of one reply cost one lookup: the classifier is pure, so the same raw
 * reply always gets the same classes.
 */
import type { ReplyClassifier } from '../../../runtime/mod.ts';
import { detach } from './attempt.ts';

/** The two classes of one reply */
export interface ReplyClasses {
  bnac: string;
  backoff: string;
}

/** Raw replies remembered at most; past it the oldest go (a long log's replies change with the days) */
export const MEMO_SIZE = 100_000;

export class ReplyClassCache {
  readonly #classifier: ReplyClassifier;
  readonly #memo = new Map<string, ReplyClasses>();
  readonly #memoSize: number;
  /** Distinct replies sent to the classifier */
  classified = 0;

  /** `memoSize` 0: every reply goes to the classifier service (its cache is then the only one) */
  constructor(classifier: ReplyClassifier, memoSize = MEMO_SIZE) {
    this.#classifier = classifier;
    this.#memoSize = memoSize;
  }

  /** The classes of each reply, in order: replies not in the memo are classified in one call per model */
  async classify(replies: readonly string[]): Promise<ReplyClasses[]> {
    const out = new Array<ReplyClasses>(replies.length);
    const missing = new Map<string, number[]>();
    replies.forEach((reply, index) => {
      const known = this.#memo.get(reply);
      if (known) out[index] = known;
      else if (missing.has(reply)) missing.get(reply)!.push(index);
      else missing.set(reply, [index]);
    });
    if (missing.size === 0) return out;
    const texts = [...missing.keys()];
    const [bnac, backoff] = await Promise.all([
      this.#classifier.classifyReplies('bnac', texts),
      this.#classifier.classifyReplies('backoff', texts),
    ]);
    this.classified += texts.length;
    texts.forEach((text, k) => {
      const classes = { bnac: bnac[k]!.label, backoff: backoff[k]!.label };
      for (const index of missing.get(text)!) out[index] = classes;
      this.#remember(text, classes);
    });
    return out;
  }

  #remember(reply: string, classes: ReplyClasses): void {
    if (this.#memoSize === 0) return;
    if (this.#memo.size >= this.#memoSize) this.#memo.delete(this.#memo.keys().next().value!);
    this.#memo.set(detach(reply), classes);
  }
}
