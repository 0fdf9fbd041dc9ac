/*
 * `npm run eval [-- options]`: scores both models of a classifier plugin on the hand-labelled dev set of real
 * bounce replies (see ../shared/bounce-dev/README.md). The set is for measuring only: this script reads it and
 * prints figures; it writes nothing.
 *
 * Options:
 *   --file PATH      dev set (JSON Lines); default $BOUNCE_DEV, else <repo>/../shared/bounce-dev/dev.jsonl
 *   --plugin ID|DIR  classifier plugin: a built-in id (default bounce-model) or a plugin folder/module path,
 *                    e.g. docs/examples/rules-classifier
 *   --errors         list every wrong strict row as `expected -> got (p)  text` (stdout; stderr with --json)
 *   --json           print the whole result as one JSON object instead of the text report
 *   --forms          also score the strict rows as sending MTAs report them (in an Exim report, a Postfix report,
 *                    a DSN) and with their reply and status codes removed: the figures should not move
 *   --real           score the `test` split of the gathered real replies (scripts/train/real/) instead of
 *                    the dev set: sources never trained on nor calibrated on
 *   --holdout        score the holdout replies (scripts/train/real/holdout.jsonl) instead: gathered after the
 *                    rules were written, never trained on; the rules' probabilities are measured there
 *   --all            score the dev set, the test split and the holdout together: on a few hundred rows an ECE is
 *                    mostly sampling noise (see the `exact` figure), pooled it says more
 *
 * With the built-in plugin, each model is scored twice, side by side: as served (rules, then the trained model)
 * and the trained model alone (plugin config `rules: false`), which is what answers where no rule fires.
 *
 * It classifies through the public plugin interface, as the bounce-classifier API plugin does: `usePlugin`
 * starts the plugin, each text goes through the API plugin's `normaliserOf` (the service's `normalise` when it has
 * one, plugin API 1.1, a reply that is only a code given its status's description first; without it the texts are
 * sent as they are), then `service.classify(model, texts)`.
 *
 * Per model: strict accuracy over rows without an `ambiguous_<model>` list; lenient accuracy over all rows (an
 * ambiguous row is right when the answer is any listed class); on strict rows, macro-F1 over the classes that
 * occur as a true label, per-class precision/recall/F1/support, the confusion matrix (classes that occur as a
 * true or a predicted label) and the calibration of the returned probability (ECE over 10 equal-width bins,
 * mean confidence against accuracy, with a 90 % bootstrap interval of the ECE, share and accuracy of answers with
 * probability > 0.9, and the share of the wrong answers given with probability > 0.9: the errors a caller trusting
 * confident answers would not catch), beside the share expected were every probability exact.
 *
 * Exit codes: 0 measured; 2 nothing measured (dev set missing, bad option); 1 anything else failed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BACKOFF_CLASSES, BNAC_CLASSES } from '../generated/data/bounce-classifier.ts';
import { usePlugin } from '../runtime/mod.ts';
import { normaliserOf } from '../plugins/bounce-classifier/classify.ts';
import type { Classification, Classifier, ClassifierModel } from '../runtime/mod.ts';
import { holdoutFile, readRealText, REAL_TEXT_FILE } from './train/real-text.ts';
import {
  aboveThreshold,
  calibration,
  expectedErrorShare,
  eceInterval,
  exactEce,
  evaluate,
  lenientAccuracy,
  macroF1Present,
  occurringClasses,
  subMatrix,
  type Calibration,
  type ClassScore,
} from './train/metrics.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the dev set lives when neither --file nor BOUNCE_DEV says otherwise. */
export const DEFAULT_DEV_FILE = join(ROOT, '..', 'shared', 'bounce-dev', 'dev.jsonl');
const MODELS: readonly ClassifierModel[] = ['bnac', 'backoff'];
const CLASSES: Record<ClassifierModel, readonly string[]> = { bnac: BNAC_CLASSES, backoff: BACKOFF_CLASSES };
/** Answers above this probability are reported apart: the share a caller could trust without review. */
const CONFIDENT = 0.9;
const BINS = 10;

/** One dev-set row, as the file holds it (extra fields are ignored). */
export interface DevRow {
  text: string;
  bnac: string;
  backoff: string;
  ambiguous_bnac?: string[];
  ambiguous_backoff?: string[];
  family?: string;
}

/** A wrong answer on a strict row. */
export interface EvalError {
  expected: string;
  got: string;
  probability: number;
  text: string;
}

