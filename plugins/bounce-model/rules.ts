/*
 * First-match rules over normalised bounce replies (./normalise.ts), kept as data in ./rules.json in the
 * spirit of KumoMTA's bounce classifier rules. A rule decides a class only where the reply's own words make
 * it certain (a named block list, greylisting, SPF/DKIM/DMARC, vendor tags); every other reply is left to
 * the trained models.
 *
 * A rule is `{id, all, none?, only?, bnac?, backoff?, why}`. `all` is an AND of groups, each group an OR of
 * phrases; any phrase of `none` vetoes the rule. `only` lists the words a reply may hold besides the words of
 * the rule's `all` phrases and its leading reply code and enhanced status code: a rule for what a reply does not
 * say (a bare "550 Blocked" names no cause) cannot list every cause as a veto, so it fires only while no other
 * word is there.
 * A phrase is one or more words, matched as a whole-word sequence of the normalised text (words are separated
 * by single spaces); a phrase ending in `*` lets its last word match as a prefix (`blacklist*` matches
 * `blacklisted`). A rule may decide one model only: the other model then falls through to later rules.
 *
 * Speed: at compile time every phrase is indexed under one of its words (an open-addressing hash table
 * of words keyed by length and first, second and last chars, plus first-letter buckets for one-word
 * prefixes), and each rule under the phrases of its most selective group. Matching walks the text word by
 * word with indexOf (no split, no allocation); each known word stamps the phrases that may be present and
 * collects the candidate rules, which are checked in rule order. A one-word phrase is decided by its stamp
 * alone; a longer phrase whose key word was seen is confirmed by indexOf with word-boundary checks. Both
 * models are answered in one pass and the last text's answer is kept, because callers ask for `bnac` and
 * `backoff` of the same text in turn.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { BACKOFF_CLASSES, BNAC_CLASSES } from '../../generated/data/bounce-classifier.ts';
import { isCodeWord } from './features.ts';
import type { BackoffClass, BnacClass } from '../../generated/data/bounce-classifier.ts';

/** The two label sets a rule can decide. */
export type RuleModel = 'bnac' | 'backoff';

/** One rule as loaded from the rule file. */
export interface Rule {
  readonly id: string;
  /** AND of groups; each group is an OR of phrases. */
  readonly all: readonly (readonly string[])[];
  /** Phrases that veto the rule. */
  readonly none: readonly string[];
  /** When given, the only words the text may hold besides the `all` phrases' words and its leading codes. */
  readonly only?: readonly string[];
  readonly bnac?: BnacClass;
  readonly backoff?: BackoffClass;
  /** Which class the rule decides and why that is certain. */
  readonly why: string;
}

/** The rule that decided a model, and the class it gave. */
export interface RuleMatch {
  readonly id: string;
  readonly label: string;
}

/** A validated, indexed rule table. */
export interface CompiledRules {
  /** The rules, in order. */
  readonly rules: readonly Rule[];
  /** First rule deciding `model` that matches the normalised text, or undefined. */
  match(model: RuleModel, normalisedText: string): RuleMatch | undefined;
}

