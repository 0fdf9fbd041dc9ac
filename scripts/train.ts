/*
 * Trains the BNAC and backoff models from scripts/corpus/lines.
 * 1. Augmentation: every normalised reply is also trained without its codes and with a generic or a wrong code
 *    of the same class (4xx/5xx), because real receivers send "550 5.2.1 user unknown" and sending MTAs drop
 *    codes: the codes become a prior the text outvotes, not a vote. Every reply of three words or more is also
 *    trained without one word drawn at random (withoutOneWord), so no answer rests on one word.
 *    One model scores situations (the causes of scripts/corpus/situation.ts); each task's model file maps
 *    them to its classes, so both answers come from one reading of the reply.
 * 2. Held-out evaluation by PHRASING: templates go into FOLDS groups by a hash of their id; each group is
 *    predicted by a model trained without any expansion of its templates. The report goes to
 *    plugins/bounce-model/models/report.{md,json}. Real-mail accuracy is measured by `npm run eval`.
 * 3. The softmax temperature and how much it rises for replies of unseen n-grams are fitted on whole phrasing
 *    files held out.
 * 4. Final models train on everything (the corpus and the `train` split of the gathered real replies,
 *    scripts/train/real-text.ts), with label smoothing (`smoothing` in ./train/linear-train.ts), and are written as
 *    model files.
 * 5. On the real replies' `calibration` split, never trained on: the temperature is rescaled to real text; then the
 *    model's probability map (plugins/bounce-model/models/calibration.json) is fitted there and on the `train` split
 *    as predicted by the held-out model trained without any real reply.
 * 6. Each rule's probability is measured on the `holdout` replies, which nothing else here reads
 *    (plugins/bounce-model/models/rule-probabilities.json).
 * Everything is seeded and iterates in fixed order: reruns give identical bytes.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BACKOFF_CLASSES, BNAC_CLASSES } from '../generated/data/bounce-classifier.ts';
import { aggregate, softmax, temperatureAt, type LinearModel } from '../plugins/bounce-model/linear-model.ts';
import {
  averageOf,
  DEFAULT_TRAIN_OPTIONS,
  fitCalibration,
  predictLogits,
  train,
  type Calibration,
  type Example,
  type TrainOptions,
} from './train/linear-train.ts';
import { encodeModel, type OutputClasses } from './train/model-encode.ts';
import { NO_CLASS } from '../plugins/bounce-model/model-file.ts';
import { NORMALISER_VERSION } from '../plugins/bounce-model/normalise.ts';
import { Rng } from './corpus/random.ts';
import { NOT_A_BOUNCE, SITUATIONS, type SituationName } from './corpus/situation.ts';
import {
  fitModelCalibration,
  fitRealTemperature,
  MIN_BLOCK,
  realHeldOut,
  realTruth,
  ruleProbabilities,
  type CalibrationTask,
  type HeldOutPrediction,
  type HeldOutText,
} from './train/calibrate.ts';
import { IDENTITY_MAP, type ModelCalibration } from '../plugins/bounce-model/model.ts';
import { readCorpus, type LabelledText } from './train/corpus.ts';
import { readRealText, readsTwoWays, type RealRow } from './train/real-text.ts';
import { servedText } from './train/served-text.ts';
import { driftNote, readTrainedOn, trainedOn } from './train/fingerprint.ts';
import { evaluate, evaluationMarkdown, type Evaluation } from './train/metrics.ts';
import {
  correctionRows,
  devRowsIfPresent,
  gate,
  modelPair,
  readCorrections,
  type GateRow,
  type SituationClasses,
} from './train/gate.ts';
import { parseArgs } from 'node:util';
import { DEFAULT_DEV_FILE, readDevSet } from './eval.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORPUS_DIR = join(ROOT, 'scripts/corpus/lines');
export const MODELS_DIR = join(ROOT, 'plugins/bounce-model/models');
const FOLDS = 5;
const AUGMENT_SEED = 11;

/** The two label sets and which corpus field holds each. */
export const TASKS = [
  { name: 'bnac', labels: BNAC_CLASSES as readonly string[], field: 'bnac' },
  { name: 'backoff', labels: BACKOFF_CLASSES as readonly string[], field: 'backoff' },
] as const;

