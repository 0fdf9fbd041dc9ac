import * as assert from 'uvu/assert';
import { test } from '../../test/_deadline.ts';
import {
  calibrated,
  readModelCalibration,
  readRuleProbabilities,
  type ProbabilityMap,
} from '../../plugins/bounce-model/model.ts';
import { baggedMap, isotonicMap, MIN_BLOCK, ruleProbabilities } from './calibrate.ts';
import { rng } from './linear-train.ts';
import { readRealText } from './real-text.ts';

test('the shipped rule probabilities are the ones the rules give on the holdout replies now', () => {
  // A hand-edited figure, a rule edited without `npm run train -- --rule-probabilities`, or figures measured on any
  // other rows (the train and calibration replies the rules were written with) fail here
  const holdout = readRealText('holdout');
  assert.ok(holdout.length > 0, 'the holdout file has rows');
  assert.equal(readRuleProbabilities(), ruleProbabilities(holdout));
});

test('the shipped probability maps are monotone steps fitted on enough answers', () => {
  // readModelCalibration refuses steps that are not ascending from 0 or values outside (0, 1)
  const maps = readModelCalibration();
  for (const name of ['bnac', 'backoff'] as const) {
    assert.ok(maps[name].to.length > 1, `${name}: a map was fitted`);
    assert.ok((maps[name].measuredOn ?? 0) >= 10 * MIN_BLOCK, `${name}: fitted on ${maps[name].measuredOn} answers`);
  }
});

/** `n` answers at probabilities spread over [0.3, 1), right about as often as their probability says, seeded */
function answers(n: number, seed: number): { p: number; right: boolean }[] {
  const next = rng(seed);
  return Array.from({ length: n }, () => {
    const p = 0.3 + 0.7 * next();
    return { p, right: next() < p };
  });
}

/** Mean absolute difference of two maps over a grid of probabilities */
function distance(a: ProbabilityMap, b: ProbabilityMap): number {
  const grid = Array.from({ length: 71 }, (_, i) => 0.3 + i / 100);
  return grid.reduce((sum, p) => sum + Math.abs(calibrated(a, p) - calibrated(b, p)), 0) / grid.length;
}

test('baggedMap averages bootstrap maps: monotone, near the single map, and steadier between samples', () => {
  // Two groups of answers of distinct probabilities, as a model gives them: near 0.3, one in four right; near 0.9,
  // all but one right
  const two = [
    ...Array.from({ length: 20 }, (_, i) => ({ p: 0.3 + i / 1e4, right: i % 4 === 0 })),
    ...Array.from({ length: 20 }, (_, i) => ({ p: 0.9 + i / 1e4, right: i !== 7 })),
  ];
  const single = isotonicMap(two);
  assert.equal(single.to.length, 2, 'the single map has one step per group');
  const bagged = baggedMap(two);
  assert.is(bagged.from[0], 0);
  assert.ok(bagged.from.every((x, i) => i === 0 || x > bagged.from[i - 1]!));
  assert.ok(bagged.to.every((p, i) => p > 0 && p < 1 && (i === 0 || p > bagged.to[i - 1]!)));
  // Where the single map is sure of its steps, so is the average
  for (const p of [0.301, 0.99]) {
    const [want, got] = [calibrated(single, p), calibrated(bagged, p)];
    assert.ok(Math.abs(got - want) < 0.05, `at ${p}: ${got}, the single map ${want}`);
  }
  assert.equal(baggedMap(two), bagged, 'seeded: the same answers give the same map');
  // Every resample of answers all right is the same one step, and so is their average
  const allRight = two.map(({ p }) => ({ p, right: true }));
  assert.equal(baggedMap(allRight), isotonicMap(allRight));
  // Maps fitted on two samples of the same kind of answers: the bagged ones differ less than the single ones
  for (const seed of [1, 2, 3]) {
    const [a, b] = [answers(150, seed), answers(150, seed + 100)];
    const single = distance(isotonicMap(a), isotonicMap(b));
    const average = distance(baggedMap(a), baggedMap(b));
    assert.ok(average < single, `seed ${seed}: bagged maps ${average.toFixed(4)} apart, single ${single.toFixed(4)}`);
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