const RULE_KEYS = new Set(['id', 'all', 'none', 'only', 'bnac', 'backoff', 'why']);
const ID_RE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
// A word of a normalised text: letters, digits, marks, underscores and in-word apostrophes, lower case.
const WORD_RE = /^[\p{L}\p{N}\p{M}_]+(?:'[\p{L}\p{N}\p{M}_]+)*$/u;
const MIN_PREFIX = 3;
const BNAC_SET = new Set<string>(BNAC_CLASSES);
const BACKOFF_SET = new Set<string>(BACKOFF_CLASSES);

// A phrase to look for: `seq` phrases (several words) need a substring check once their key word is seen;
// a one-word phrase is present as soon as the word scan meets its word (or a word starting with its stem).
interface Phrase {
  readonly seq: boolean;
  /** The phrase without its `*`. */
  readonly core: string;
  /** Whether the phrase's last word must end where the phrase ends (no `*`). */
  readonly exactEnd: boolean;
}

interface CompiledRule {
  readonly groups: readonly Int32Array[]; // phrase numbers
  readonly none: Int32Array;
  readonly only: ReadonlySet<string> | undefined;
  readonly bnac: RuleMatch | undefined;
  readonly backoff: RuleMatch | undefined;
}

// What meeting a word (or a word with a given stem) tells: rules that become candidates, phrases that may be present.
interface IndexEntry {
  readonly rules: number[];
  readonly phrases: number[];
}

interface PrefixEntry extends IndexEntry {
  readonly stem: string;
}

/**
 * Validates a rule table (the parsed JSON) and builds its matcher. Throws an error naming the rule when a
 * rule is malformed: unknown key or class, duplicate id, empty group, bad phrase, no class decided.
 */
export function compileRules(rules: unknown): CompiledRules {
  if (!Array.isArray(rules)) throw new Error('bounce rules: the rule table must be a JSON array of rules');
  const loaded: Rule[] = [];
  const ids = new Set<string>();
  for (let i = 0; i < rules.length; i++) {
    const rule = validateRule(rules[i], i);
    if (ids.has(rule.id)) throw new Error(`bounce rules: rule "${rule.id}": duplicate id`);
    ids.add(rule.id);
    loaded.push(rule);
  }
  return buildMatcher(Object.freeze(loaded));
}

function validateRule(raw: unknown, index: number): Rule {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new Error(`bounce rules: rule #${index}: must be an object`);
  }
  const r = raw as Record<string, unknown>;
  if (typeof r.id !== 'string' || !ID_RE.test(r.id)) {
    throw new Error(`bounce rules: rule #${index}: "id" must be a kebab-case string, got ${JSON.stringify(r.id)}`);
  }
  const id = r.id;
  const fail = (message: string): never => {
    throw new Error(`bounce rules: rule "${id}": ${message}`);
  };
  for (const key of Object.keys(r)) if (!RULE_KEYS.has(key)) fail(`unknown key "${key}"`);
  if (!Array.isArray(r.all) || r.all.length === 0) fail('"all" must be a non-empty array of phrase groups');
  const all = (r.all as unknown[]).map((group, g) => {
    if (!Array.isArray(group) || group.length === 0) return fail(`group ${g} of "all" is empty or not an array`);
    return Object.freeze(group.map((p) => checkPhrase(p, fail)));
  });
  if (r.none !== undefined && !Array.isArray(r.none)) fail('"none" must be an array of phrases');
  const none = ((r.none as unknown[] | undefined) ?? []).map((p) => checkPhrase(p, fail));
  if (r.only !== undefined && (!Array.isArray(r.only) || r.only.length === 0)) {
    fail('"only" must be a non-empty array of words');
  }
  const only = (r.only as unknown[] | undefined)?.map((w) =>
    typeof w === 'string' && WORD_RE.test(w) && w === w.toLowerCase()
      ? w
      : fail(`"only" word ${JSON.stringify(w)} is not one lower-case word of normalised text`),
  );
  // The `only` check compares whole words, so a prefix of `all` could never be among them
  const prefix = only && all.flat().find((p) => p.endsWith('*'));
  if (prefix !== undefined) fail(`phrase "${prefix}" of "all" is a prefix, which a rule with "only" cannot match`);
  if (r.bnac !== undefined && (typeof r.bnac !== 'string' || !BNAC_SET.has(r.bnac)))
    fail(`unknown BNAC class ${JSON.stringify(r.bnac)}`);
  if (r.backoff !== undefined && (typeof r.backoff !== 'string' || !BACKOFF_SET.has(r.backoff))) {
    fail(`unknown backoff class ${JSON.stringify(r.backoff)}`);
  }
  if (r.bnac === undefined && r.backoff === undefined) fail('decides no model: give "bnac", "backoff" or both');
  if (typeof r.why !== 'string' || r.why.trim() === '') fail('"why" must be a non-empty sentence');
  return Object.freeze({
    id,
    all: Object.freeze(all),
    none: Object.freeze(none),
    ...(only === undefined ? {} : { only: Object.freeze(only) }),
    ...(r.bnac === undefined ? {} : { bnac: r.bnac as BnacClass }),
    ...(r.backoff === undefined ? {} : { backoff: r.backoff as BackoffClass }),
    why: r.why as string,
  });
}