/** Figures of one model. */
export interface ModelResult {
  strict: { n: number; correct: number; accuracy: number };
  lenient: { n: number; correct: number; accuracy: number };
  /** Rows with an ambiguity list for this model, and how many got one of the listed classes. */
  ambiguous: { n: number; correct: number };
  /** Mean F1 over the classes occurring as a true label in the strict rows. */
  macroF1: number;
  /** Classes occurring in the strict rows as a true or a predicted label, in the model's class order. */
  perClass: ClassScore[];
  /** matrix[true][predicted] over `labels` (strict rows). */
  confusion: { labels: string[]; matrix: number[][] };
  calibration: Calibration;
  /** 90 % bootstrap interval of `calibration.ece` (rows resampled with replacement) */
  eceInterval: [number, number];
  /** The ECE's 90 % range and median were every probability exact, on these rows (`exactEce`): sampling noise alone */
  exactEce: { low: number; median: number; high: number };
  confident: { threshold: number; n: number; share: number; accuracy: number };
  /**
   * Wrong strict answers given with probability above the threshold, their share of all wrong strict answers, and
   * the share expected if every probability were exact (`expectedErrorShare`)
   */
  confidentErrors: { n: number; share: number; expectedShare: number };
  errors: EvalError[];
}

/**
 * The dev rows as sending MTAs wrap them, and without their codes (`--forms`). A wrapper must not change the
 * answer; without codes the text alone decides, as it must for the many MTAs that drop them.
 */
const AS_LABELLED = (text: string): string => text;

export const FORMS: Readonly<Record<string, (text: string) => string>> = {
  'as labelled': AS_LABELLED,
  'in an Exim report': (t) =>
    `SMTP error from remote mail server after RCPT TO:<someone@example.org>:\n    host mx.example.org [192.0.2.10]: ${t}`,
  'in a Postfix report': (t) =>
    `<someone@example.org>: host mx.example.org[192.0.2.10] said: ${t} (in reply to RCPT TO command)`,
  'in a DSN': (t) =>
    `Final-Recipient: rfc822; someone@example.org\nAction: failed\nStatus: 5.0.0\nDiagnostic-Code: smtp; ${t}`,
  'codes removed': (t) =>
    t
      .replace(/^\s*[245]\d\d[ -]/, '')
      .replace(/\b[245]\.\d{1,3}\.\d{1,3}\b/g, '')
      .replace(/\s+/g, ' ')
      .trim(),
};

/** Strict accuracy of each model on the rows in one form. */
export type FormResult = Record<ClassifierModel, { n: number; correct: number; accuracy: number }>;

/** Whole result of one run. */
export interface EvalResult {
  file: string;
  plugin: string;
  version: string;
  /** `service` when the texts went through `service.normalise`, `none` when they were sent as they are. */
  normalise: 'service' | 'none';
  rows: number;
  models: Record<ClassifierModel, ModelResult>;
  /** With --forms: strict accuracy per form of FORMS */
  forms?: Record<string, FormResult>;
  /** The built-in plugin's trained models alone (rules off), same rows */
  modelAlone?: Record<ClassifierModel, ModelResult>;
}

class UsageError extends Error {}

/**
 * What is wrong with a row's classes for one model, if anything: its class and each class of its `ambiguous_*` list
 * must be the spec's. The dev set and the rows gatherers hand in (`npm run real-text -- --add`) are checked alike.
 */
export function labelProblem(row: Record<string, unknown>, model: ClassifierModel): string | undefined {
  const known = (label: unknown) => typeof label === 'string' && CLASSES[model].includes(label);
  if (!known(row[model])) return `unknown ${model} class ${JSON.stringify(row[model])}`;
  const list = row[`ambiguous_${model}`];
  if (list !== undefined && (!Array.isArray(list) || !list.every(known)))
    return `"ambiguous_${model}" must be a list of ${model} classes`;
  return undefined;
}

/** Reads and checks the dev set; a bad row names its line. */
export function readDevSet(file: string): DevRow[] {
  const rows: DevRow[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      const where = `${file}:${i + 1}`;
      let row: DevRow;
      try {
        row = JSON.parse(line) as DevRow;
      } catch (error) {
        throw new Error(`${where}: not JSON (${(error as Error).message})`);
      }
      if (typeof row.text !== 'string') throw new Error(`${where}: "text" must be a string`);
      for (const model of MODELS) {
        const problem = labelProblem(row as unknown as Record<string, unknown>, model);
        if (problem !== undefined) throw new Error(`${where}: ${problem}`);
      }
      rows.push(row);
    });
  return rows;
}

const ambiguity = (row: DevRow, model: ClassifierModel): readonly string[] | undefined => {
  const list = row[`ambiguous_${model}`];
  return list && list.length > 0 ? list : undefined;
};

