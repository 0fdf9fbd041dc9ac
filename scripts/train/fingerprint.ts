/*
 * What the models were trained from, kept in plugins/bounce-model/models/report.json: a retrain with an operator's
 * corrections is gated against the models in force (scripts/train/gate.ts), and that comparison measures the
 * corrections alone only when the models in force learnt from the same lines as this checkout's training. Measured
 * on 2026-11-29: models two sessions older than the code listed 45 answers as changed by one correction that changed
 * nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { LabelledText } from './corpus.ts';
import type { TrainOptions } from './linear-train.ts';

/** The training lines the models learnt from, before any operator's correction */
export interface TrainedOn {
  /** Corpus lines and gathered train replies, each copy counted */
  readonly lines: number;
  /** Hash of the lines (template, situation and text as trained on), the options and the normaliser's version */
  readonly fingerprint: string;
}

/** The count and fingerprint of these training lines, as `report.json` keeps them */
export function trainedOn(rows: readonly LabelledText[], opts: TrainOptions, normaliser: number | string): TrainedOn {
  const hash = createHash('sha256').update(JSON.stringify({ opts, normaliser }));
  for (const r of rows) hash.update(`${r.template}\t${r.situation}\t${r.text}\n`);
  return { lines: rows.length, fingerprint: hash.digest('hex').slice(0, 16) };
}

/** What report.json says the models in force learnt from; undefined for a report written before it said so */
export function readTrainedOn(reportFile: string): TrainedOn | undefined {
  if (!existsSync(reportFile)) return undefined;
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as { trainedOn?: TrainedOn };
  const found = report.trainedOn;
  return typeof found?.fingerprint === 'string' && typeof found.lines === 'number' ? found : undefined;
}

/** The warning a corrections retrain prints before its figures when the comparison holds more than the corrections */
export function driftNote(inForce: TrainedOn | undefined, now: TrainedOn): string | undefined {
  if (inForce?.fingerprint === now.fingerprint) return undefined;
  const then =
    inForce === undefined
      ? 'on lines report.json does not record'
      : `on other lines (${inForce.lines} then, ${now.lines} in this checkout)`;
  return (
    `train: the models in force were trained ${then}: the before and after below include that difference, ` +
    'not only the corrections. Retrain without --corrections first to compare the corrections alone.'
  );
}
