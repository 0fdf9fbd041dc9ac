/*
 * `npm run real-text [-- --dev PATH] [--add FILE ...]`: keeps the gathered real-text set honest. It drops every row
 * that is a dev-set row or a near-copy of one (normalised texts compared: same text, one inside the other, or most word
 * trigrams shared) or that comes from a source reserved for judging or listed by the dev sets
 * (train/excluded-sources.ts), gives each row its split by source (scripts/train/real-text.ts), rewrites the files and
 * reports the counts. A holdout row is also dropped when it is a near-copy of a row of `replies.jsonl`: a rule may have
 * been written from that reply, so it would not measure the rules on text they were not written from. Run it after
 * adding rows; the dev set is read only to compare, nothing of it is written.
 *
 * `--add FILE` (repeatable) first adds the rows gatherers handed in (JSON Lines of `{text, bnac, backoff,
 * ambiguous_bnac?, ambiguous_backoff?, source, commit | date, license}`): every row must be valid, or nothing is added
 * and each invalid row is named by file and line (exit 1); rows of excluded sources and near-copies of a row already
 * here or of an earlier row handed in are left out; a row whose source is served over https joins `replies.jsonl`, one
 * served over plain http the holdout. The screen above then runs over both files.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DEFAULT_DEV_FILE, labelProblem, readDevSet } from './eval.ts';
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

/** Why a row handed in cannot be added (the first problem found), or undefined when it can. */
export function invalidRow(row: Record<string, unknown>): string | undefined {
  if (typeof row.text !== 'string' || row.text.trim() === '') return 'no "text"';
  for (const model of ['bnac', 'backoff'] as const) {
    const problem = labelProblem(row, model);
    if (problem !== undefined) return problem;
    // Stricter than the dev set's check: a list reads the row two ways, its chosen class first
    const list = row[`ambiguous_${model}`] as unknown[] | undefined;
    if (list !== undefined && (list.length < 2 || list[0] !== row[model]))
      return `"ambiguous_${model}" must list two or more classes, "${String(row[model])}" first`;
  }
  if (typeof row.source !== 'string' || !/^https?:\/\/\S+$/.test(row.source))
    return '"source" is not an http(s) address';
  if (typeof row.license !== 'string' || row.license.trim() === '') return 'no "license"';
  if (typeof row.date !== 'string' && typeof row.commit !== 'string') return 'neither a "date" nor a "commit"';
  return undefined;
}

/** A row handed in, and where it was read (`file:line`, for messages). */
export interface HandedIn {
  at: string;
  row: Record<string, unknown>;
}

/** What `admit` made of the rows handed in. */
export interface Admitted {
  gathered: RealRow[];
  holdout: RealRow[];
  invalid: { at: string; why: string }[];
  excluded: number;
  nearCopies: number;
  /** Rows bound for the gathered set from a source the holdout quotes: the holdout's sources are its own */
  holdoutSources: number;
}

/**
 * The rows handed in that may be added, in their order: none when any row is invalid (`invalid` names them); rows of
 * excluded sources and near-copies of a row already here (`existing`: both files' rows) or of an earlier row handed in
 * are left out. A row whose source is served over https goes to the gathered set with its split by source, unless the
 * holdout quotes that source (the holdout shares no source with the rest); one served over plain http to the holdout
 * (the gathered set's sources must be https).
 */
export function admit(handedIn: readonly HandedIn[], existing: readonly RealRow[]): Admitted {
  const invalid = handedIn.flatMap(({ at, row }) => {
    const why = invalidRow(row);
    return why === undefined ? [] : [{ at, why }];
  });
  const out: Admitted = { gathered: [], holdout: [], invalid, excluded: 0, nearCopies: 0, holdoutSources: 0 };
  if (invalid.length > 0) return out;
  const seen = existing.map((r) => r.text);
  const holdoutSources = new Set(existing.flatMap((r) => (r.split === 'holdout' ? [r.source] : [])));
  for (const { row } of handedIn) {
    const r = row as unknown as RealRow;
    if (excludedSource(r.source) !== undefined) {
      out.excluded++;
      continue;
    }
    if (seen.some((t) => nearCopy(r.text, t))) {
      out.nearCopies++;
      continue;
    }
    const https = r.source.startsWith('https://');
    if (https && holdoutSources.has(r.source)) {
      out.holdoutSources++;
      continue;
    }
    seen.push(r.text);
    // The fields in the files' order; `split` last, given by the source
    const kept: RealRow = {
      text: r.text,
      bnac: r.bnac,
      backoff: r.backoff,
      ...(r.ambiguous_bnac ? { ambiguous_bnac: r.ambiguous_bnac } : {}),
      ...(r.ambiguous_backoff ? { ambiguous_backoff: r.ambiguous_backoff } : {}),
      source: r.source,
      ...(r.commit !== undefined ? { commit: r.commit } : {}),
      ...(r.date !== undefined ? { date: r.date } : {}),
      license: r.license,
      split: https ? splitOf(r.source) : 'holdout',
    };
    (https ? out.gathered : out.holdout).push(kept);
  }
  return out;
}