/** The classes counted right for a row by lenient accuracy: its ambiguity list, or its class alone */
export const acceptedClasses = (row: DevRow, model: ClassifierModel): readonly string[] =>
  ambiguity(row, model) ?? [row[model]];

/** Scores one model's answers (one per row, in row order). */
export function scoreModel(
  model: ClassifierModel,
  rows: readonly DevRow[],
  answers: readonly Classification[],
): ModelResult {
  if (answers.length !== rows.length) throw new Error(`${model}: ${answers.length} answers for ${rows.length} rows`);
  // A plugin may answer a class outside the closed list; it then gets a column of its own
  const labels = [...CLASSES[model]];
  for (const a of answers) if (!labels.includes(a.label)) labels.push(a.label);
  const strict = rows.flatMap((row, i) => (ambiguity(row, model) ? [] : [i]));
  const truth = strict.map((i) => labels.indexOf(rows[i]![model]));
  const predicted = strict.map((i) => labels.indexOf(answers[i]!.label));
  const confidence = strict.map((i) => answers[i]!.probability);
  const correct = strict.map((i, j) => truth[j] === predicted[j]);
  const evaluation = evaluate(
    labels,
    truth,
    predicted,
    confidence,
    strict.map((i) => rows[i]!.family ?? ''),
  );
  const occurring = occurringClasses(evaluation.confusion);
  const accepted = rows.map((row) => acceptedClasses(row, model));
  const lenient = lenientAccuracy(
    answers.map((a) => a.label),
    accepted,
  );
  const ambiguousRows = rows.flatMap((row, i) => (ambiguity(row, model) ? [i] : []));
  const strictCorrect = correct.filter(Boolean).length;
  const wrongConfident = strict.filter((i, j) => !correct[j] && answers[i]!.probability > CONFIDENT).length;
  const wrong = strict.length - strictCorrect;
  return {
    strict: { n: strict.length, correct: strictCorrect, accuracy: strict.length ? strictCorrect / strict.length : 0 },
    lenient,
    ambiguous: {
      n: ambiguousRows.length,
      correct: ambiguousRows.filter((i) => accepted[i]!.includes(answers[i]!.label)).length,
    },
    macroF1: macroF1Present(evaluation.perClass),
    perClass: occurring.map((c) => evaluation.perClass[c]!),
    confusion: { labels: occurring.map((c) => labels[c]!), matrix: subMatrix(evaluation.confusion, occurring) },
    calibration: calibration(confidence, correct, BINS),
    eceInterval: eceInterval(confidence, correct, BINS),
    exactEce: exactEce(confidence, BINS),
    confident: aboveThreshold(confidence, correct, CONFIDENT),
    confidentErrors: {
      n: wrongConfident,
      share: wrong ? wrongConfident / wrong : 0,
      expectedShare: expectedErrorShare(confidence, CONFIDENT),
    },
    errors: strict.flatMap((i, j) =>
      correct[j]
        ? []
        : [
            {
              expected: rows[i]![model],
              got: answers[i]!.label,
              probability: answers[i]!.probability,
              text: rows[i]!.text,
            },
          ],
    ),
  };
}

/** Starts the plugin once, classifies every row with both models (and, given `forms`, every row in each form), closes it. */
export async function evaluatePlugin(
  file: string,
  plugin: string,
  rows: readonly DevRow[],
  forms?: Readonly<Record<string, (text: string) => string>>,
  config?: Record<string, unknown>,
): Promise<EvalResult> {
  // A value naming an existing file or folder (or holding a slash) is a path; otherwise a built-in plugin id
  const isPath = plugin.includes('/') || existsSync(plugin);
  const entry = isPath
    ? { id: basename(resolve(plugin)).replace(/\.[cm]?[jt]s$/, ''), path: resolve(plugin), config }
    : { id: plugin, config };
  const used = await usePlugin<Classifier>(entry, { baseDir: ROOT });
  try {
    const service = used.service;
    if (!service || typeof service.classify !== 'function')
      throw new Error(`plugin "${plugin}" has no classifier service`);
    const normalise = normaliserOf(service);
    const score = async (wrap: (text: string) => string) => {
      const texts = rows.map((row) => normalise(wrap(row.text)));
      const models = {} as Record<ClassifierModel, ModelResult>;
      for (const model of MODELS) models[model] = scoreModel(model, rows, await service.classify(model, texts));
      return models;
    };
    const result: EvalResult = {
      file,
      plugin,
      version: service.version,
      normalise: typeof service.normalise === 'function' ? 'service' : 'none',
      rows: rows.length,
      models: await score(AS_LABELLED),
    };
    if (forms) {
      result.forms = {};
      for (const [form, wrap] of Object.entries(forms)) {
        // The rows as labelled are the main figures, already scored
        const { bnac, backoff } = wrap === AS_LABELLED ? result.models : await score(wrap);
        result.forms[form] = { bnac: bnac.strict, backoff: backoff.strict };
      }
    }
    return result;
  } finally {
    await used.close();
  }
}