type Task = (typeof TASKS)[number];

/** The inner classes: every situation of the corpus table, in the table's order. */
const SITUATION_NAMES: readonly string[] = Object.keys(SITUATIONS);

function outputOf(task: Task): OutputClasses {
  return { labels: task.labels, labelOf: (situation) => SITUATIONS[situation as SituationName][task.field] };
}

/** Each situation's class index in the task, NO_CLASS for text that is not a bounce (as a loaded model maps them). */
function situationMap(task: Task): Uint8Array {
  const { labelOf } = outputOf(task);
  return Uint8Array.from(SITUATION_NAMES, (s) => {
    const label = labelOf(s);
    return label === null ? NO_CLASS : task.labels.indexOf(label);
  });
}

const REPLY_RE = /^[245]\d\d$/;
const STATUS_RE = /^[245]_\d{1,3}_\d{1,3}$/;
const GENERIC = {
  '4': {
    replies: ['421', '450', '451', '452'],
    statuses: ['4_0_0', '4_7_1', '4_2_0', '4_3_0', '4_7_0', '4_4_1', '4_5_3'],
  },
  '5': {
    replies: ['550', '554', '553', '552', '501', '521'],
    statuses: ['5_0_0', '5_7_1', '5_1_0', '5_2_1', '5_4_1', '5_7_0', '5_1_1', '5_2_2', '5_5_0'],
  },
} as const;

/** One normalised reply split into its leading codes (how many words, their class) and its text. */
function splitCodes(text: string): { cls: '4' | '5' | undefined; codes: number; rest: string } {
  const words = text.split(' ');
  let i = 0;
  let cls: '4' | '5' | undefined;
  if (REPLY_RE.test(words[i] ?? '')) cls = words[i++]!.charAt(0) as '4' | '5';
  if (STATUS_RE.test(words[i] ?? '')) {
    const status = words[i++]!;
    cls ??= status.charAt(0) as '4' | '5';
  }
  return { cls: cls === '4' || cls === '5' ? cls : undefined, codes: i, rest: words.slice(i).join(' ') };
}

/** Share of replies also trained with a generic or wrong code of their class: a prior the text must outvote. */
const RECODED_SHARE = 0.35;

/** The reply as it came, without its codes, and for some with a random code of its class (or of either class when it has none). */
export function augment(text: string, rng: Rng): string[] {
  const { cls, rest } = splitCodes(text);
  if (rest === '') return [text];
  const generic = GENERIC[cls ?? rng.pick(['4', '5'] as const)];
  const reply = rng.pick(generic.replies);
  const code = rng.next() < 0.3 ? reply : `${reply} ${rng.pick(generic.statuses)}`;
  const variants = rng.next() < RECODED_SHARE ? [text, `${code} ${rest}`] : [text];
  if (cls !== undefined) variants.push(rest);
  return variants;
}

interface Augmented {
  readonly text: string;
  readonly row: number;
}

// Negations are never the word left out: "was not delivered" without "not" reads as the opposite
const NEGATIONS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'cannot',
  "can't",
  "couldn't",
  "isn't",
  "wasn't",
  "doesn't",
  "don't",
  "didn't",
  "won't",
  'unable',
  'nicht',
  'kein',
  'keine',
  'nie',
  'pas',
  'ne',
  'non',
  'não',
  'nao',
  'niet',
  'не',
  'нет',
]);

/**
 * The reply without one of its words (not a code, not a negation), drawn at random; undefined for a reply of fewer
 * than three such words. Trained beside the reply, it keeps the model from resting an answer on one word: on real
 * text never trained on, the models before it were wrong one time in seven on the answers above p 0.9 that leaving
 * out their heaviest word turned, and one in a hundred on the rest.
 */
