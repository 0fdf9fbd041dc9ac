/**
 * What one email may cost: `skip.ts` enforces these in one pass over the bytes before the MIME library sees any.
 * Soft caps cut what no report needs and answer from the rest; hard limits refuse the email with 413
 * (`BOUNCE_ERR_EMAIL_LIMIT`): no real bounce comes near them, and an answer read from the first 1,000 of 100,000
 * parts would be a guess. docs/bounce-classifier.md lists them for operators.
 */

/** Hard: MIME parts of the multiparts read (the top-level one and the multiparts kept inside it), all levels together */
export const MAX_PARTS = 1_000;

/** Hard: multiparts nested in one another (the top level is 1) */
export const MAX_DEPTH = 32;

/** Hard: header bytes of the entities read (the top-level header and every part's), all together */
export const MAX_HEADER_BYTES = 256 * 1024;

/**
 * Hard: header lines of the entities read, folded lines counted: a real bounce has a few hundred, and the MIME library
 * pays for each
 */
export const MAX_HEADER_LINES = 5_000;

/** Soft: most bytes of parts kept for the MIME library (a delivery status of 1,000 recipients takes about 300 KB) */
export const MAX_KEPT_BYTES = 1024 * 1024;

/**
 * Soft: most lines of parts kept: the MIME library pays about 5 µs a line whatever its length, so lines, not bytes,
 * bound its time (a delivery status of 1,000 recipients takes about 8,000)
 */
export const MAX_KEPT_LINES = 12_000;
