import type { BackoffClass, BnacClass } from '../../plugins/bounce-model/labels.ts';

/** Provider or software family; one corpus file each, and the unit held out in evaluation. */
export const FAMILIES = [
  'google', 'microsoft', 'yahoo', 'apple', 'comcast', 'gmx', 'orange', 'mailru', 'yandex', 'chinese',
  'proofpoint', 'mimecast', 'barracuda', 'ironport', 'postfix', 'exim', 'sendmail', 'qmail', 'exchange',
  'zimbra', 'greylisting', 'iberia', 'italy', 'japan',
] as const;

/** One provider family name. */
export type Family = (typeof FAMILIES)[number];

/**
 * A real-world cause of a bounce with its two labels and how each family
 * words it. Templates use `{slot}` for variable parts and `{a|b|c}` for
 * equivalent phrasings.
 */
export interface Situation {
  readonly name: string;
  readonly bnac: BnacClass;
  readonly backoff: BackoffClass;
  readonly templates: Partial<Record<Family, readonly string[]>>;
}

/** Builds a situation (keeps the data files terse). */
export function situation(
  name: string,
  bnac: BnacClass,
  backoff: BackoffClass,
  templates: Partial<Record<Family, readonly string[]>>,
): Situation {
  return { name, bnac, backoff, templates };
}
