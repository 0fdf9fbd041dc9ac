import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { EvalResult } from './eval.ts';
import { scoreModel } from './eval.ts';
import { readRealText } from './train/real-text.ts';
import {
  aboveThreshold,
  calibration,
  exactEce,
  expectedCalibrationError,
  lenientAccuracy,
  macroF1Present,
  occurringClasses,
  perClassScores,
  subMatrix,
} from './train/metrics.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EVAL = join(ROOT, 'scripts/eval.ts');
const RULES = join(ROOT, 'docs/examples/rules-classifier');
const near = (got: number, want: number, what: string) =>
  assert.ok(Math.abs(got - want) < 1e-9, `${what}: got ${got}, want ${want}`);

// ---- metric helpers ----

test('expectedCalibrationError matches the hand-computed value when answers fall in several bins', () => {
  const cases: { name: string; confidence: number[]; correct: boolean[]; want: number }[] = [
    // bin 9: p .95, 1/1 right -> .05 x 1/4; bin 8: p .85, 1/2 right -> .35 x 2/4; bin 1: p .15, 0/1 right -> .15 x 1/4
    {
      name: 'three bins',
      confidence: [0.95, 0.85, 0.85, 0.15],
      correct: [true, true, false, false],
      want: 0.0125 + 0.175 + 0.0375,
    },
    // one bin each: |1 - .9| / 2 + |0 - .1| / 2; pooled into one bin it would be 0
    { name: 'two bins, not pooled', confidence: [0.9, 0.1], correct: [true, false], want: 0.1 },
    // p = 1 goes to the last bin, p = 0 to the first: perfectly calibrated
    { name: 'edges', confidence: [1, 0], correct: [true, false], want: 0 },
    { name: 'all wrong at p .8', confidence: [0.8, 0.8], correct: [false, false], want: 0.8 },
    { name: 'no rows', confidence: [], correct: [], want: 0 },
  ];
  for (const c of cases) near(expectedCalibrationError(c.confidence, c.correct), c.want, c.name);
});

test('calibration reports the non-empty bins, mean confidence and accuracy when given answers', () => {
  const got = calibration([0.95, 0.85, 0.85, 0.15, 1], [true, true, false, false, true]);
  assert.equal(
    got.bins.map((b) => [b.lo, b.n, b.accuracy]),
    [
      [0.1, 1, 0],
      [0.8, 2, 0.5],
      [0.9, 2, 1],
    ],
  );
  near(got.meanConfidence, (0.95 + 0.85 + 0.85 + 0.15 + 1) / 5, 'mean confidence');
  near(got.accuracy, 3 / 5, 'accuracy');
  // (1 - .95)^2 + (1 - .85)^2 + .85^2 + .15^2 + 0, over 5
  near(got.brier, (0.0025 + 0.0225 + 0.7225 + 0.0225) / 5, 'Brier score');
  near(calibration([], []).brier, 0, 'Brier score of no rows');
  assert.is(got.n, 5);
});

test('lenientAccuracy counts an answer right when it is any accepted class', () => {
  const cases: { predicted: string[]; accepted: string[][]; want: [number, number] }[] = [
    { predicted: ['A', 'B', 'C'], accepted: [['A'], ['A', 'B'], ['A']], want: [2, 3] },
    { predicted: ['B'], accepted: [['A', 'C']], want: [0, 1] },
    { predicted: [], accepted: [], want: [0, 0] },
  ];
  for (const c of cases) {
    const got = lenientAccuracy(c.predicted, c.accepted);
    assert.equal([got.correct, got.n], c.want);
    near(got.accuracy, c.want[1] ? c.want[0] / c.want[1] : 0, 'accuracy');
  }
});

test('aboveThreshold counts only answers strictly above the threshold', () => {
  const got = aboveThreshold([0.95, 0.9, 0.99, 0.5], [true, true, false, true], 0.9);
  assert.equal(got, { threshold: 0.9, n: 2, share: 0.5, accuracy: 0.5 });
  assert.equal(aboveThreshold([0.5], [true], 0.9), { threshold: 0.9, n: 0, share: 0, accuracy: 0 });
});