function checkPhrase(p: unknown, fail: (message: string) => never): string {
  if (typeof p !== 'string') return fail(`phrase ${JSON.stringify(p)} is not a string`);
  const words = p.split(' ');
  const last = words.length - 1;
  words.forEach((w, i) => {
    const word = i === last && w.endsWith('*') ? w.slice(0, -1) : w;
    if (!WORD_RE.test(word) || word !== word.toLowerCase()) {
      fail(`phrase "${p}" is not normalised text (lower-case words separated by single spaces, "*" only at the end)`);
    }
    if (word !== w && word.length < MIN_PREFIX) fail(`phrase "${p}": a prefix needs at least ${MIN_PREFIX} letters`);
  });
  return p;
}

function isPrefixOnly(phrase: string): boolean {
  return phrase.endsWith('*') && !phrase.includes(' ');
}

// Words that occur in many replies make poor index keys: each hit costs a full rule check.
const COMMON = new Set(
  (
    'a an and are as at be been by can for from has have in is it mail message messages not of on or our please ' +
    'see sender server the this to try was we will with your you __ip__ __url__ __uuid__ __email__ email address ' +
    'recipient user domain host ip rejected denied blocked delivery deliver later again temporarily error'
  ).split(' '),
);
const isCommon = (word: string): boolean => COMMON.has(word) || /^\d/.test(word);

// The exact word of a phrase a text must contain for the phrase to match: its rarest-looking (longest uncommon) word.
function keyWord(phrase: string): string | undefined {
  const words = phrase.split(' ');
  if (phrase.endsWith('*')) words.pop();
  let best: string | undefined;
  for (const w of words) {
    if (
      best === undefined ||
      (isCommon(best) && !isCommon(w)) ||
      (isCommon(best) === isCommon(w) && w.length > best.length)
    )
      best = w;
  }
  return best;
}

// Index cost of a group: prefix-only phrases need bucket scans, common key words produce many candidates.
function groupCost(group: readonly string[]): number {
  let cost = group.length;
  for (const p of group) {
    if (isPrefixOnly(p)) cost += 1000;
    else if (isCommon(keyWord(p)!)) cost += 100;
  }
  return cost;
}

const SPACE = 32;
// Whether every word of `text` after its leading codes is one of `words` (checked once a rule's groups matched).
// Walks the text and stops at the first other word: most texts that reach here hold one early.
function madeOf(text: string, words: ReadonlySet<string>): boolean {
  let leading = true;
  for (let start = 0; start < text.length;) {
    let end = text.indexOf(' ', start);
    if (end < 0) end = text.length;
    const from = start;
    start = end + 1;
    if (end === from || (leading && isCodeWord(text, from, end))) continue;
    leading = false;
    if (!words.has(text.slice(from, end))) return false;
  }
  return true;
}

// Cheap key of the word text[start, end): its length and first, second and last chars (a hit is verified).
function wordKey(text: string, start: number, end: number): number {
  const length = end - start;
  const k = Math.imul(text.charCodeAt(start), 0x9e3779b1) ^ Math.imul(text.charCodeAt(end - 1), 0x85ebca6b);
  return (k ^ Math.imul(length > 1 ? text.charCodeAt(start + 1) : 0, 0xc2b2ae35) ^ Math.imul(length, 0x27d4eb2f)) >>> 0;
}

// Whether `core` occurs in `text` starting at a word, and (exactEnd) ending at a word's end.
function hasPhrase(text: string, core: string, exactEnd: boolean): boolean {
  for (let i = text.indexOf(core); i >= 0; i = text.indexOf(core, i + 1)) {
    const end = i + core.length;
    if (
      (i === 0 || text.charCodeAt(i - 1) === SPACE) &&
      (!exactEnd || end === text.length || text.charCodeAt(end) === SPACE)
    )
      return true;
  }
  return false;
}

