/*
 * The gathered real-text set (scripts/train/real/replies.jsonl): bounce replies quoted from public mail-server
 * sources and issue threads, each with its source, commit or date, licence and labels by the dev set's rules.
 * Each row belongs to one split, chosen by a hash of its SOURCE (so replies of one file or thread stay together and
 * the held-out parts measure sources never trained on):
 * - `train`: trained on, with the corpus;
 * - `calibration`: never trained on; the model's temperature and probability map are fitted here;
 * - `test`: neither trained nor fitted on; `npm run eval -- --real` reports it.
 * A fourth part, `holdout`, lives in its own file (scripts/train/real/holdout.jsonl): replies gathered after the
 * rules were written, from sources none of the rows above comes from, labelled before any classifier answer was read.
 * Only each rule's probability is measured there (scripts/train/calibrate.ts); nothing is trained or fitted on it, and
 * no rule is written or edited from it: a row a rule was changed for leaves the holdout (into `replies.jsonl`).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalise } from '../../plugins/bounce-model/normalise.ts';

export const REAL_TEXT_FILE = join(dirname(fileURLToPath(import.meta.url)), 'real/replies.jsonl');

export const HOLDOUT_FILE = join(dirname(REAL_TEXT_FILE), 'holdout.jsonl');

export type Split = 'train' | 'calibration' | 'test' | 'holdout';

/** The holdout file in force: BOUNCE_HOLDOUT names another (tests swap it to show what reads it). */
export function holdoutFile(): string {
  return process.env.BOUNCE_HOLDOUT ?? HOLDOUT_FILE;
}

/** One gathered reply. */
export interface RealRow {
  text: string;
  bnac: string;
  backoff: string;
  ambiguous_bnac?: string[];
  ambiguous_backoff?: string[];
  source: string;
  commit?: string;
  date?: string;
  license: string;
  split: Split;
}

/** Whether a row reads two ways for either model (it carries an `ambiguous_*` list) */
export function readsTwoWays(row: RealRow): boolean {
  return (row.ambiguous_bnac?.length ?? 0) > 0 || (row.ambiguous_backoff?.length ?? 0) > 0;
}

/** Tenths of the sources per split: 4 train, 3 calibration, 3 test (the holdout has its own file). */
export function splitOf(source: string): Exclude<Split, 'holdout'> {
  const tenth = createHash('sha256').update(source).digest().readUInt32LE(0) % 10;
  return tenth < 4 ? 'train' : tenth < 7 ? 'calibration' : 'test';
}

/** Reads the gathered set (`replies.jsonl`); `split` narrows it to one part, `holdout` reads the holdout file. */
export function readRealText(split?: Split, file = split === 'holdout' ? holdoutFile() : REAL_TEXT_FILE): RealRow[] {
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as RealRow);
  return split ? rows.filter((r) => r.split === split) : rows;
}

function trigrams(text: string): Set<string> {
  const words = text.split(' ');
  const out = new Set<string>();
  for (let i = 0; i + 3 <= words.length; i++) out.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`);
  return out;
}

/** A text holding, or held in, another of 20 characters or more counts as the same reply. */
const MIN_CONTAINED = 20;
/** Sharing more than this share of the shorter text's word trigrams is a near-copy. */
const MAX_SHARED = 0.5;

/**
 * Whether a gathered text is a dev row or a near-copy of one, on normalised texts (addresses, IPs and ids are
 * placeholders there, so "the same reply with another address" matches).
 */
export function nearCopy(a: string, b: string): boolean {
  const na = normalise(a);
  const nb = normalise(b);
  if (na === nb) return true;
  const [short, long] = na.length <= nb.length ? [na, nb] : [nb, na];
  if (short.length >= MIN_CONTAINED && long.includes(short)) return true;
  const ga = trigrams(na);
  const gb = trigrams(nb);
  const smaller = Math.min(ga.size, gb.size);
  if (smaller < 3) return false;
  let shared = 0;
  for (const g of ga) if (gb.has(g)) shared++;
  return shared / smaller > MAX_SHARED;
}