test('exactEce gives the ECE that exact probabilities show on this many rows, and no spread when they are certain', () => {
  // 0.9 on every answer: right 9 times in 10 on average, and one bin, so ECE = |right share - 0.9|
  const confidence = new Array<number>(100).fill(0.9);
  const got = exactEce(confidence);
  // Binomial(100, 0.9): the right share's standard deviation is 0.03; its 5th-95th percentiles sit near 0.85 and 0.95
  assert.ok(got.low <= 0.01 && got.median > 0.01 && got.median < 0.04, JSON.stringify(got));
  assert.ok(got.high > 0.04 && got.high < 0.07, JSON.stringify(got));
  assert.equal(exactEce(confidence), got, 'seeded: the same figures on a second call');
  // Quadrupling the rows halves the noise
  const more = exactEce(new Array<number>(400).fill(0.9));
  assert.ok(Math.abs(more.median - got.median / 2) < 0.01, `${more.median} vs ${got.median}`);
  // Certain answers (p 1 or 0) are drawn right or wrong every time: no noise at all
  assert.equal(exactEce([1, 1, 0, 0]), { low: 0, median: 0, high: 0 });
  assert.equal(exactEce([]), { low: 0, median: 0, high: 0 });
});

test('scoreModel counts the wrong strict answers given with p > 0.9 and their share of the errors', () => {
  const rows = ['a', 'b', 'c', 'd'].map((text) => ({ text, bnac: 'VIRUS', backoff: 'MAILBOX_FULL' }));
  const answers = [
    { label: 'VIRUS', probability: 0.99 },
    { label: 'DKIM', probability: 0.95 },
    { label: 'SPF', probability: 0.5 },
    { label: 'DMARC', probability: 0.91 },
  ];
  const r = scoreModel('bnac', rows, answers);
  const { expectedShare, ...counted } = r.confidentErrors;
  assert.equal(counted, { n: 2, share: 2 / 3 });
  // Were each probability exact, 0.01 + 0.05 + 0.09 of the 0.65 expected errors fall above 0.9
  assert.ok(Math.abs(expectedShare - 0.15 / 0.65) < 1e-12, String(expectedShare));
  const one = scoreModel('bnac', rows.slice(0, 1), answers.slice(0, 1)).confidentErrors;
  assert.equal(one, { n: 0, share: 0, expectedShare: 1 });
});

test('macroF1Present averages only classes with support, and the confusion helpers keep occurring classes', () => {
  // true\pred: A: 2 A, 1 C; B: none; C: 1 C
  const confusion = [
    [2, 0, 1],
    [0, 0, 0],
    [0, 0, 1],
  ];
  const per = perClassScores(['A', 'B', 'C'], confusion);
  assert.equal(
    per.map((c) => [c.label, c.support]),
    [
      ['A', 3],
      ['B', 0],
      ['C', 1],
    ],
  );
  near(per[0]!.f1, 0.8, 'F1 of A'); // P 1, R 2/3
  near(per[2]!.f1, 2 / 3, 'F1 of C'); // P 1/2, R 1
  near(macroF1Present(per), (0.8 + 2 / 3) / 2, 'macro-F1 over A and C');
  assert.equal(occurringClasses(confusion), [0, 2]);
  assert.equal(subMatrix(confusion, [0, 2]), [
    [2, 1],
    [0, 1],
  ]);
  // A class that is only predicted still occurs
  assert.equal(
    occurringClasses([
      [0, 1],
      [0, 0],
    ]),
    [0, 1],
  );
});

// ---- scripts/eval.ts as a process ----

function run(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', EVAL, ...args], {
      cwd: ROOT,
      env: { ...process.env, BOUNCE_DEV: undefined, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'capstan-eval-'));
