/*
 * In-process cost per message of the bounce models on one core:
 * normalise + predict for each model, against baselines (JSON.stringify,
 * normalise alone). Median and p99 over batches of a realistic corpus mix.
 * Run: npx tsx bench/classifier-model.bench.ts
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { normalise } from '../plugins/bounce-classifier/normalise.ts';
import { loadModel } from '../plugins/bounce-model/model.ts';

const ROOT = join(import.meta.dirname, '..');
const CORPUS = join(ROOT, 'plugins/bounce-model/corpus');
const BATCH = 256;
const ROUNDS = 400;

const messages = readdirSync(CORPUS)
  .filter((f) => f.endsWith('.jsonl'))
  .sort()
  .flatMap((f) => readFileSync(join(CORPUS, f), 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { text: string }).text));
const bnac = loadModel(join(ROOT, 'plugins/bounce-model/models/bnac.model'));
const backoff = loadModel(join(ROOT, 'plugins/bounce-model/models/backoff.model'));

let sink = 0;
// Per-message µs from timing batches: single calls are below timer resolution.
function measure(fn: (m: string) => unknown): { median: number; p99: number } {
  const samples: number[] = [];
  for (let r = 0; r < ROUNDS + 50; r++) {
    const start = (r * BATCH * 7) % (messages.length - BATCH);
    const t0 = process.hrtime.bigint();
    for (let i = start; i < start + BATCH; i++) sink += (fn(messages[i]!) as { length?: number }).length ?? 1;
    const us = Number(process.hrtime.bigint() - t0) / 1000 / BATCH;
    if (r >= 50) samples.push(us);
  }
  samples.sort((a, b) => a - b);
  return { median: samples[Math.floor(samples.length / 2)]!, p99: samples[Math.floor(samples.length * 0.99)]! };
}

const avgChars = messages.reduce((a, m) => a + m.length, 0) / messages.length;
console.log(`${messages.length} corpus messages, mean ${avgChars.toFixed(0)} chars; batches of ${BATCH}, ${ROUNDS} rounds`);
const baseline = measure((m) => JSON.stringify({ message: m }));
const cases: [string, (m: string) => unknown][] = [
  ['baseline JSON.stringify', (m) => JSON.stringify({ message: m })],
  ['normalise only', normalise],
  ['normalise + bnac.predict', (m) => bnac.predict(normalise(m)).label],
  ['normalise + backoff.predict', (m) => backoff.predict(normalise(m)).label],
];
for (const [name, fn] of cases) {
  const r = measure(fn);
  console.log(`${name.padEnd(30)} median ${r.median.toFixed(2).padStart(6)} µs  p99 ${r.p99.toFixed(2).padStart(6)} µs  ×${(r.median / baseline.median).toFixed(1)} baseline`);
}
if (sink === 42) console.log('');