const pct = (x: number): string => `${(100 * x).toFixed(1)} %`;
const interval = (r: ModelResult): string => r.eceInterval.map((e) => e.toFixed(3)).join('-');
const exact = (r: ModelResult): string =>
  `${r.exactEce.median.toFixed(3)} (${r.exactEce.low.toFixed(3)}-${r.exactEce.high.toFixed(3)})`;

/** Aligned columns: the first `left` ones padded on the right, the others (figures) on the left. */
function table(header: readonly string[], body: readonly (readonly string[])[], left = 1): string[] {
  const width = header.map((h, c) => Math.max(h.length, ...body.map((r) => r[c]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((s, c) => (c < left ? s.padEnd(width[c]!) : s.padStart(width[c]!))).join('  ');
  return [line(header), ...body.map(line)];
}

/** The text report of one model; `errors` appends the wrong strict rows. */
export function modelReport(model: ClassifierModel, r: ModelResult, errors: boolean): string {
  const c = r.calibration;
  const lines = [
    `== ${model}`,
    `strict accuracy   ${pct(r.strict.accuracy)}  (${r.strict.correct}/${r.strict.n} rows without an ambiguous_${model} list)`,
    `lenient accuracy  ${pct(r.lenient.accuracy)}  (${r.lenient.correct}/${r.lenient.n} rows; ${r.ambiguous.correct}/${r.ambiguous.n} ambiguous rows answered with a listed class)`,
    `macro-F1          ${pct(r.macroF1)}  (over the ${r.perClass.filter((p) => p.support > 0).length} classes in the strict rows)`,
    `calibration       ECE ${c.ece.toFixed(3)} (90 % interval ${interval(r)}; ${BINS} equal-width ` +
      `bins of the probability over [0, 1], strict rows; ${exact(r)} were every probability exact), ` +
      `mean confidence ${pct(c.meanConfidence)} vs accuracy ${pct(c.accuracy)}; ` +
      `p > ${r.confident.threshold}: ${pct(r.confident.share)} of answers (${r.confident.n}), ${pct(r.confident.accuracy)} right`,
    `Brier score       ${c.brier.toFixed(4)} (top label: mean squared distance of the answer's probability from right 1 / wrong 0, strict rows; lower is better)`,
    `errors above ${r.confident.threshold}  ${pct(r.confidentErrors.share)} ` +
      `of the wrong strict answers (${r.confidentErrors.n}/${r.errors.length}); ` +
      `${pct(r.confidentErrors.expectedShare)} if every probability were exact`,
    '',
    ...table(
      ['confidence bin', 'n', 'mean p', 'accuracy'],
      c.bins.map((b) => [`${b.lo.toFixed(1)}-${b.hi.toFixed(1)}`, String(b.n), pct(b.meanConfidence), pct(b.accuracy)]),
    ),
    '',
    ...table(
      ['class', 'precision', 'recall', 'F1', 'support'],
      r.perClass.map((p) => [p.label, pct(p.precision), pct(p.recall), pct(p.f1), String(p.support)]),
    ),
    '',
    'confusion (rows: true class, columns: predicted, by row number):',
    ...table(
      ['#', 'true \\ predicted', ...r.confusion.labels.map((_, i) => String(i + 1))],
      r.confusion.matrix.map((row, i) => [
        String(i + 1),
        r.confusion.labels[i]!,
        ...row.map((n) => (n ? String(n) : '.')),
      ]),
      2,
    ),
  ];
  if (errors) lines.push('', ...errorLines(model, r));
  return lines.join('\n');
}

/** Rules plus model against the model alone, one line per figure. */
export function sideBySide(
  combined: Record<ClassifierModel, ModelResult>,
  alone: Record<ClassifierModel, ModelResult>,
): string[] {
  const cell = (r: ModelResult) =>
    `${pct(r.strict.accuracy)} (${r.strict.correct}/${r.strict.n}); ECE ${r.calibration.ece.toFixed(3)} ` +
    `[${interval(r)}], exact ${r.exactEce.median.toFixed(3)}; ${pct(r.confidentErrors.share)} ` +
    `(${r.confidentErrors.n}/${r.errors.length}), exact ${pct(r.confidentErrors.expectedShare)}`;
  return table(
    ['model', 'rules + model', 'model alone'],
    MODELS.map((m) => [m, cell(combined[m]), cell(alone[m])]),
  );
}

function errorLines(model: ClassifierModel, r: ModelResult): string[] {
  return [
    `wrong ${model} answers on strict rows (${r.errors.length}):`,
    ...r.errors.map((e) => `${e.expected} -> ${e.got} (${e.probability.toFixed(2)})  ${e.text.replace(/\s+/g, ' ')}`),
  ];
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseArgs({
      options: {
        file: { type: 'string' },
        plugin: { type: 'string', default: 'bounce-model' },
        errors: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        forms: { type: 'boolean', default: false },
        real: { type: 'boolean', default: false },
        holdout: { type: 'boolean', default: false },
        all: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (args.help) {
    console.log(
      'usage: npm run eval -- [--file PATH | --real | --holdout | --all] [--plugin ID|DIR] [--errors] [--json] [--forms]',
    );
    return 0;
  }
  // --all reads the dev set from --file like the default; --real and --holdout name sets of their own
  if ([args.real, args.holdout, args.all || args.file !== undefined].filter(Boolean).length > 1)
    throw new UsageError('--real, --holdout and --file or --all name different sets: give one');
  const devFile = resolve(args.file ?? process.env.BOUNCE_DEV ?? DEFAULT_DEV_FILE);
  // Which set: its name in the report, the file it comes from (the dev set's for --all) and how its rows are read
  const set = args.real
    ? { name: 'gathered real replies, test split', file: REAL_TEXT_FILE, rows: () => readRealText('test') }
    : args.holdout
      ? { name: 'holdout replies', file: holdoutFile(), rows: () => readRealText('holdout') }
      : args.all
        ? {
            name: 'dev set, gathered test split and holdout replies, pooled; dev set',
            file: devFile,
            rows: () => [...readDevSet(devFile), ...readRealText('test'), ...readRealText('holdout')],
          }
        : { name: 'dev set', file: devFile, rows: () => readDevSet(devFile) };
  if (!existsSync(set.file)) {
    console.error(
      `eval: dev set not found at ${set.file}; nothing measured. Point at it with --file PATH or BOUNCE_DEV=PATH.`,
    );
    return 2;
  }
  const rows = set.rows();
  const result = await evaluatePlugin(set.file, args.plugin!, rows, args.forms ? FORMS : undefined);
  if (args.plugin === 'bounce-model')
    result.modelAlone = (await evaluatePlugin(set.file, args.plugin, rows, undefined, { rules: false })).models;
  if (args.json) {
    // Row texts stay out of the JSON: they are for reading at the terminal, not for files
    const strip = (r: Record<ClassifierModel, ModelResult>) =>
      Object.fromEntries(MODELS.map((m) => [m, { ...r[m], errors: r[m].errors.length }]));
    console.log(
      JSON.stringify({
        ...result,
        models: strip(result.models),
        ...(result.modelAlone ? { modelAlone: strip(result.modelAlone) } : {}),
      }),
    );
    if (args.errors) for (const m of MODELS) console.error(errorLines(m, result.models[m]).join('\n'));
  } else {
    console.log(`${set.name} ${result.file}: ${result.rows} rows`);
    if (result.modelAlone)
      console.log(
        [
          '',
          `== side by side (strict accuracy; ECE over ${BINS} equal-width probability bins [90 % ` +
            'bootstrap interval], and the median ECE were every probability exact; errors given ' +
            'with p > 0.9, share of the errors, and the share expected were every probability exact)',
          ...sideBySide(result.models, result.modelAlone),
        ].join('\n'),
      );
    console.log(
      `plugin ${result.plugin} (version ${result.version}); normalise: ${result.normalise === 'service' ? 'service.normalise' : 'none, texts sent as they are'}`,
    );
    for (const m of MODELS) console.log(`\n${modelReport(m, result.models[m], args.errors!)}`);
    if (result.forms) {
      const cell = (r: FormResult[ClassifierModel]) => `${pct(r.accuracy)} (${r.correct}/${r.n})`;
      console.log(
        [
          '',
          '== strict accuracy by form',
          ...table(
            ['form', ...MODELS],
            Object.entries(result.forms).map(([form, r]) => [form, cell(r.bnac), cell(r.backoff)]),
          ),
        ].join('\n'),
      );
    }
  }
  return 0;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => (process.exitCode = code),
    (error: unknown) => {
      console.error(`eval: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = error instanceof UsageError ? 2 : 1;
    },
  );
}
