import type { Answer } from './classify.ts';
import { BACKOFF_TABLE } from '../../generated/data/bounce-classifier.ts';
import type { BackoffClass } from '../../generated/data/bounce-classifier.ts';

/** Turns a classification into a response element */
export type Format = (result: Answer) => unknown;

// An operator's correction is marked; other answers are exactly the original service's
const marked = (result: Answer) => (result.correction === undefined ? undefined : { corrected: true as const });

/** BNAC result v1: the class only, as the original service answered it */
export const bnacV1: Format = ({ label }) => ({ class: label });

/** BNAC result v2: class and probability */
export const bnacV2: Format = (result) => ({ class: result.label, probability: result.probability, ...marked(result) });

/** Backoff result: class, fields and actions of the class table, and the probability when asked for */
export function backoffFormat(withProbability: boolean): Format {
  return withProbability
    ? (result) => ({
        class: result.label,
        probability: result.probability,
        ...BACKOFF_TABLE[result.label as BackoffClass],
        ...marked(result),
      })
    : (result) => ({ class: result.label, ...BACKOFF_TABLE[result.label as BackoffClass], ...marked(result) });
}