/** The rows of JSON Lines files handed in, with their file and line; a line that is not a JSON object reads as {}. */
function readHandedIn(files: readonly string[]): HandedIn[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => {
        if (line.trim() === '') return [];
        const at = `${file}:${i + 1}`;
        try {
          const row: unknown = JSON.parse(line);
          return [
            {
              at,
              row:
                row !== null && typeof row === 'object' && !Array.isArray(row) ? (row as Record<string, unknown>) : {},
            },
          ];
        } catch {
          return [{ at, row: {} }];
        }
      }),
  );
}

/**
 * Both files' rows with those of `files` added (see the head of this file), for the screen to write; undefined when a
 * file is missing or a row is invalid, and nothing is to be written.
 */
function add(
  files: readonly string[],
  gathered: readonly RealRow[],
  holdout: readonly RealRow[],
): { gathered: RealRow[]; holdout: RealRow[] } | undefined {
  for (const file of files)
    if (!existsSync(file)) {
      console.error(`real-text: "${file}" not found; nothing added`);
      return undefined;
    }
  const handedIn = readHandedIn(files);
  const result = admit(handedIn, [...gathered, ...holdout]);
  if (result.invalid.length > 0) {
    for (const { at, why } of result.invalid) console.error(`${at}: ${why}`);
    console.error(
      `real-text: ${result.invalid.length} of ${handedIn.length} rows handed in are invalid; nothing added`,
    );
    return undefined;
  }
  console.log(
    `real-text: ${handedIn.length} rows handed in: ${result.gathered.length} added to the ` +
      `gathered set, ${result.holdout.length} to the holdout; ${result.excluded} left out ` +
      `for their source, ${result.holdoutSources} as the holdout's sources, ` +
      `${result.nearCopies} as near-copies of rows here or of each other`,
  );
  return { gathered: [...gathered, ...result.gathered], holdout: [...holdout, ...result.holdout] };
}

function main(): number {
  const { values } = parseArgs({ options: { dev: { type: 'string' }, add: { type: 'string', multiple: true } } });
  const devFile = resolve(values.dev ?? process.env.BOUNCE_DEV ?? DEFAULT_DEV_FILE);
  if (!existsSync(devFile)) {
    console.error(`real-text: dev set not found at ${devFile}; nothing checked`);
    return 2;
  }
  let gathered = readRealText();
  let holdoutRows = existsSync(holdoutFile()) ? readRealText('holdout') : undefined;
  if (values.add) {
    const added = add(values.add, gathered, holdoutRows ?? []);
    if (added === undefined) return 1;
    gathered = added.gathered;
    if (holdoutRows !== undefined || added.holdout.length > 0) holdoutRows = added.holdout;
  }
  const devTexts = readDevSet(devFile).map((r) => r.text);
  const { kept, dropped, excluded } = screen(gathered, devTexts);
  writeFileSync(REAL_TEXT_FILE, jsonLines(kept));
  const count = (s: string) => kept.filter((r) => r.split === s).length;
  console.log(
    `real-text: ${kept.length} rows kept, ${dropped - excluded} dropped as dev rows ` +
      `or near-copies, ${excluded} for their source; train ${count('train')}, ` +
      `calibration ${count('calibration')}, test ${count('test')}`,
  );
  if (holdoutRows !== undefined) {
    const holdout = screenHoldout(
      holdoutRows,
      devTexts,
      kept.map((r) => r.text),
    );
    writeFileSync(holdoutFile(), jsonLines(holdout.kept));
    console.log(
      `real-text: holdout ${holdout.kept.length} rows kept, ${holdout.dropped} ` +
        `dropped (${holdout.dropped - holdout.gathered} as dev rows, near-copies ` +
        `or for their source, ${holdout.gathered} as near-copies of gathered rows)`,
    );
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();