export function withoutOneWord(text: string, rng: Rng): string | undefined {
  const words = text.split(' ');
  const candidates: number[] = [];
  for (let i = splitCodes(text).codes; i < words.length; i++) if (!NEGATIONS.has(words[i]!)) candidates.push(i);
  if (candidates.length < 3) return undefined;
  const left = rng.pick(candidates);
  return words.filter((_, i) => i !== left).join(' ');
}

const LEAVE_ONE_OUT_SEED = 7919;

function augmentAll(rows: readonly LabelledText[], seed = AUGMENT_SEED): Augmented[] {
  const rng = new Rng(seed);
  // Its own draws: the code augmentation draws the same as without it
  const leaveOut = new Rng(seed + LEAVE_ONE_OUT_SEED);
  return rows.flatMap((r, row) => {
    const variants = augment(r.text, rng);
    const shorter = withoutOneWord(r.text, leaveOut);
    if (shorter !== undefined) variants.push(shorter);
    return variants.map((text) => ({ text, row }));
  });
}

function examplesOf(rows: readonly LabelledText[], items: readonly Augmented[]): Example[] {
  return items.map(({ text, row }) => {
    const label = SITUATION_NAMES.indexOf(rows[row]!.situation);
    if (label < 0) throw new Error(`unknown situation "${rows[row]!.situation}" in corpus (${rows[row]!.template})`);
    return { text, label };
  });
}

/** Copies of each real training reply: a few dozen real lines among ~20,000 corpus lines must still count. */
export const REAL_COPIES = 8;
/**
 * Copies of a real reply that honestly reads two ways (an `ambiguous_*` list): its first label is one reading of
 * several, so it weighs a quarter of a reply whose classes are plain. At full weight, the 2026-11-27 replies (about
 * half of them ambiguous) moved the models' backoff answers on dev-like text away from the labelling rules.
 */
export const AMBIGUOUS_COPIES = 2;

/** The situation whose classes are the row's: the first in table order with both labels, if one has them. */
export function situationOf(bnac: string, backoff: string): string | undefined {
  return situationWith(bnac, backoff)?.name;
}

/** The first situation in table order with these classes (`undefined`: any class of that model), and its classes */
export function situationWith(bnac: string | undefined, backoff: string | undefined): SituationClasses | undefined {
  const name = SITUATION_NAMES.find((s) => {
    const classes = SITUATIONS[s as SituationName];
    return (
      classes.bnac !== null &&
      (bnac ?? classes.bnac) === classes.bnac &&
      (backoff ?? classes.backoff) === classes.backoff
    );
  });
  const classes = name === undefined ? undefined : SITUATIONS[name as SituationName];
  return classes && { name: name!, bnac: classes.bnac!, backoff: classes.backoff! };
}

/**
 * The `train` split of the gathered real replies as corpus lines (family `real`), each repeated REAL_COPIES times
 * (AMBIGUOUS_COPIES when it reads two ways).
 * A reply whose pair of classes no situation has (one model trains on situations) is measured but not trained on:
 * it is returned in `skipped`, for the report to name.
 */
export function realTrainingRows(): { rows: LabelledText[]; skipped: RealRow[] } {
  const skipped: RealRow[] = [];
  const rows = readRealText('train').flatMap((r, i) => {
    const situation = situationOf(r.bnac, r.backoff);
    if (situation === undefined) {
      skipped.push(r);
      return [];
    }
    const row: LabelledText = {
      family: 'real',
      template: `real:${situation}:real:${i}`,
      situation,
      text: servedText(r.text),
      bnac: r.bnac,
      backoff: r.backoff,
    };
    return new Array<LabelledText>(readsTwoWays(r) ? AMBIGUOUS_COPIES : REAL_COPIES).fill(row);
  });
  return { rows, skipped };
}

/** The lines the models train on before any correction: the corpus's and the gathered `train` replies' */
export function trainingLines(): { rows: LabelledText[]; skipped: RealRow[] } {
  const real = realTrainingRows();
  return { rows: [...readCorpus(CORPUS_DIR), ...real.rows], skipped: real.skipped };
}

