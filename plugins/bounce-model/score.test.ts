import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extractFeatures, newFeatures } from './features.ts';
import { bounceShare } from './linear-model.ts';
import { decodeModel, NO_CLASS, type CompactModel } from './model-file.ts';
import { normalise } from './normalise.ts';
import { jsScorer, simdScorer, type Scoring } from './score.ts';

const { model } = decodeModel(readFileSync(new URL('./models/backoff.model', import.meta.url)));

/**
 * What classifying means: bias plus, for every feature the model knows, value × row scale × weight; the softmax of
 * those logits over the temperature; each class the sum of its situations. Returns the class probabilities.
 */
function reference(
  m: CompactModel,
  index: Int32Array,
  value: Float32Array,
  length: number,
  temperature: number,
): Float64Array {
  const k = m.situations.length;
  const scores = Float64Array.from(m.bias);
  for (let i = 0; i < length; i++) {
    const r = m.rowOf[index[i]!]! - 1;
    if (r < 0) continue;
    for (let c = 0; c < k; c++) scores[c]! += value[i]! * m.scales[r]! * m.weights[r * k + c]!;
  }
  const max = Math.max(...scores);
  const exps = scores.map((x) => Math.exp((x - max) / temperature));
  const total = exps.reduce((a, b) => a + b, 0);
  const classes = new Float64Array(m.labels.length);
  // A situation of no class (not a bounce) adds to none
  exps.forEach((e, j) => m.map[j]! < classes.length && (classes[m.map[j]!]! += e / total));
  return classes;
}

const REPLIES = [
  '550 5.1.1 <someone@example.org>: Recipient address rejected: User unknown in virtual mailbox table',
  '421 4.7.0 [192.0.2.7] Our system has detected an unusual rate of unsolicited mail originating from your IP address',
  'Diagnostic-Code: smtp; 552 5.2.2 Mailbox full',
  'connect to mx.example.org[192.0.2.1]:25: Connection timed out',
  '451 4.7.1 Greylisting in effect, please come back later',
  // every situation's row lanes: a long reply with many features, some unknown to the model
  'zzqx '.repeat(40) + 'spamhaus blocked listed quota full virus tls dkim spf dmarc relay loop greylisted',
  '',
];

/** Classifies every reply, its features extracted into the classifier's own buffer and into another one, at three temperatures, against the definition. */
function agrees({ classify, probabilities, features }: Scoring, tolerance: number, what: string): void {
  for (const reply of REPLIES) {
    for (const [buffer, where] of [
      [features, 'own buffer'],
      [newFeatures(), 'other buffer'],
    ] as const) {
      for (const temperature of [model.temperature, 0.4, 3]) {
        const f = extractFeatures(normalise(reply), model.bits, buffer);
        const best = classify(f, temperature);
        const want = reference(model, f.index, f.value, f.length, temperature);
        const context = `${what} (${where}, temperature ${temperature}), ${reply.slice(0, 40)}`;
        for (let c = 0; c < want.length; c++) {
          assert.ok(
            Math.abs(probabilities[c]! - want[c]!) <= tolerance,
            `${context}: class ${c} got ${probabilities[c]}, want ${want[c]}`,
          );
        }
        assert.is(want[best], Math.max(...want), `${context}: class ${best} is not the most probable`);
      }
    }
  }
}

test('the JS classifier gives the probabilities of the definition when given real-shaped replies', () => {
  agrees(jsScorer(model), 1e-12, 'JS');
});

test('the SIMD classifier gives the same probabilities to float precision when given real-shaped replies', () => {
  const simd = simdScorer(model);
  assert.ok(simd, 'Node 20 runs WebAssembly SIMD, so the classifier must be built');
  // Float32 sums of about a hundred weights, divided by a temperature down to 0.4: the logits keep about six digits,
  // and a model's weights decide which (1.07e-5 off on the long reply at 0.4 with the models of 2026-11-27); answers
  // are served to four decimals
  agrees(simd, 3e-5, 'SIMD');
});

test('the SIMD classifier pads rows, reads wide row tables and sums classes when a model has 49 situations and Uint32 rows', () => {
  // 49 situations (four 16-byte blocks per row, the last holding one situation) in 5 classes, two of them of no class;
  // the weights read as 49 per row, and biases far apart so that some exponentials underflow
  const wide: CompactModel = {
    ...model,
    labels: ['a', 'b', 'c', 'd', 'e'],
    situations: Array.from({ length: 49 }, (_, i) => `s${i}`),
    map: Uint8Array.from({ length: 49 }, (_, i) => (i === 1 || i === 47 ? NO_CLASS : (i * 7) % 5)),
    // Situation 47, of no class, is the runner-up
    bias: Float32Array.from({ length: 49 }, (_, i) => (i === 48 ? 3 : i === 47 ? 2.5 : i % 3 === 0 ? -150 : i / 20)),
    weights: Int8Array.from({ length: model.scales.length * 49 }, (_, i) => (i % 49 >= 47 ? 3 : (i % 5) - 2)),
    rowOf: Uint32Array.from(model.rowOf),
  };
  const simd = simdScorer(wide);
  assert.ok(simd);
  for (const temperature of [1, 0.25]) {
    const f = extractFeatures(normalise(REPLIES[0]!), model.bits, simd.features);
    const best = simd.classify(f, temperature);
    const want = reference(wide, f.index, f.value, f.length, temperature);
    for (let c = 0; c < 5; c++)
      assert.ok(
        Math.abs(simd.probabilities[c]! - want[c]!) <= 1e-5,
        `class ${c}: got ${simd.probabilities[c]}, want ${want[c]}`,
      );
    assert.is(best, wide.map[48], 'the last situation wins: its weights and bias are the largest');
    const sum = bounceShare(simd.probabilities);
    assert.ok(sum < 0.999, `the situations of no class keep their share out of the classes (sum ${sum})`);
  }
});

test('the SIMD classifier exponentiates to f32 precision when a reply has no features and the logits are the biases', () => {
  // No sums to round: what is left is the exponential, over the range where its polynomial and 2^n both work
  const spread: CompactModel = {
    ...model,
    bias: Float32Array.from({ length: model.situations.length }, (_, i) => -30 + i * 0.83),
  };
  const simd = simdScorer(spread);
  assert.ok(simd);
  for (const temperature of [1, 0.7, 6]) {
    const f = extractFeatures('', model.bits, simd.features);
    simd.classify(f, temperature);
    const want = reference(spread, f.index, f.value, f.length, temperature);
    for (let c = 0; c < want.length; c++) {
      const error = Math.abs(simd.probabilities[c]! - want[c]!);
      assert.ok(
        error <= 1e-6 * Math.max(want[c]!, 1e-3),
        `temperature ${temperature}, class ${c}: got ${simd.probabilities[c]}, want ${want[c]}`,
      );
    }
  }
});

test.run();
