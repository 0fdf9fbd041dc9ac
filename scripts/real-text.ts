/*
 * `npm run real-text [-- --dev PATH]`: keeps the gathered real-text set honest. It drops every row that is a dev-set
 * row or a near-copy of one (normalised texts compared: same text, one inside the other, or most word trigrams
 * shared) or that comes from a source reserved for judging or listed by the dev sets (train/excluded-sources.ts),
 * gives each row its split by source (scripts/train/real-text.ts), rewrites the files and reports the
 * counts. A holdout row is also dropped when it is a near-copy of a row of `replies.jsonl`: a rule may have been
 * written from that reply, so it would not measure the rules on text they were not written from. Run it after adding
 * rows; the dev set is read only to compare, nothing of it is written.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_DEV_FILE, readDevSet } from './eval.ts';
import { excludedSource } from './train/excluded-sources.ts';
import { holdoutFile, nearCopy, readRealText, REAL_TEXT_FILE, splitOf, type RealRow } from './train/real-text.ts';

/**
 * The rows that are not dev rows nor near-copies of one, nor from an excluded source (`excludedSource`), each with
 * its split; `excluded` counts the rows dropped for their source.
 */
export function screen(
  rows: readonly RealRow[],
  devTexts: readonly string[],
): { kept: RealRow[]; dropped: number; excluded: number } {
  const allowed = rows.filter((r) => excludedSource(r.source) === undefined);
  const kept = allowed
    .filter((r) => !devTexts.some((d) => nearCopy(r.text, d)))
    .map((r) => ({ ...r, split: splitOf(r.source) }));
  return { kept, dropped: rows.length - kept.length, excluded: rows.length - allowed.length };
}

/**
 * The holdout rows that are neither dev rows nor gathered rows (nor near-copies of either) nor from an excluded
 * source, split `holdout`.
 */
export function screenHoldout(
  rows: readonly RealRow[],
  devTexts: readonly string[],
  gatheredTexts: readonly string[],
): { kept: RealRow[]; dropped: number; gathered: number } {
  const notDev = rows.filter(
    (r) => excludedSource(r.source) === undefined && !devTexts.some((d) => nearCopy(r.text, d)),
  );
  const kept = notDev
    .filter((r) => !gatheredTexts.some((g) => nearCopy(r.text, g)))
    .map((r) => ({ ...r, split: 'holdout' as const }));
  return { kept, dropped: rows.length - kept.length, gathered: notDev.length - kept.length };
}

const jsonLines = (rows: readonly RealRow[]): string => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

function main(): number {
  const { values } = parseArgs({ options: { dev: { type: 'string' } } });
  const devFile = resolve(values.dev ?? process.env.BOUNCE_DEV ?? DEFAULT_DEV_FILE);
  if (!existsSync(devFile)) {
    console.error(`real-text: dev set not found at ${devFile}; nothing checked`);
    return 2;
  }
  const devTexts = readDevSet(devFile).map((r) => r.text);
  const { kept, dropped, excluded } = screen(readRealText(), devTexts);
  writeFileSync(REAL_TEXT_FILE, jsonLines(kept));
  const count = (s: string) => kept.filter((r) => r.split === s).length;
  console.log(
    `real-text: ${kept.length} rows kept, ${dropped - excluded} dropped as dev rows or near-copies, ${excluded} for their source; train ${count('train')}, calibration ${count('calibration')}, test ${count('test')}`,
  );
  if (existsSync(holdoutFile())) {
    const holdout = screenHoldout(
      readRealText('holdout'),
      devTexts,
      kept.map((r) => r.text),
    );
    writeFileSync(holdoutFile(), jsonLines(holdout.kept));
    console.log(
      `real-text: holdout ${holdout.kept.length} rows kept, ${holdout.dropped} dropped (${holdout.dropped - holdout.gathered} as dev rows, near-copies or for their source, ${holdout.gathered} as near-copies of gathered rows)`,
    );
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();
