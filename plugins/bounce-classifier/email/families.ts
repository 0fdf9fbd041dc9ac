import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The notice reader's wording, as data: one JSON file per mail-system family in `families/` (its headings, reason
 * leads, delay and final words, each a regular-expression source, case-insensitive, and the fixtures that are its
 * samples). The reader uses the union of all families through one code path, so a new family is a new file.
 */
export interface Family {
  family: string;
  about: string;
  /** Words of a line that introduces the failed recipients listed under it (the line ends with `:` or dashes) */
  headings: string[];
  /** Words of a line that introduces the reason on the lines after it (the line ends with `:`) */
  reason_leads: string[];
  /** Words saying the server still retries */
  delayed: string[];
  /** Words saying the failure is final, which overrule `delayed` */
  final: string[];
  /** Fixtures of `fixtures/` that are samples of the family */
  samples: string[];
}

const FOLDER = join(import.meta.dirname, 'families');

/** Every family, by file name order */
export const FAMILIES: readonly Family[] = readdirSync(FOLDER)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => JSON.parse(readFileSync(join(FOLDER, name), 'utf8')) as Family);

/** The union of the families' wording, as the notice reader uses it */
export const NOTICE_RULES = {
  headings: FAMILIES.flatMap((f) => f.headings),
  reason_leads: FAMILIES.flatMap((f) => f.reason_leads),
  delayed: FAMILIES.flatMap((f) => f.delayed),
  final: FAMILIES.flatMap((f) => f.final),
};
