/**
 * Replies written by hand from real providers' bounces, none of them in the corpus or made by its generator: a small
 * check that the models generalise beyond the templates they were trained on. `known-failing.jsonl` holds replies
 * the models get wrong today, with the reason; a test fails when one starts passing, so the bucket stays true.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { normalise } from '../bounce-classifier/normalise.ts';
import { loadModel } from './model.ts';

interface Row {
  text: string;
  bnac: string;
  backoff: string;
  /** known-failing only: the models that get it wrong, and why */
  failing?: ('bnac' | 'backoff')[];
  why?: string;
}

const rows = (file: string): Row[] =>
  readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
const models = {
  bnac: await loadModel(new URL('./models/bnac.model', import.meta.url).pathname),
  backoff: await loadModel(new URL('./models/backoff.model', import.meta.url).pathname),
};

for (const name of ['bnac', 'backoff'] as const) {
  test(`${name} model classifies unseen real-world replies`, () => {
    const failures = rows('unseen.jsonl')
      .map((row) => ({ row, got: models[name].predict(normalise(row.text)).label }))
      .filter(({ row, got }) => got !== row[name])
      .map(({ row, got }) => `  input:    ${row.text}\n  expected: ${row[name]}\n  actual:   ${got}`);
    assert.is(failures.length, 0, `\n${failures.join('\n\n')}`);
  });
}

test('known-failing replies are still misclassified by the models listed', () => {
  for (const row of rows('known-failing.jsonl')) {
    for (const name of row.failing!) {
      assert.is.not(models[name].predict(normalise(row.text)).label, row[name], `${name} now passes, move it to unseen.jsonl: ${row.text}`);
    }
  }
});

test.run();
