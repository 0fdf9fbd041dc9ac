import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from './corpus/random.ts';
import { readCorpus } from './train/corpus.ts';
import {
  AMBIGUOUS_COPIES,
  augment,
  REAL_COPIES,
  realTrainingRows,
  TASKS,
  trainModelFiles,
  withoutOneWord,
} from './train.ts';
import { loadModel } from '../plugins/bounce-model/model.ts';
import { softmax, type LinearModel } from '../plugins/bounce-model/linear-model.ts';
import { fitRealTemperature, ruleProbabilities } from './train/calibrate.ts';
import { readRealText, readsTwoWays, type RealRow } from './train/real-text.ts';
import { averageOf, epochOrder, predictLogits, train } from './train/linear-train.ts';
import { normalise } from '../plugins/bounce-model/normalise.ts';
import { servedText } from './train/served-text.ts';

const rows = readCorpus(join(import.meta.dirname, 'corpus/lines')).filter((_, i) => i % 10 === 0);
const small = { bits: 14, epochs: 2, learningRate: 0.2, smoothing: 0.1, seed: 7, runs: 2 };
const fitted = { temperature: 1.2, coverageAlpha: 0.5 };

test('training gives byte-identical model files when run twice on the same corpus subset', () => {
  const a = trainModelFiles(rows, fitted, small);
  const b = trainModelFiles(rows, fitted, small);
  for (const task of TASKS) {
    assert.ok(a[task.name].equals(b[task.name]), `${task.name} differs between runs`);
    assert.is(loadModel(a[task.name]).version, loadModel(b[task.name]).version);
    assert.equal([...loadModel(a[task.name]).labels], [...task.labels]);
  }
});

test('training reads every corpus line and real train reply as the classifier hands it to the models', () => {
  // Trained on another form than the one served, a reply's words teach nothing the service can use
  const dir = join(import.meta.dirname, 'corpus/lines');
  const raw = readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => (JSON.parse(l) as { text: string }).text),
    );
  const corpus = readCorpus(dir);
  assert.is(corpus.length, raw.length);
  let codeOnly = 0;
  corpus.forEach((row, i) => {
    assert.is(row.text, servedText(raw[i]!), row.template);
    if (row.text !== normalise(raw[i]!)) codeOnly++;
  });
  // The lines that are only a code are read with their status's description, as the service reads them
  assert.ok(codeOnly > 0, 'some corpus lines are only a code');
  const train = readRealText('train');
  for (const row of realTrainingRows().rows) {
    const reply = train[Number(row.template.split(':').at(-1))]!;
    assert.is(row.text, servedText(reply.text), reply.text);
  }
});

