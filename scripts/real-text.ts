/*
 * `npm run real-text [-- --dev PATH]`: keeps the gathered real-text set honest. It drops every row that is a dev-set
 * row or a near-copy of one (normalised texts compared: same text, one inside the other, or most word trigrams
 * shared), gives each row its split by source (scripts/train/real-text.ts), rewrites the file and reports the
 * counts. Run it after adding rows; the dev set is read only to compare, nothing of it is written.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_DEV_FILE, readDevSet } from './eval.ts';
import { nearCopy, readRealText, REAL_TEXT_FILE, splitOf, type RealRow } from './train/real-text.ts';

/** The rows that are not dev rows nor near-copies of one, each with its split. */
export function screen(rows: readonly RealRow[], devTexts: readonly string[]): { kept: RealRow[]; dropped: number } {
  const kept = rows
    .filter((r) => !devTexts.some((d) => nearCopy(r.text, d)))
    .map((r) => ({ ...r, split: splitOf(r.source) }));
  return { kept, dropped: rows.length - kept.length };
}

function main(): number {
  const { values } = parseArgs({ options: { dev: { type: 'string' } } });
  const devFile = resolve(values.dev ?? process.env.BOUNCE_DEV ?? DEFAULT_DEV_FILE);
  if (!existsSync(devFile)) {
    console.error(`real-text: dev set not found at ${devFile}; nothing checked`);
    return 2;
  }
  const { kept, dropped } = screen(
    readRealText(),
    readDevSet(devFile).map((r) => r.text),
  );
  writeFileSync(REAL_TEXT_FILE, kept.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const count = (s: string) => kept.filter((r) => r.split === s).length;
  console.log(
    `real-text: ${kept.length} rows kept, ${dropped} dropped as dev rows or near-copies; train ${count('train')}, calibration ${count('calibration')}, test ${count('test')}`,
  );
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();
