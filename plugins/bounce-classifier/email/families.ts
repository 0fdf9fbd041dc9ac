import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LISTS_REASONS, READERS } from './forms/layouts.ts';
import type { Layout, Rules } from './forms/layouts.ts';
import type { BounceForm, Email } from './types.ts';

/**
 * The patterns of mail systems' notices, as data: one JSON file per mail-system family in `families/`, each naming
 * the fixtures that are its samples. A family may describe a form of its own (`form`: how its emails are told, which
 * layout they take, and the layout's patterns), read by the one reader of that layout (`forms/layouts.ts`); every
 * family adds its wording (headings, reason leads, delay and final words) to the notice reader, which reads any
 * notice no form knows. Patterns are regular-expression sources, case-insensitive, `^`/`$` at line ends.
 */
export interface Family {
  family: string;
  about: string;
  form?: FormSpec;
  /** Words of a line that introduces the failed recipients listed under it (the line ends with `:` or dashes) */
  headings: string[];
  /** Words of a line that introduces the reason on the lines after it (the line ends with `:`) */
  reason_leads: string[];
  /** Words saying the server still retries */
  delayed: string[];
  /** Words saying the failure is final, which overrule `delayed` */
  final: string[];
  /** Lines of a notice that are the system's own diagnostics, no reply (Exchange's `MSEXCH:IMS:...` line) */
  not_reply: string[];
  /** The system's own words after a reply on its line (qmail's `I'm not going to try again; ...`): cut off */
  trailers: string[];
  /** Fixtures of `fixtures/` that are samples of the family */
  samples: string[];
}

/** A family's own form, as its file gives it */
export interface FormSpec {
  /** The `format` answered for its emails */
  name: string;
  /** Forms are asked in this order, the most specific first */
  order: number;
  layout: Layout;
  /** The email is of this form when any entry matches: every pattern an entry gives for a field matches it */
  detect: { text?: string[]; subject?: string[]; from?: string[] }[];
  /** The layout's patterns (see `Rules`): a string, or a list for the fields that are lists */
  rules: Partial<Record<keyof Rules, string | string[]>>;
}

const FOLDER = join(import.meta.dirname, 'families');

/** Every family, by file name order */
const FAMILIES: readonly Family[] = readdirSync(FOLDER)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => JSON.parse(readFileSync(join(FOLDER, name), 'utf8')) as Family);

/** The union of the families' wording, as the notice reader uses it */
export const NOTICE_RULES = {
  headings: FAMILIES.flatMap((f) => f.headings),
  reason_leads: FAMILIES.flatMap((f) => f.reason_leads),
  delayed: FAMILIES.flatMap((f) => f.delayed),
  final: FAMILIES.flatMap((f) => f.final),
  not_reply: FAMILIES.flatMap((f) => f.not_reply),
  trailers: FAMILIES.flatMap((f) => f.trailers),
};

/** Any family's words saying delivery is still being tried, and saying the failure is final (which overrule them) */
export const DELAYED_WORDS = new RegExp(NOTICE_RULES.delayed.join('|'), 'i');
export const FINAL_WORDS = new RegExp(NOTICE_RULES.final.join('|'), 'i');

const pattern = (source: string) => new RegExp(source, 'im');
/** Any of the sources, as one pattern; undefined for none */
const anyOf = (sources: readonly string[]) => (sources.length > 0 ? pattern(sources.join('|')) : undefined);

/** The layout's patterns compiled; `answer_prefix` is a plain prefix, not a pattern */
function compile(rules: FormSpec['rules']): Rules {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rules)) {
    if (key === 'answer_prefix') out[key] = value;
    else out[key] = Array.isArray(value) ? value.map(pattern) : pattern(value!);
  }
  return out as Rules;
}

/** A family's form: told by its `detect` entries, read by its layout's reader with its patterns and wording */
function formOf(family: Family, spec: FormSpec): BounceForm {
  const detect = spec.detect.map((entry) => ({
    text: (entry.text ?? []).map(pattern),
    subject: (entry.subject ?? []).map(pattern),
    from: (entry.from ?? []).map(pattern),
  }));
  const trailer = anyOf(family.trailers);
  const rules = { ...compile(spec.rules), ...(trailer && { trailer }) };
  const delayed = anyOf(family.delayed);
  const final = anyOf(family.final);
  const read = READERS[spec.layout];
  return {
    name: spec.name,
    listsReasons: LISTS_REASONS.has(spec.layout),
    detect: (email: Email) =>
      detect.some(
        (entry) =>
          entry.text.every((p) => p.test(email.text)) &&
          entry.subject.every((p) => p.test(email.subject)) &&
          entry.from.every((p) => p.test(email.from)),
      ),
    read(email: Email) {
      const words = `${email.subject}\n${email.text}`;
      const late = !!delayed?.test(words) && !final?.test(words);
      const recipients = read(email.text, rules, late);
      return { recipients, delayed: late };
    },
  };
}

/** The families' own forms, in their order */
export const FAMILY_FORMS: readonly BounceForm[] = FAMILIES.flatMap((f) => (f.form ? [f] : []))
  .sort((a, b) => a.form!.order - b.form!.order)
  .map((f) => formOf(f, f.form!));
