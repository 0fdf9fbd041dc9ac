import * as assert from 'uvu/assert';
import { test } from '../../test/_deadline.ts';
import { readModelCalibration, readRuleProbabilities } from '../../plugins/bounce-model/model.ts';
import { isotonicMap, MIN_BLOCK, ruleProbabilities } from './calibrate.ts';
import { readRealText } from './real-text.ts';

test('the shipped rule probabilities are the ones the rules give on the holdout replies now', () => {
  // A hand-edited figure, a rule edited without `npm run train -- --rule-probabilities`, or figures measured on any
  // other rows (the train and calibration replies the rules were written with) fail here
  const holdout = readRealText('holdout');
  assert.ok(holdout.length > 0, 'the holdout file has rows');
  assert.equal(readRuleProbabilities(), ruleProbabilities(holdout));
});

test('the shipped probability maps are monotone steps fitted on enough answers', () => {
  const maps = readModelCalibration();
  for (const name of ['bnac', 'backoff'] as const) {
    assert.ok(maps[name].to.length > 0, `${name}: a map was fitted`);
    assert.ok(
      (maps[name].measuredOn ?? 0) >= MIN_BLOCK * maps[name].to.length,
      `${name}: steps of ${MIN_BLOCK} answers`,
    );
  }
});

test('isotonicMap gives each step its share right, smoothed, in steps of at least MIN_BLOCK answers', () => {
  // 20 answers at p 0.3 of which 5 right, 20 at p 0.9 of which 19 right
  const points = [
    ...Array.from({ length: 20 }, (_, i) => ({ p: 0.3, right: i < 5 })),
    ...Array.from({ length: 20 }, (_, i) => ({ p: 0.9, right: i < 19 })),
  ];
  assert.equal(isotonicMap(points), { from: [0, 0.9], to: [0.2619, 0.9286], measuredOn: 40 });
  // A step of fewer answers is merged into its neighbour: one wrong answer alone makes no step of its own
  const merged = isotonicMap([{ p: 0.1, right: false }, ...points]);
  assert.is(merged.to.length, 2);
  assert.ok(merged.to.every((p, i) => i === 0 || p >= merged.to[i - 1]!));
});

test.run();