const devFile = join(dir, 'dev.jsonl');
// Written for this test. With the rules example classifier (texts are lower case so its patterns match with or
// without normalisation): rows 1-3 right at p 0.8, row 4 wrong (fallback, p 0.2) for both models; row 5 is
// ambiguous and answered with its second listed class, row 6 is ambiguous and answered outside its list.
const rows = [
  {
    text: '550 5.1.1 <nobody@example.org>: recipient address rejected: user unknown in local recipient table',
    bnac: 'RECIPIENT_NOT_FOUND',
    backoff: 'RECIPIENT_ERROR',
  },
  { text: '451 4.7.1 greylisted, please retry in 300 seconds', bnac: 'GRAYLISTING', backoff: 'GRAYLISTING' },
  { text: '552 5.2.2 mailbox full for this user', bnac: 'RECIPIENT_ERROR', backoff: 'MAILBOX_FULL' },
  {
    text: '554 5.7.1 your sending address 192.0.2.9 is listed here',
    bnac: 'BLOCK_LIST',
    backoff: 'INFRASTRUCTURE_BLOCK',
  },
  {
    text: '550 5.7.1 relaying denied for this domain',
    bnac: 'MX_ERROR',
    ambiguous_bnac: ['MX_ERROR', 'BLOCKED'],
    backoff: 'RECIPIENT_ERROR',
    ambiguous_backoff: ['RECIPIENT_ERROR', 'GENERIC_BLOCK'],
  },
  {
    text: '451 4.3.0 please try again later',
    bnac: 'TEMPORARY_ERROR',
    ambiguous_bnac: ['TEMPORARY_ERROR', 'GRAYLISTING'],
    backoff: 'TEMPORARY_SYSTEM_FAILURE',
    ambiguous_backoff: ['TEMPORARY_SYSTEM_FAILURE', 'GRAYLISTING'],
  },
];
writeFileSync(devFile, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');

test('eval scores strict and lenient rows exactly when the rules example classifies the synthetic set', async () => {
  const { code, stdout, stderr } = await run(['--file', devFile, '--plugin', RULES, '--json']);
  assert.is(code, 0, stderr);
  const result = JSON.parse(stdout) as EvalResult;
  assert.is(result.rows, 6);
  for (const model of ['bnac', 'backoff'] as const) {
    const r = result.models[model];
    assert.equal([r.strict.correct, r.strict.n], [3, 4], `${model} strict`);
    assert.equal([r.lenient.correct, r.lenient.n], [4, 6], `${model} lenient`);
    assert.equal(r.ambiguous, { n: 2, correct: 1 }, `${model} ambiguous`);
    // bin 8: 3 right at .8 -> .2 x 3/4; bin 2: 1 wrong at .2 -> .2 x 1/4
    near(r.calibration.ece, 0.2, `${model} ECE`);
    near(r.calibration.meanConfidence, 0.65, `${model} mean confidence`);
    // (1 - .8)^2 on each right answer, .2^2 on the wrong one
    near(r.calibration.brier, 0.04, `${model} Brier score`);
    assert.equal(r.confident, { threshold: 0.9, n: 0, share: 0, accuracy: 0 });
    assert.is(r.errors as unknown, 1, `${model}: JSON holds the error count, not the texts`);
  }
  const bnac = result.models.bnac;
  assert.equal(bnac.confusion.labels, [
    'BLOCK_LIST',
    'GRAYLISTING',
    'RECIPIENT_ERROR',
    'RECIPIENT_NOT_FOUND',
    'TEMPORARY_ERROR',
  ]);
  assert.equal(bnac.confusion.matrix[0], [0, 0, 0, 0, 1]);
  // Four classes have support (BLOCK_LIST F1 0, three at 1); TEMPORARY_ERROR is only predicted
  near(bnac.macroF1, 0.75, 'bnac macro-F1');
  assert.equal(
    bnac.perClass.map((c) => c.support),
    [1, 1, 1, 1, 0],
  );
});

test('eval reads BOUNCE_DEV and lists wrong strict rows when given --errors', async () => {
  const { code, stdout, stderr } = await run(['--plugin', RULES, '--errors'], { BOUNCE_DEV: devFile });
  assert.is(code, 0, stderr);
  const shown = stdout.slice(0, 2000);
  assert.ok(stdout.includes(`dev set ${devFile}: 6 rows`), shown);
  assert.match(stdout, /strict accuracy\s+75\.0 %\s+\(3\/4 rows/);
  assert.match(stdout, /Brier score\s+0\.0400 /);
  assert.ok(stdout.includes(`BLOCK_LIST -> TEMPORARY_ERROR (0.20)  ${rows[3]!.text}`), shown);
  assert.ok(stdout.includes(`INFRASTRUCTURE_BLOCK -> TEMPORARY_SYSTEM_FAILURE (0.20)  ${rows[3]!.text}`), shown);
  // Ambiguous rows are never listed as errors
  assert.not.ok(stdout.includes(rows[5]!.text), 'ambiguous row listed');
});

test('eval scores every form of the rows when given --forms', async () => {
  const { code, stdout, stderr } = await run(['--file', devFile, '--forms', '--json']);
  assert.is(code, 0, stderr);
  const result = JSON.parse(stdout) as EvalResult;
  assert.equal(Object.keys(result.forms ?? {}), [
    'as labelled',
    'in an Exim report',
    'in a Postfix report',
    'in a DSN',
    'codes removed',
  ]);
  for (const model of ['bnac', 'backoff'] as const) {
    for (const [form, r] of Object.entries(result.forms!)) assert.is(r[model].n, 4, `${model} ${form}: strict rows`);
  }
  // The built-in model reads the reply out of each wrapper: these short, plain replies keep their answers
  for (const form of ['in an Exim report', 'in a Postfix report', 'in a DSN']) {
    assert.equal(result.forms![form], result.forms!['as labelled'], form);
  }
  const text = await run(['--file', devFile, '--forms']);
  assert.match(text.stdout, /== strict accuracy by form\n(?:.*\n){5}codes removed +\d/);
});

test('eval gives consistent figures when the built-in model classifies the synthetic set', async () => {
  const { code, stdout, stderr } = await run(['--file', devFile, '--json']);
  assert.is(code, 0, stderr);
  const result = JSON.parse(stdout) as EvalResult;
  assert.is(result.plugin, 'bounce-model');
  for (const model of ['bnac', 'backoff'] as const) {
    const r = result.models[model];
    assert.is(r.strict.n, 4);
    assert.is(r.lenient.n, 6);
    assert.is(r.ambiguous.n, 2);
    assert.is(
      r.lenient.correct,
      r.strict.correct + r.ambiguous.correct,
      `${model}: lenient = strict right + ambiguous right`,
    );
    assert.ok(r.calibration.ece >= 0 && r.calibration.ece <= 1, `${model} ECE ${r.calibration.ece}`);
    assert.is(
      r.confusion.matrix.flat().reduce((a, b) => a + b, 0),
      4,
      `${model} confusion sum`,
    );
    assert.is(
      r.confusion.matrix.reduce((a, row, i) => a + row[i]!, 0),
      r.strict.correct,
      `${model} confusion diagonal`,
    );
    assert.is(
      r.calibration.bins.reduce((a, b) => a + b.n, 0),
      4,
      `${model} calibration bins`,
    );
  }
});

test('eval pools the dev set, the test split and the holdout when given --all, and refuses it with --real', async () => {
  const { code, stdout, stderr } = await run(['--file', devFile, '--all', '--plugin', RULES, '--json']);
  assert.is(code, 0, stderr);
  const result = JSON.parse(stdout) as EvalResult;
  assert.is(result.rows, rows.length + readRealText('test').length + readRealText('holdout').length);
  const strictRows = (set: readonly { ambiguous_bnac?: string[] }[]) =>
    set.filter((r) => !r.ambiguous_bnac?.length).length;
  assert.is(
    result.models.bnac.strict.n,
    strictRows(rows) + strictRows(readRealText('test')) + strictRows(readRealText('holdout')),
  );
  const both = await run(['--all', '--real']);
  assert.is(both.code, 2);
  assert.match(both.stderr, /name different sets: give one/);
});

test('eval exits 2 with one clear line when the dev set is missing', async () => {
  const missing = join(dir, 'absent.jsonl');
  const { code, stdout, stderr } = await run(['--file', missing]);
  assert.is(code, 2);
  assert.is(stdout, '');
  const lines = stderr.trim().split('\n');
  assert.is(lines.length, 1, stderr);
  assert.ok(lines[0]!.includes(`dev set not found at ${missing}`), stderr);
  assert.match(lines[0]!, /--file PATH/);
  assert.match(lines[0]!, /BOUNCE_DEV/);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test.run();