function buildMatcher(rules: readonly Rule[]): CompiledRules {
  const phrases: Phrase[] = [];
  const phraseIds = new Map<string, number>();
  const exact = new Map<string, IndexEntry>();
  const prefixes: PrefixEntry[] = [];
  const entryFor = (phrase: string): IndexEntry => {
    if (isPrefixOnly(phrase)) {
      const stem = phrase.slice(0, -1);
      let entry = prefixes.find((e) => e.stem === stem);
      if (!entry) prefixes.push((entry = { stem, rules: [], phrases: [] }));
      return entry;
    }
    const key = keyWord(phrase)!;
    let entry = exact.get(key);
    if (!entry) exact.set(key, (entry = { rules: [], phrases: [] }));
    return entry;
  };
  const phraseId = (phrase: string): number => {
    let id = phraseIds.get(phrase);
    if (id === undefined) {
      id = phrases.length;
      phraseIds.set(phrase, id);
      const exactEnd = !phrase.endsWith('*');
      phrases.push({ seq: phrase.includes(' '), core: exactEnd ? phrase : phrase.slice(0, -1), exactEnd });
      entryFor(phrase).phrases.push(id);
    }
    return id;
  };
  const compiled: CompiledRule[] = rules.map((r, i) => {
    let trigger = r.all[0]!;
    for (const g of r.all) if (groupCost(g) < groupCost(trigger)) trigger = g;
    for (const phrase of trigger) {
      const list = entryFor(phrase).rules;
      if (list[list.length - 1] !== i) list.push(i);
    }
    return {
      groups: r.all.map((g) => Int32Array.from(g, phraseId)),
      none: Int32Array.from(r.none, phraseId),
      only: r.only && new Set([...r.only, ...r.all.flat().flatMap((p) => p.split(' '))]),
      bnac: r.bnac && Object.freeze({ id: r.id, label: r.bnac }),
      backoff: r.backoff && Object.freeze({ id: r.id, label: r.backoff }),
    };
  });

  // Open-addressing table of the indexed words: hash, entry number; keys verify a hash hit.
  const keys = [...exact.keys()];
  const entries = [...exact.values()];
  let size = 16;
  while (size < keys.length * 4) size *= 2;
  const mask = size - 1;
  const slotHash = new Uint32Array(size);
  const slotEntry = new Int32Array(size).fill(-1);
  keys.forEach((key, e) => {
    const h = wordKey(key, 0, key.length);
    let slot = (h ^ (h >>> 15)) & mask;
    while (slotEntry[slot] !== -1) slot = (slot + 1) & mask;
    slotHash[slot] = h;
    slotEntry[slot] = e;
  });
  // One-word prefixes by the first char of their stem (ASCII table, Map for the rest).
  const asciiPrefixes: (PrefixEntry[] | undefined)[] = new Array(128).fill(undefined);
  const otherPrefixes = new Map<number, PrefixEntry[]>();
  for (const entry of prefixes) {
    const c = entry.stem.charCodeAt(0);
    const list = (c < 128 ? asciiPrefixes[c] : otherPrefixes.get(c)) ?? [];
    list.push(entry);
    if (c < 128) asciiPrefixes[c] = list;
    else otherPrefixes.set(c, list);
  }

  const phraseSeen = new Uint32Array(phrases.length);
  const ruleSeen = new Uint32Array(rules.length);
  const candidates = new Int32Array(rules.length);
  let epoch = 0;
  let n = 0;
  let current = '';
  let lastText: string | undefined;
  let lastBnac: RuleMatch | undefined;
  let lastBackoff: RuleMatch | undefined;

  const meet = (entry: IndexEntry): void => {
    const ps = entry.phrases;
    for (let p = 0; p < ps.length; p++) phraseSeen[ps[p]!] = epoch;
    const rs = entry.rules;
    for (let h = 0; h < rs.length; h++) {
      const r = rs[h]!;
      if (ruleSeen[r] !== epoch) {
        ruleSeen[r] = epoch;
        candidates[n++] = r;
      }
    }
  };

  // The word text[start, end): its index entry, and the prefixes it starts with.
  const word = (text: string, start: number, end: number): void => {
    const length = end - start;
    const h = wordKey(text, start, end);
    for (let slot = (h ^ (h >>> 15)) & mask; slotEntry[slot] !== -1; slot = (slot + 1) & mask) {
      const e = slotEntry[slot]!;
      if (slotHash[slot] === h && keys[e]!.length === length && text.startsWith(keys[e]!, start)) {
        meet(entries[e]!);
        break;
      }
    }
    const c = text.charCodeAt(start);
    const bucket = c < 128 ? asciiPrefixes[c] : otherPrefixes.get(c);
    if (bucket !== undefined) {
      for (let b = 0; b < bucket.length; b++) {
        const stem = bucket[b]!.stem;
        if (stem.length <= length && text.startsWith(stem, start)) meet(bucket[b]!);
      }
    }
  };

  const present = (id: number): boolean => {
    if (phraseSeen[id] !== epoch) return false;
    const phrase = phrases[id]!;
    return !phrase.seq || hasPhrase(current, phrase.core, phrase.exactEnd);
  };

  const matches = (rule: CompiledRule): boolean => {
    for (const group of rule.groups) {
      let any = false;
      for (let p = 0; p < group.length; p++) {
        if (present(group[p]!)) {
          any = true;
          break;
        }
      }
      if (!any) return false;
    }
    const none = rule.none;
    for (let p = 0; p < none.length; p++) if (present(none[p]!)) return false;
    return rule.only === undefined || madeOf(current, rule.only);
  };

  const evaluate = (text: string): void => {
    lastText = text;
    lastBnac = undefined;
    lastBackoff = undefined;
    if (++epoch === 0xffffffff) {
      phraseSeen.fill(0);
      ruleSeen.fill(0);
      epoch = 1;
    }
    n = 0;
    // Words are separated by single spaces (the normaliser's output); empty words are skipped.
    for (let start = 0; start < text.length;) {
      let end = text.indexOf(' ', start);
      if (end < 0) end = text.length;
      if (end > start) word(text, start, end);
      start = end + 1;
    }
    if (n === 0) return;
    // Rule order decides: sort the few candidates (insertion sort, n is small).
    for (let i = 1; i < n; i++) {
      const v = candidates[i]!;
      let j = i - 1;
      while (j >= 0 && candidates[j]! > v) {
        candidates[j + 1] = candidates[j]!;
        j--;
      }
      candidates[j + 1] = v;
    }
    current = text;
    for (let i = 0; i < n; i++) {
      const rule = compiled[candidates[i]!]!;
      if (
        (lastBnac !== undefined || rule.bnac === undefined) &&
        (lastBackoff !== undefined || rule.backoff === undefined)
      )
        continue;
      if (!matches(rule)) continue;
      if (lastBnac === undefined) lastBnac = rule.bnac;
      if (lastBackoff === undefined) lastBackoff = rule.backoff;
      if (lastBnac !== undefined && lastBackoff !== undefined) break;
    }
  };

  return {
    rules,
    match(model: RuleModel, normalisedText: string): RuleMatch | undefined {
      if (normalisedText !== lastText) evaluate(normalisedText);
      return model === 'bnac' ? lastBnac : lastBackoff;
    },
  };
}

const RULE_FILE = readFileSync(new URL('./rules.json', import.meta.url));
const RULE_SET = compileRules(JSON.parse(RULE_FILE.toString('utf8')));

/** The rules as loaded, in order (for docs and tests). */
export const RULES: readonly Rule[] = RULE_SET.rules;

/** Short hash of the rule file; part of the model version, so caches drop answers of older rules. */
export const RULES_VERSION = createHash('sha256').update(RULE_FILE).digest('hex').slice(0, 8);

/** First rule deciding `model` that matches the normalised text, or undefined. */
export function matchRule(model: RuleModel, normalisedText: string): RuleMatch | undefined {
  return RULE_SET.match(model, normalisedText);
}
