import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extractFeatures, newFeatures } from './features.ts';
import { decodeModel } from './model-file.ts';
import { normalise } from './normalise.ts';
import { jsScorer, simdScorer, type Scoring } from './score.ts';

const { model } = decodeModel(readFileSync(new URL('./models/backoff.model', import.meta.url)));
const k = model.situations.length;

/** What scoring means: bias plus, for every feature the model knows, value × row scale × weight. */
function reference(index: Int32Array, value: Float32Array, length: number): Float64Array {
  const scores = Float64Array.from(model.bias);
  for (let i = 0; i < length; i++) {
    const r = model.rowOf[index[i]!]! - 1;
    if (r < 0) continue;
    for (let c = 0; c < k; c++) scores[c]! += value[i]! * model.scales[r]! * model.weights[r * k + c]!;
  }
  return scores;
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

/** Scores every reply, its features extracted into the scorer's own buffer and into another one, against the definition. */
function agrees({ score, features }: Scoring, tolerance: number, what: string): void {
  const got = new Float64Array(k);
  for (const reply of REPLIES) {
    for (const [buffer, where] of [[features, 'own buffer'], [newFeatures(), 'other buffer']] as const) {
      const f = extractFeatures(normalise(reply), model.bits, buffer);
      score(f, got);
      const want = reference(f.index, f.value, f.length);
      for (let c = 0; c < k; c++) {
        const close = Math.abs(got[c]! - want[c]!) <= tolerance * (1 + Math.abs(want[c]!));
        assert.ok(close, `${what} (${where}), ${reply.slice(0, 40)}: situation ${c} got ${got[c]}, want ${want[c]}`);
      }
    }
  }
}

test('the JS scorer gives the sums of the definition when given real-shaped replies', () => {
  agrees(jsScorer(model), 1e-12, 'JS');
});

test('the SIMD scorer gives the same sums to float precision when given real-shaped replies', () => {
  const simd = simdScorer(model);
  assert.ok(simd, 'Node 20 runs WebAssembly SIMD, so the scorer must be built');
  agrees(simd, 1e-4, 'SIMD');
});

test('the SIMD scorer pads rows and reads wide row tables when a model has 49 situations and Uint32 rows', () => {
  // 49 situations: four 16-byte blocks per row, the last holding one situation; the weights read as 49 per row
  const wide = {
    ...model,
    situations: Array.from({ length: 49 }, (_, i) => `s${i}`),
    bias: new Float32Array(49).fill(1),
    weights: new Int8Array(model.scales.length * 49).fill(2),
    rowOf: Uint32Array.from(model.rowOf),
  };
  const simd = simdScorer(wide);
  assert.ok(simd);
  const f = extractFeatures(normalise(REPLIES[0]!), model.bits, simd.features);
  const got = new Float64Array(49);
  const want = new Float64Array(49);
  simd.score(f, got);
  jsScorer(wide).score(f, want);
  for (let c = 0; c < 49; c++) assert.ok(Math.abs(got[c]! - want[c]!) <= 1e-4 * (1 + Math.abs(want[c]!)), `situation ${c}: got ${got[c]}, want ${want[c]}`);
  assert.ok(want[48]! > 1, 'the last situation has weights');
});

test.run();
