/*
 * Writes the labelled bounce corpus, one JSONL file per provider family, to
 * plugins/bounce-model/corpus/. Seeded: the same script gives the same files.
 * Usage: npx tsx scripts/corpus/generate-corpus.ts
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from './random.ts';
import { FAMILIES, type Family, type Situation } from './situation.ts';
import { expand, wrapReply } from './slots.ts';
import { PROTOCOL_SITUATIONS } from './situations-protocol.ts';
import { POLICY_SITUATIONS } from './situations-policy.ts';
import { RECIPIENT_SITUATIONS } from './situations-recipient.ts';
import { TRAFFIC_SITUATIONS } from './situations-traffic.ts';
import { SHARED } from './situations-shared.ts';

const SEED = 20240611;
const PER_SITUATION = 260;
const MIN_PER_FAMILY = 12;
/** Each shared phrasing goes to this many seeded families, ... */
const SHARED_FAMILIES = 4;
/** ... with this many lines each. */
const PER_SHARED = 5;
const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), '../../plugins/bounce-model/corpus');

/** One labelled example as stored in the corpus files. */
export interface CorpusLine {
  text: string;
  bnac: string;
  backoff: string;
}

/** Every situation of the corpus, in a fixed order. */
export const SITUATIONS: readonly Situation[] = [
  ...RECIPIENT_SITUATIONS,
  ...TRAFFIC_SITUATIONS,
  ...POLICY_SITUATIONS,
  ...PROTOCOL_SITUATIONS,
];

/** Generates the corpus grouped by family (pure; the CLI below writes it). */
export function generateCorpus(seed = SEED): Map<Family, CorpusLine[]> {
  const rng = new Rng(seed);
  const byFamily = new Map<Family, CorpusLine[]>(FAMILIES.map((f) => [f, []]));
  for (const s of SITUATIONS) {
    const families = FAMILIES.filter((f) => s.templates[f]);
    const share = Math.max(MIN_PER_FAMILY, Math.ceil(PER_SITUATION / families.length));
    for (const family of families) {
      const templates = s.templates[family]!;
      // A family with many phrasings (the greylisting filters) earns more lines.
      const perFamily = Math.max(share, templates.length * 6);
      emit(rng, s, templates, perFamily, byFamily.get(family)!);
    }
    // Shared phrasings: each to a few seeded families (never the greylisting
    // software family unless the situation is greylisting).
    const pool = FAMILIES.filter((f) => f !== 'greylisting' || s.name === 'greylisting');
    for (const template of SHARED[s.name] ?? []) {
      for (const family of rng.shuffle([...pool]).slice(0, SHARED_FAMILIES)) {
        emit(rng, s, [template], PER_SHARED, byFamily.get(family)!);
      }
    }
  }
  return byFamily;
}

/** Appends up to `n` distinct expansions of `templates` (round-robin) to `out`. */
function emit(rng: Rng, s: Situation, templates: readonly string[], n: number, out: CorpusLine[]): void {
  const seen = new Set<string>();
  // Bounded retries: few-template families cannot yield n distinct texts.
  for (let i = 0; i < n * 4 && seen.size < n; i++) {
    const reply = expand(rng, templates[i % templates.length]!);
    // Replies starting with a code are remote answers the sending MTA may wrap;
    // the others are the sending MTA's own words.
    const text = /^\d{3}[ -]/.test(reply) ? wrapReply(rng, reply) : reply;
    if (seen.has(text)) continue;
    seen.add(text);
    out.push({ text, bnac: s.bnac, backoff: s.backoff });
  }
}

function main(): void {
  mkdirSync(OUT_DIR, { recursive: true });
  let total = 0;
  for (const [family, lines] of generateCorpus()) {
    writeFileSync(join(OUT_DIR, `${family}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    total += lines.length;
  }
  console.log(`wrote ${total} examples to ${OUT_DIR}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
