import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { Rng } from './corpus/random.ts';
import { readCorpus } from './train/corpus.ts';
import { augment, TASKS, trainModelFiles } from './train.ts';
import { loadModel } from '../plugins/bounce-model/model.ts';

const rows = readCorpus(join(import.meta.dirname, '../plugins/bounce-model/corpus')).filter((_, i) => i % 10 === 0);
const small = { bits: 14, epochs: 2, learningRate: 0.2, seed: 7, runs: 2 };
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

test('training changes the model version when the seed changes', () => {
  const a = trainModelFiles(rows, fitted, small).bnac;
  const b = trainModelFiles(rows, fitted, { ...small, seed: 8 }).bnac;
  assert.is.not(loadModel(a).version, loadModel(b).version);
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

test.run();
