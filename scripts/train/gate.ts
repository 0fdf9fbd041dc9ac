/*
 * Retraining with operators' corrections (`npm run train -- --corrections FILE`): the corrections become training
 * lines, and the new models are refused, nothing written, when either scores worse than the current one on the dev
 * set (when it is there) or on the gathered real replies' test split. The operator sees both figures either way.
 */
import { existsSync, readFileSync } from 'node:fs';
import { loadModel, type Model } from '../../plugins/bounce-model/model.ts';
import { normalise } from '../../plugins/bounce-model/normalise.ts';
import type { LabelledText } from './corpus.ts';
import { lenientAccuracy } from './metrics.ts';

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
): { rows: LabelledText[]; skipped: CorrectionLine[]; moved: { correction: CorrectionLine; as: SituationClasses }[] } {
  const rows: LabelledText[] = [];
  const skipped: CorrectionLine[] = [];
  const moved: { correction: CorrectionLine; as: SituationClasses }[] = [];
  corrections.forEach((c, i) => {
    const text = normalise(c.message);
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

/** Share of rows a model answers right, as `npm run eval` scores lenient accuracy (a class of the row's ambiguous list counts as right) */
export function accuracy(model: Model, task: 'bnac' | 'backoff', rows: readonly GateRow[]): number {
  if (rows.length === 0) return Number.NaN;
  return lenientAccuracy(
    rows.map((row) => model.predict(normalise(row.text)).label),
    rows.map((row) => {
      const listed = row[`ambiguous_${task}`];
      return listed?.length ? listed : [row[task]];
    }),
  ).accuracy;
}

/** The verdict of a gate, with a line per set and model */
export interface GateResult {
  accepted: boolean;
  lines: string[];
}

/** Compares the current models with the new ones on each set; any figure worse refuses the new models */
export function gate(
  before: ModelPair,
  after: ModelPair,
  sets: Readonly<Record<string, readonly GateRow[]>>,
): GateResult {
  const lines: string[] = [];
  let accepted = true;
  for (const [name, rows] of Object.entries(sets)) {
    for (const task of ['bnac', 'backoff'] as const) {
      const was = accuracy(before[task], task, rows);
      const now = accuracy(after[task], task, rows);
      const worse = now < was;
      if (worse) accepted = false;
      lines.push(
        `${name} (${rows.length} rows) ${task}: before ${(100 * was).toFixed(2)} %, after ${(100 * now).toFixed(2)} %${worse ? '  WORSE' : ''}`,
      );
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
