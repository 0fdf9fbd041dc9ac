import * as assert from 'uvu/assert';
import { test } from '../../test/_deadline.ts';
import {
  calibrated,
  readModelCalibration,
  readRuleProbabilities,
  type ProbabilityMap,
} from '../../plugins/bounce-model/model.ts';
import { baggedMap, CLASS_PRIOR_ANSWERS, classShifts, isotonicMap, MIN_BLOCK, ruleProbabilities } from './calibrate.ts';
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
    assert.ok(Object.keys(maps[name].classShift ?? {}).length > 1, `${name}: class shifts were fitted`);
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

test('classShifts moves a class by how far its answers miss the map, less for a class answered few times', () => {
  // Every answer at p 0.8, mapped to 0.8: BLOCKED right 24 of 40 times, TLS 39 of 40, RATE_LIMIT 32 of 40 (as mapped),
  // MX_ERROR 3 of 5
  const at = (label: string, n: number, right: number) =>
    Array.from({ length: n }, (_, i) => ({ p: 0.8, right: i < right, label }));
  const map: ProbabilityMap = { from: [0], to: [0.8] };
  const shifts = classShifts(
    [...at('BLOCKED', 40, 24), ...at('TLS', 40, 39), ...at('RATE_LIMIT', 40, 32), ...at('MX_ERROR', 5, 3)],
    map,
  );
  const logit = (p: number) => Math.log(p / (1 - p));
  const shrink = (n: number) => n / (n + CLASS_PRIOR_ANSWERS);
  assert.ok(
    Math.abs(shifts.BLOCKED! - shrink(40) * (logit(24.5 / 41) - logit(0.8))) < 1e-4,
    `BLOCKED ${shifts.BLOCKED}`,
  );
  assert.ok(shifts.BLOCKED! < -0.6, 'a class right less often than mapped is lowered');
  assert.ok(shifts.TLS! > 0.8, 'a class right more often is raised');
  // Only the half answer of smoothing moves it
  assert.ok(Math.abs(shifts.RATE_LIMIT!) < 0.05, 'a class right as often as mapped is left nearly alone');
  // MX_ERROR misses the map as BLOCKED does (60 % right), on 5 answers instead of 40: it moves less
  assert.ok(shifts.MX_ERROR! < 0 && shifts.MX_ERROR! > shifts.BLOCKED! * 0.5, `MX_ERROR ${shifts.MX_ERROR}`);
});

test.run();