/** The `train` split row a `real` corpus line was made from (its index ends the template id) */
function realRowOf(row: LabelledText, train: readonly RealRow[]): RealRow | undefined {
  return row.family === 'real' ? train[Number(row.template.split(':').at(-1))] : undefined;
}

function foldOf(template: string): number {
  return createHash('sha256').update(template).digest().readUInt32LE(0) % FOLDS;
}

/** Held-out evaluation of one label set. */
export interface TaskValidation {
  /** Whole phrasings held out */
  readonly evaluation: Evaluation;
  /** Whole phrasing files (sources written apart) held out: the closer figure to unseen real mail */
  readonly sourceAccuracy: number;
}

/** Calibration fitted on held-out data, with the held-out evaluations themselves. */
export interface CrossValidation {
  readonly calibration: Calibration;
  /** Predictions of the rows held out by whole phrasing file, with their true classes: the temperature is refitted on them and on real text */
  readonly sourceHeldOut: HeldOutPrediction[];
  /** The real `train` replies (once each) as the model trained without any real reply predicts them: the probability map is fitted on them too */
  readonly realHeldOut: HeldOutText[];
  readonly tasks: Readonly<Record<Task['name'], TaskValidation>>;
}

interface HeldOut {
  readonly logits: Float64Array;
  readonly coverage: number;
}

/** Predicts every row with a model trained without the rows (and their augmented copies) of its group. */
function heldOut(rows: readonly LabelledText[], groupOf: readonly number[], opts: TrainOptions): HeldOut[] {
  const items = augmentAll(rows);
  const examples = examplesOf(rows, items);
  const held: HeldOut[] = new Array(rows.length);
  for (const group of [...new Set(groupOf)].sort((a, b) => a - b)) {
    const trainSet = examples.filter((_, i) => groupOf[items[i]!.row] !== group);
    const testRows = rows.flatMap((_, i) => (groupOf[i] === group ? [i] : []));
    const model = train(trainSet, SITUATION_NAMES, opts);
    predictLogits(
      model,
      testRows.map((i) => rows[i]!.text),
    ).forEach((p, j) => (held[testRows[j]!] = p));
  }
  return held;
}

/** The phrasing file a row comes from, the `core-*` files counting as one source (they were written together). */
function sourceOf(row: LabelledText): string {
  return row.family.startsWith('core-') ? 'core' : row.family;
}

/**
 * Held-out evaluations by phrasing groups and by whole phrasing files (on the replies as written, not their
 * augmented copies). Calibration (temperature and coverage factor) is fitted on the files held out: replies from
 * a source the model never saw share fewer n-grams with training, as real mail does.
 */
