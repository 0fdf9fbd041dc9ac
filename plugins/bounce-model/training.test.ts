import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { readCorpus } from '../../scripts/train/corpus.ts';
import { TASKS, trainModelFile } from '../../scripts/train.ts';
import { loadModel } from './model.ts';

const rows = readCorpus(join(import.meta.dirname, 'corpus')).filter((_, i) => i % 10 === 0);
const small = { bits: 14, epochs: 2, learningRate: 0.2, seed: 7 };

test('training gives byte-identical model files when run twice on the same corpus subset', () => {
  for (const task of TASKS) {
    const a = trainModelFile(rows, task, 1.2, small);
    const b = trainModelFile(rows, task, 1.2, small);
    assert.ok(a.equals(b), `${task.name} differs between runs`);
    assert.is(loadModel(a).version, loadModel(b).version);
  }
});

test('training changes the model version when the seed changes', () => {
  const a = trainModelFile(rows, TASKS[0], 1, small);
  const b = trainModelFile(rows, TASKS[0], 1, { ...small, seed: 8 });
  assert.is.not(loadModel(a).version, loadModel(b).version);
});

test.run();
