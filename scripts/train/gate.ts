/*
 * Retraining with operators' corrections (`npm run train -- --corrections FILE`): the corrections become training
 * lines, and the new models are refused, nothing written, when either scores worse than the current one on the dev
 * set (when it is there) or on the gathered real replies' test split. The operator sees both figures either way,
 * and the rows whose answers changed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadModel, type Model } from '../../plugins/bounce-model/model.ts';
import { servedText } from './served-text.ts';
import type { LabelledText } from './corpus.ts';
import { lenientAccuracy } from './metrics.ts';
import { acceptedClasses } from '../eval.ts';

/** One correction as `GET /v1/corrections` answers it (extra fields ignored) */
export interface CorrectionLine {
  message: string;
  bnac?: string;
  backoff?: string;
}

/** A labelled reply a gate measures on */
export interface GateRow {
  text: string;
  bnac: string;
  backoff: string;
  ambiguous_bnac?: string[];
  ambiguous_backoff?: string[];
}

export type ModelPair = Readonly<Record<'bnac' | 'backoff', Model>>;

/**
 * Reads the export of `GET /v1/corrections` (`{"corrections": [...]}`, on one line or pretty-printed, however
 * spaced), a list of corrections, one correction, or one correction per line (JSONL): the file is one JSON value,
 * or else JSON Lines.
 */
export function readCorrections(file: string): CorrectionLine[] {
  const text = readFileSync(file, 'utf8');
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    whole = undefined;
  }
  const lines: unknown[] =
    whole === undefined
      ? text
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l, i) => {
            try {
              return JSON.parse(l) as unknown;
            } catch (error) {
              throw new Error(`${file}: line ${i + 1} is not JSON (${(error as Error).message})`);
            }
          })
      : Array.isArray(whole)
        ? whole
        : Array.isArray((whole as { corrections?: unknown })?.corrections)
          ? (whole as { corrections: unknown[] }).corrections
          : [whole];
  return lines.map((line, i) => {
    const c = line as CorrectionLine;
    if (typeof c?.message !== 'string' || (c.bnac === undefined && c.backoff === undefined)) {
      throw new Error(`${file}: correction ${i + 1} needs "message" and "bnac" or "backoff"`);
    }
    return c;
  });
}

/** A situation of the corpus table and its two classes */
export interface SituationClasses {
  name: string;
  bnac: string;
  backoff: string;
}

/** A correction of one model trained as another situation than the other model's current class allows */
export interface MovedCorrection {
  correction: CorrectionLine;
  as: SituationClasses;
}

/**
 * The corrections as training lines (family `correction`), `copies` of each. A correction of one model keeps the
 * other's current class when a situation has both (one model scores situations, so a line needs a pair); when none
 * does, the corrected class's first situation in the table gives the other class, and the correction is listed in
 * `moved`. A pair of classes no situation has, both given, is skipped
 */
export function correctionRows(
  corrections: readonly CorrectionLine[],
  current: ModelPair,
  situationWith: (bnac: string | undefined, backoff: string | undefined) => SituationClasses | undefined,
  copies: number,
): { rows: LabelledText[]; skipped: CorrectionLine[]; moved: MovedCorrection[] } {
  const rows: LabelledText[] = [];
  const skipped: CorrectionLine[] = [];
  const moved: MovedCorrection[] = [];
  corrections.forEach((c, i) => {
    const text = servedText(c.message);
    let situation = situationWith(
      c.bnac ?? current.bnac.predict(text).label,
      c.backoff ?? current.backoff.predict(text).label,
    );
    if (situation === undefined && (c.bnac === undefined) !== (c.backoff === undefined)) {
      situation = situationWith(c.bnac, c.backoff);
      if (situation) moved.push({ correction: c, as: situation });
    }
    if (situation === undefined) return void skipped.push(c);
    const row: LabelledText = {
      family: 'correction',
      template: `correction:${situation.name}:correction:${i}`,
      situation: situation.name,
      text,
      bnac: situation.bnac,
      backoff: situation.backoff,
    };
    for (let k = 0; k < copies; k++) rows.push(row);
  });
  return { rows, skipped, moved };
}

/** The verdict of a gate, with a line per set and model, each followed by the rows the new model answers otherwise */
export interface GateResult {
  accepted: boolean;
  lines: string[];
}

/** Rows listed per set, model and direction: enough to judge a change, not a dump of a set */
const MAX_LISTED = 10;
/** Characters of a reply shown */
const SHOWN = 100;

/**
 * Compares the current models with the new ones on each set; any figure worse refuses the new models. Under each
 * figure, the rows the new model gets wrong that the current one got right, and the other way round: what the operator
 * weighs, whether a "worse" is the corrections' doing or a row near a class boundary
 */
export function gate(
  before: ModelPair,
  after: ModelPair,
  sets: Readonly<Record<string, readonly GateRow[]>>,
): GateResult {
  const lines: string[] = [];
  let accepted = true;
  for (const [name, rows] of Object.entries(sets)) {
    const texts = rows.map((row) => servedText(row.text));
    for (const task of ['bnac', 'backoff'] as const) {
      const was = texts.map((text) => before[task].predict(text).label);
      const now = texts.map((text) => after[task].predict(text).label);
      // Right as `npm run eval` scores lenient accuracy: a class of the row's ambiguity list counts
      const rightClasses = rows.map((row) => acceptedClasses(row, task));
      const [a, b] = [lenientAccuracy(was, rightClasses), lenientAccuracy(now, rightClasses)];
      const worse = b.correct < a.correct;
      if (worse) accepted = false;
      lines.push(
        `${name} (${rows.length} rows) ${task}: before ${(100 * a.accuracy).toFixed(2)} %, after ${(100 * b.accuracy).toFixed(2)} %${worse ? '  WORSE' : ''}`,
      );
      for (const [label, lost] of [
        ['now wrong', true],
        ['now right', false],
      ] as const) {
        const changed = rightClasses.flatMap((ok, i) =>
          ok.includes(was[i]!) === lost && ok.includes(now[i]!) !== lost ? [i] : [],
        );
        if (changed.length === 0) continue;
        lines.push(`  ${label} (${changed.length}):`);
        for (const i of changed.slice(0, MAX_LISTED)) {
          const text = rows[i]!.text.length > SHOWN ? `${rows[i]!.text.slice(0, SHOWN - 1)}…` : rows[i]!.text;
          lines.push(`    ${was[i]} -> ${now[i]} (labelled ${rows[i]![task]}): ${JSON.stringify(text)}`);
        }
        if (changed.length > MAX_LISTED) lines.push(`    and ${changed.length - MAX_LISTED} more`);
      }
    }
  }
  return { accepted, lines };
}

/** Both models from their files' bytes */
export function modelPair(files: Readonly<Record<'bnac' | 'backoff', Uint8Array>>): ModelPair {
  return { bnac: loadModel(files.bnac), backoff: loadModel(files.backoff) };
}

/** The dev set's rows when the file is there (measured only, never trained on), else none */
export function devRowsIfPresent(file: string, read: (file: string) => GateRow[]): GateRow[] | undefined {
  return existsSync(file) ? read(file) : undefined;
}