export function crossValidate(
  rows: readonly LabelledText[],
  opts: TrainOptions = DEFAULT_TRAIN_OPTIONS,
): CrossValidation {
  const phrasing = heldOut(
    rows,
    rows.map((r) => foldOf(r.template)),
    opts,
  );
  const sources = [...new Set(rows.map(sourceOf))].sort();
  const source = heldOut(
    rows,
    rows.map((r) => sources.indexOf(sourceOf(r))),
    opts,
  );
  // Text that is not a bounce has one source of its own: held out, its situation is one the model never saw
  const bounces = rows.flatMap((r, i) => (r.situation === NOT_A_BOUNCE ? [] : [i]));
  const calibration = fitCalibration(
    bounces.map((i) => source[i]!),
    bounces.map((i) => SITUATION_NAMES.indexOf(rows[i]!.situation)),
  );
  const validate = (task: Task): TaskValidation => {
    const map = situationMap(task);
    // Text that is not a bounce has no class to be right about: the figures are the bounces'
    const scored = rows.flatMap((r, i) => (r[task.field] === null ? [] : [i]));
    const truth = scored.map((i) => task.labels.indexOf(rows[i]![task.field]!));
    const predict = (held: readonly HeldOut[]) => {
      const classes = new Float64Array(task.labels.length);
      const predicted: number[] = [];
      const probability: number[] = [];
      for (const { logits, coverage } of scored.map((i) => held[i]!)) {
        const p = Float64Array.from(logits);
        softmax(p, p.length, temperatureAt(calibration.temperature, calibration.coverageAlpha, coverage));
        const best = aggregate(p, map, classes);
        predicted.push(best);
        probability.push(classes[best]!);
      }
      return { predicted, probability };
    };
    const byPhrasing = predict(phrasing);
    const bySource = predict(source);
    return {
      evaluation: evaluate(
        task.labels,
        truth,
        byPhrasing.predicted,
        byPhrasing.probability,
        scored.map((i) => rows[i]!.family),
      ),
      sourceAccuracy: bySource.predicted.filter((p, i) => p === truth[i]).length / scored.length,
    };
  };
  const sourceHeldOut = source.map(({ logits, coverage }, i) => ({
    logits,
    coverage,
    // -1, not scored, for text that is not a bounce
    truth: {
      bnac: TASKS[0].labels.indexOf(rows[i]!.bnac ?? ''),
      backoff: TASKS[1].labels.indexOf(rows[i]!.backoff ?? ''),
    },
  }));
  const train = readRealText('train');
  const seen = new Set<string>();
  const realHeld = source.flatMap(({ logits, coverage }, i) => {
    const real = realRowOf(rows[i]!, train);
    if (real === undefined || seen.has(rows[i]!.template)) return [];
    seen.add(rows[i]!.template);
    return [{ logits, coverage, text: rows[i]!.text, truth: realTruth(real, calibrationTasks()) }];
  });
  return {
    calibration,
    sourceHeldOut,
    realHeldOut: realHeld,
    tasks: { bnac: validate(TASKS[0]), backoff: validate(TASKS[1]) },
  };
}

/** Each task's classes and situation-to-class map, as calibration needs them */
function calibrationTasks(): CalibrationTask[] {
  return TASKS.map((task) => ({
    name: task.name,
    labels: task.labels,
    map: situationMap(task),
  }));
}

/**
 * The final situation model: `opts.runs` runs, each over its own example order and its own augmentation of the rows
 * (which replies get a generic or wrong code), averaged. One augmentation draw moved dev and holdout figures by 1-3
 * rows and flipped answers near a threshold; averaging draws makes the shipped answers depend on the data, not on one
 * draw. Held-out models (crossValidate) are single runs: they estimate and fit.
 */
function averaged(rows: readonly LabelledText[], opts: TrainOptions): LinearModel {
  return averageOf(
    (function* () {
      for (let r = 0; r < opts.runs; r++) {
        const examples = examplesOf(rows, augmentAll(rows, AUGMENT_SEED + r));
        yield train(examples, SITUATION_NAMES, { ...opts, seed: opts.seed + r });
      }
    })(),
  );
}

/**
 * Trains the final situation model on all rows and returns the bytes of each task's model file, the temperature
 * and the probability maps fitted for it (on the calibration split and `trainHeld`; none without real replies).
 */
export function trainModelFiles(
  rows: readonly LabelledText[],
  calibration: Calibration,
  opts: TrainOptions = DEFAULT_TRAIN_OPTIONS,
  corpusHeld: readonly HeldOutPrediction[] = [],
  trainHeld: readonly HeldOutText[] = [],
): Record<Task['name'], Buffer> & { calibration: Calibration; modelCalibration: ModelCalibration } {
  const model = averaged(rows, opts);
  const held = readRealText('calibration');
  const tasks = calibrationTasks();
  const real = held.length > 0 ? fitRealTemperature(model, calibration, held, tasks, corpusHeld) : calibration;
  model.temperature = real.temperature;
  model.coverageAlpha = real.coverageAlpha;
  const modelCalibration =
    held.length > 0
      ? fitModelCalibration([...realHeldOut(model, held, tasks), ...trainHeld], tasks, real)
      : { bnac: IDENTITY_MAP, backoff: IDENTITY_MAP };
  const file = (task: Task): Buffer => encodeModel(task.name, model, NORMALISER_VERSION, outputOf(task));
  return { bnac: file(TASKS[0]), backoff: file(TASKS[1]), calibration: real, modelCalibration };
}