test('the holdout replies change nothing that is trained or fitted: same model bytes and calibration without them', () => {
  // The holdout measures the rules; were it trained on or calibrated on, its figures would measure memory
  assert.ok(readRealText('holdout').length > 0, 'the holdout file has rows');
  const train = () => ({ files: trainModelFiles(rows, fitted, small), real: realTrainingRows() });
  const withHoldout = train();
  const dir = mkdtempSync(join(tmpdir(), 'capstan-holdout-'));
  process.env.BOUNCE_HOLDOUT = join(dir, 'holdout.jsonl');
  writeFileSync(process.env.BOUNCE_HOLDOUT, '');
  try {
    assert.is(readRealText('holdout').length, 0, 'the swap empties the holdout');
    const without = train();
    for (const task of TASKS) assert.ok(withHoldout.files[task.name].equals(without.files[task.name]), task.name);
    assert.equal(withHoldout.files.calibration, without.files.calibration);
    assert.equal(withHoldout.files.modelCalibration, without.files.modelCalibration);
    assert.equal(withHoldout.real, without.real);
  } finally {
    delete process.env.BOUNCE_HOLDOUT;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a real reply that reads two ways weighs less than one whose classes are plain', () => {
  const copies = new Map<string, number>();
  for (const row of realTrainingRows().rows) copies.set(row.template, (copies.get(row.template) ?? 0) + 1);
  const train = readRealText('train');
  const seen = { plain: 0, ambiguous: 0 };
  for (const [template, n] of copies) {
    // The template ends with the row's index in the train split
    const row = train[Number(template.slice(template.lastIndexOf(':') + 1))]!;
    assert.is(n, readsTwoWays(row) ? AMBIGUOUS_COPIES : REAL_COPIES, row.text);
    seen[readsTwoWays(row) ? 'ambiguous' : 'plain']++;
  }
  assert.ok(seen.plain > 0 && seen.ambiguous > 0, JSON.stringify(seen));
  assert.ok(AMBIGUOUS_COPIES < REAL_COPIES);
});

test('an epoch visits every example once, and examples added after the others leave their order as it was', () => {
  const before = epochOrder(5000, 7, 2);
  assert.equal(
    [...before].sort((a, b) => a - b),
    Array.from({ length: 5000 }, (_, i) => i),
  );
  const after = epochOrder(5024, 7, 2);
  assert.equal(
    [...after].filter((i) => i < 5000),
    [...before],
  );
  // The added ones fall in among the others, not all at the end
  const last = after.lastIndexOf(before.at(-1)!);
  assert.ok(
    [...after.slice(0, last)].some((i) => i >= 5000),
    'some added example comes before the last of the others',
  );
  // Another epoch or seed is another order
  assert.not.equal([...epochOrder(5000, 7, 3)], [...before]);
  assert.not.equal([...epochOrder(5000, 8, 2)], [...before]);
});

test('training changes the model version when the seed changes', () => {
  const a = trainModelFiles(rows, fitted, small).bnac;
  const b = trainModelFiles(rows, fitted, { ...small, seed: 8 }).bnac;
  assert.is.not(loadModel(a).version, loadModel(b).version);
});

test("averageOf gives the mean of the runs' weights and biases, and the shipped model is not one run", () => {
  const run = (w: number[], b: number[]): LinearModel => ({
    labels: ['A', 'B'],
    bits: 1,
    temperature: 1,
    coverageAlpha: 0,
    weights: Float32Array.from(w),
    bias: Float32Array.from(b),
  });
  const mean = averageOf([run([1, 2, 3, 4], [0, 1]), run([3, 2, 1, 0], [2, 1]), run([2, 2, 2, 2], [1, 1])]);
  assert.equal([...mean.weights], [2, 2, 2, 2]);
  assert.equal([...mean.bias], [1, 1]);
  assert.throws(() => averageOf([]), /at least one run/);
  const one = trainModelFiles(rows, fitted, { ...small, runs: 1 }).bnac;
  assert.not.ok(trainModelFiles(rows, fitted, small).bnac.equals(one));
});

test('augment keeps the reply, drops its codes, and sometimes gives it a code of the same class', () => {
  const rng = new Rng(1);
  const seen = new Set<string>();
  for (let i = 0; i < 50; i++) {
    const variants = augment('550 5_1_1 user unknown', rng);
    assert.is(variants[0], '550 5_1_1 user unknown');
    assert.ok(variants.includes('user unknown'), 'a code-less variant');
    for (const v of variants.slice(1)) {
      assert.ok(v.endsWith(' user unknown') || v === 'user unknown', v);
      assert.ok(!/^4/.test(v), `a 5xx reply keeps its class: ${v}`);
    }
    if (variants.length === 3) seen.add(variants[1]!);
  }
  assert.ok(seen.size > 3, 'several generic or wrong codes are drawn');
  assert.equal(augment('connection timed out', new Rng(1)).slice(0, 1), ['connection timed out']);
});

const real = (text: string, bnac: string, backoff: string): RealRow => ({
  text,
  bnac,
  backoff,
  source: 'test',
  license: 'test',
  split: 'calibration',
});

test('ruleProbabilities gives a rule its shrunk precision on held-out rows, lower when it errs, never 0 or 1', () => {
  const rows = [
    real('451 4.7.1 Greylisted, try again later', 'GRAYLISTING', 'GRAYLISTING'),
    real('450 4.2.0 Greylisted for 300 seconds', 'GRAYLISTING', 'GRAYLISTING'),
    real('451 Greylisting in action', 'GRAYLISTING', 'GRAYLISTING'),
    real('552 5.2.2 Mailbox full', 'RATE_LIMIT', 'RATE_LIMIT__GENERAL'),
    real('552 5.2.2 Over quota', 'RATE_LIMIT', 'RATE_LIMIT__GENERAL'),
  ];
  const figures = ruleProbabilities(rows);
  assert.is(figures.bnac.measuredOn, 5);
  const grey = figures.bnac.rules.greylisting!;
  const full = figures.bnac.rules['mailbox-full']!;
  assert.ok(
    grey > figures.bnac.pooled && full < figures.bnac.pooled,
    `greylisting ${grey}, mailbox-full ${full}, pooled ${figures.bnac.pooled}`,
  );
  assert.ok(grey < 1 && full > 0);
});

test('fitRealTemperature flattens an over-sure model and sharpens an under-sure one', () => {
  // Two inner classes, no weights: every reply gets the bias, a strong vote for the first class
  const model: LinearModel = {
    labels: ['a', 'b'],
    bits: 4,
    temperature: 1,
    coverageAlpha: 0,
    weights: new Float32Array(32),
    bias: Float32Array.from([4, 0]),
  };
  const tasks = [{ name: 'bnac' as const, labels: ['A', 'B'], map: Uint8Array.from([0, 1]) }];
  const start = { temperature: 1, coverageAlpha: 0 };
  const mixed = [real('x', 'A', 'A'), real('y', 'B', 'B'), real('z', 'A', 'A'), real('w', 'B', 'B')];
  assert.ok(fitRealTemperature(model, start, mixed, tasks).temperature > 5, 'half wrong: flatter');
  const right = [real('x', 'A', 'A'), real('y', 'A', 'A')];
  assert.ok(
    fitRealTemperature(model, { ...start, temperature: 3 }, right, tasks).temperature < 3,
    'always right: sharper',
  );
});

test('a reply is also trained without one word: never a code or a negation, any other word in turn', () => {
  const rng = new Rng(5);
  const text = '550 5_1_1 the message was not delivered mailbox unavailable';
  const left = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const shorter = withoutOneWord(text, rng);
    assert.ok(shorter !== undefined, 'a reply of six words loses one');
    const words = shorter.split(' ');
    assert.is(words.length, text.split(' ').length - 1, shorter);
    assert.ok(shorter.startsWith('550 5_1_1 '), `codes stay: ${shorter}`);
    assert.ok(words.includes('not'), `the negation stays: ${shorter}`);
    left.add(text.split(' ').find((w) => !words.includes(w))!);
  }
  assert.equal([...left].sort(), ['delivered', 'mailbox', 'message', 'the', 'unavailable', 'was']);
  // Fewer than three words that may go: the reply is trained as it is
  assert.is(withoutOneWord('550 5_1_1 user unknown', rng), undefined);
  assert.is(withoutOneWord('mailbox not full no', rng), undefined);
  assert.is(withoutOneWord('mailbox is full', rng)?.split(' ').length, 2);
});

test('label smoothing keeps training from making any reply certain, however long it trains', () => {
  const examples = [
    { text: 'mailbox full', label: 0 },
    { text: 'user unknown', label: 1 },
    { text: 'greylisted try again later', label: 2 },
  ];
  const sureness = (smoothing: number) => {
    const model = train(examples, ['A', 'B', 'C'], {
      bits: 12,
      epochs: 300,
      learningRate: 0.2,
      smoothing,
      seed: 7,
      runs: 1,
    });
    return Math.min(
      ...predictLogits(
        model,
        examples.map((e) => e.text),
      ).map(({ logits }, i) => {
        softmax(logits, logits.length, 1);
        return logits[examples[i]!.label]!;
      }),
    );
  };
  // The smoothed target gives the label 1 - 0.1 + 0.1 / 3: the loss is least there, so training stops near it
  const smoothed = sureness(0.1);
  assert.ok(smoothed > 0.85 && smoothed < 0.94, `smoothed: ${smoothed}`);
  assert.ok(sureness(0) > 0.99, 'unsmoothed, the same training makes every reply near certain');
});

test.run();
