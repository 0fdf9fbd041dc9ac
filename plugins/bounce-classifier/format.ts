import type { Classification } from '../../runtime/mod.ts';
import { BACKOFF_TABLE } from '../../generated/data/bounce-classifier.ts';
import type { BackoffClass } from '../../generated/data/bounce-classifier.ts';

/** Turns a classification into a response element */
export type Format = (result: Classification) => unknown;

/** BNAC result v1: the class only */
export const bnacV1: Format = ({ label }) => ({ class: label });

/** BNAC result v2: class and probability */
export const bnacV2: Format = ({ label, probability }) => ({ class: label, probability });

/** Backoff result: class, fields and actions of the class table, and the probability when asked for */
export function backoffFormat(withProbability: boolean): Format {
  return withProbability
    ? ({ label, probability }) => ({ class: label, probability, ...BACKOFF_TABLE[label as BackoffClass] })
    : ({ label }) => ({ class: label, ...BACKOFF_TABLE[label as BackoffClass] });
}