/**
 * Measures each rule's probability on the holdout replies and writes the file the models read. The rules were
 * written with the `train`, `calibration` and `test` replies in view (not fitted, but written by people who had
 * read them), so a rule's precision there is optimistic; the holdout was gathered after the rules and no rule is
 * edited for it (scripts/train/real-text.ts).
 */
export function writeRuleProbabilities(): ReturnType<typeof ruleProbabilities> {
  const figures = ruleProbabilities(readRealText('holdout'));
  writeFileSync(join(MODELS_DIR, 'rule-probabilities.json'), JSON.stringify(figures, null, 1) + '\n');
  return figures;
}

function main(): number {
  const started = performance.now();
  const { values: args } = parseArgs({
    options: { corrections: { type: 'string' }, 'rule-probabilities': { type: 'boolean', default: false } },
    strict: true,
  });
  // After a rule edit only the rules' figures change: no need to retrain
  if (args['rule-probabilities']) {
    const figures = writeRuleProbabilities();
    console.log(
      `rule probabilities: BNAC pooled ${figures.bnac.pooled} over ${figures.bnac.measuredOn} answers, backoff pooled ${figures.backoff.pooled} over ${figures.backoff.measuredOn}`,
    );
    return 0;
  }
  const { rows, skipped: untrained } = trainingLines();
  // Before corrections join: what a later corrections retrain must find the same to compare the corrections alone
  const base = trainedOn(rows, DEFAULT_TRAIN_OPTIONS, NORMALISER_VERSION);
  for (const r of untrained) {
    console.log(
      `real reply not trained on: no situation has its pair of classes ${r.bnac} / ${r.backoff} (${JSON.stringify(r.text)})`,
    );
  }
  // The models in force: what corrections are measured against, and what fills a correction's missing class
  const current =
    args.corrections === undefined
      ? undefined
      : modelPair({
          bnac: readFileSync(join(MODELS_DIR, 'bnac.model')),
          backoff: readFileSync(join(MODELS_DIR, 'backoff.model')),
        });
  let correctionLines = 0;
  if (current) {
    const note = driftNote(readTrainedOn(join(MODELS_DIR, 'report.json')), base);
    if (note) console.log(note);
    const corrections = readCorrections(args.corrections!);
    const { rows: corrected, skipped, moved } = correctionRows(corrections, current, situationWith, REAL_COPIES);
    rows.push(...corrected);
    correctionLines = corrected.length;
    console.log(
      `corrections: ${corrections.length} read, ${corrections.length - skipped.length} trained on (${REAL_COPIES} copies each), ${skipped.length} skipped (no situation has their pair of classes)`,
    );
    for (const { correction: c, as } of moved) {
      console.log(
        `correction trained as ${as.bnac} / ${as.backoff}: no situation has its ${c.bnac ?? c.backoff} with the other model's current class (${JSON.stringify(c.message)})`,
      );
    }
  }
  mkdirSync(MODELS_DIR, { recursive: true });
  const templates = new Set(rows.map((r) => r.template)).size;
  const md = [
    '# Bounce models: held-out report',
    '',
    `Generated by \`npm run train\`. Corpus: ${rows.length} replies from ${templates} phrasings (templates).`,
    `Evaluation holds out whole PHRASINGS: ${FOLDS} groups of templates (by a hash of the template id), each predicted by a model trained without any expansion of them.`,
    'A second evaluation holds out whole phrasing FILES (sources written apart); calibration is fitted there. Held-out models are single runs; the shipped models average several.',
    `Settings: ${JSON.stringify(DEFAULT_TRAIN_OPTIONS)}. The corpus is written from how real systems phrase replies, so these figures measure generalisation to unseen phrasings of known causes;`,
    'accuracy on real mail is measured separately by `npm run eval` on a hand-labelled set of real replies (README).',
    '',
  ];
  // What the models learnt from, and how many lines of it were corrections: scripts/train/fingerprint.ts
  const json: Record<string, unknown> = { trainedOn: base, correctionLines };
  const fitted = crossValidate(rows);
  const files = trainModelFiles(
    rows,
    fitted.calibration,
    DEFAULT_TRAIN_OPTIONS,
    fitted.sourceHeldOut,
    fitted.realHeldOut,
  );
  if (current) {
    const dev = devRowsIfPresent(process.env.BOUNCE_DEV ?? DEFAULT_DEV_FILE, readDevSet);
    const sets: Record<string, GateRow[]> = {
      ...(dev ? { 'dev set': dev } : {}),
      'gathered real replies, test split': readRealText('test'),
    };
    const verdict = gate(current, modelPair(files), sets);
    console.log(verdict.lines.join('\n'));
    if (!verdict.accepted) {
      console.error('train: the new models score worse than the current ones: refused, nothing written');
      return 1;
    }
    if (!dev) console.log('(dev set not found: gated on the gathered real replies only)');
  }
  const { temperature, coverageAlpha } = files.calibration;
  const ruleFigures = writeRuleProbabilities();
  writeFileSync(join(MODELS_DIR, 'calibration.json'), JSON.stringify(files.modelCalibration, null, 1) + '\n');
  const trainReplies = readRealText('train').length;
  const trained = trainReplies - untrained.length;
  const maps = TASKS.map(
    ({ name }) =>
      `${name} ${files.modelCalibration[name].to.length} steps over ${files.modelCalibration[name].measuredOn} answers`,
  ).join(', ');
  md.push(
    `Real replies: ${trained} of the ${trainReplies} train replies trained on ` +
      `(${REAL_COPIES} copies each, ${AMBIGUOUS_COPIES} of an ambiguous one)` +
      (untrained.length
        ? `; ${untrained.length} not, no situation having its pair of classes ` +
          `(${untrained.map((r) => `${r.bnac} / ${r.backoff}`).join(', ')})`
        : '') +
      `; temperature rescaled from ${fitted.calibration.temperature} (corpus files held out) to ${temperature} ` +
      `on the ${readRealText('calibration').length} calibration replies together with the corpus files held out;`,
    `the model's probability map (isotonic, steps of at least ${MIN_BLOCK} ` +
      `answers: ${maps}) fitted on the calibration replies and on the train ` +
      'replies as predicted by the held-out model trained without real replies;',
    `rule probabilities measured on the ${readRealText('holdout').length} holdout ` +
      'replies, gathered after the rules and never trained on (BNAC: ' +
      `${ruleFigures.bnac.measuredOn} rule answers, pooled ${ruleFigures.bnac.pooled}; ` +
      `backoff: ${ruleFigures.backoff.measuredOn}, pooled ${ruleFigures.backoff.pooled}).`,
    '',
  );
  for (const task of TASKS) {
    const { evaluation, sourceAccuracy } = fitted.tasks[task.name];
    writeFileSync(join(MODELS_DIR, `${task.name}.model`), files[task.name]);
    md.push(`Held out by whole phrasing file (source): accuracy **${(100 * sourceAccuracy).toFixed(1)} %**.`, '');
    md.push(
      evaluationMarkdown(
        `${task.name} held out by phrasing (temperature ${temperature}, coverage factor ${coverageAlpha})`,
        evaluation,
      ),
    );
    json[task.name] = { temperature, coverageAlpha, sourceAccuracy, bytes: files[task.name].length, ...evaluation };
    console.log(
      `${task.name}: held-out-phrasing accuracy ${(100 * evaluation.accuracy).toFixed(2)} %, ` +
        `held-out-source ${(100 * sourceAccuracy).toFixed(2)} %, macro-F1 ${(100 * evaluation.macroF1).toFixed(2)} %, ` +
        `T=${temperature}, coverage factor ${coverageAlpha}, model ${(files[task.name].length / 1e6).toFixed(2)} MB`,
    );
  }
  writeFileSync(join(MODELS_DIR, 'report.md'), md.join('\n'));
  writeFileSync(join(MODELS_DIR, 'report.json'), JSON.stringify(json, null, 1) + '\n');
  console.log(`trained in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exitCode = main();
