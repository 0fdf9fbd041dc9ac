/*
 * In-process cost PER MESSAGE of the bounce models, on one core (the main thread: no worker pool, no HTTP).
 *
 * What each figure measures:
 * - Every call is timed on its own with performance.now() around it (one timer read before and one after
 *   each call, so every figure includes one timer read's cost, printed as "timer overhead"). The medians, p99 and
 *   p99.9 are over all individual calls of all measured rounds; GC pauses that fall into a call count for it.
 *   "p99 in" is the 99th percentile over inputs of each input's median over the rounds: what the longest, hardest
 *   inputs cost by themselves, without GC pauses and other load (the goal is judged on the stricter p99).
 * - "baseline JSON.stringify": JSON.stringify({ message }) of the same input, measured in the same run and in
 *   the same rounds; "×" is the median of a row divided by this baseline median.
 * - "reply cutter only": parseReply(message) from lib/smtp-reply.ts, the first step of normalise: cuts the
 *   remote reply out of its wrapper into reply code, status and text (issue 8 asks for "a few string scans").
 * - "normalise only": normalise(message) from plugins/bounce-model/normalise.ts (the model input contract:
 *   cuts the remote reply out of the sending MTA's wrapper, lower-cases, replaces ids).
 * - "normalise + bnac" / "normalise + backoff": model.predict(normalise(message)) with a model from loadModel;
 *   the goals (median ≤ 15 µs, p99 ≤ 60 µs per message) apply to these rows on the 100-600 character mix, and
 *   are printed there only (the 4 KB case shows the cost at the normaliser's input cap, with no goal).
 * - Inputs are built here, never from the dev set: the corpus generator's phrasing templates
 * (scripts/corpus/phrasings/*.ts, slots filled by `expand` with a seeded Rng), wrapped in Postfix, Exim, DSN and
 * Exchange report wording and kept
 *   to 100-600 characters, plus Gmail-style multi-line replies (`550-5.7.1 ...` continuation lines) and replies of
 *   Microsoft families. The 4 KB case (DSN parts of exactly 4096 characters, the normaliser's input cap) is
 *   measured apart. Rounds go through the cases in turn so that all rows see the same machine state.
 * - Memory: process.memoryUsage() heapUsed + external (typed-array and WebAssembly memory) after a forced GC, before
 * and after loading each model
 *   (and running one prediction, so lazily built state counts); goal ≤ 4 MB per model. "shared" is the growth
 *   from importing the model code (normaliser, rule tables of ./rules.json used by both models), not part of
 *   either model's figure. The GC is exposed at run time (v8 flag) when the process was not started with
 *   --expose-gc, so bench/run.ts needs no flag.
 *
 * Run: npx tsx bench/classifier-model.bench.ts   (or npm run bench classifier-model)
 */
import { join } from 'node:path';
import { loadavg } from 'node:os';
import type { Model } from '../plugins/bounce-model/model.ts';
import { heapBytes } from './_heap.ts';
import { loadPhrasingFiles } from '../scripts/corpus/generate-corpus.ts';
import { Rng } from '../scripts/corpus/random.ts';
import { expand } from '../scripts/corpus/slots.ts';

const ROOT = join(import.meta.dirname, '..');
const MODELS = join(ROOT, 'plugins/bounce-model/models');
const MIN_CHARS = 100;
const MAX_CHARS = 600;
const BIG_CHARS = 4096;
const MAX_INPUTS = 5000;
const WARMUP_ROUNDS = 3;
const ROUNDS = 30;
const BIG_ROUNDS = 30;
const GOAL_MEDIAN_US = 15;
const GOAL_P99_US = 60;
const GOAL_MODEL_MB = 4;

// Heap before the model code is imported: the imports below bring the normaliser and the rule tables both
// models share (./rules.json), reported apart from the two models
const beforeImports = heapBytes();
const { normalise } = await import('../plugins/bounce-model/normalise.ts');
const { parseReply } = await import('../lib/smtp-reply.ts');
const { loadModel } = await import('../plugins/bounce-model/model.ts');

// ---- inputs ----

interface Template {
  family: string;
  template: string;
}

/** Every template of the corpus generator's phrasing files, with its family. */
async function phrasingTemplates(): Promise<Template[]> {
  return (await loadPhrasingFiles()).flatMap((file) =>
    file.phrasings.flatMap((p) =>
      Object.entries(p.templates).flatMap(([family, templates]) => templates.map((template) => ({ family, template }))),
    ),
  );
}

/** Sending-MTA report wording around a remote reply: a short form, and the longer form its report also uses. */
const WRAPPERS: Record<string, readonly [string, string]> = {
  postfix: [
    'host {mx}[{ip}] said: {reply} (in reply to {RCPT TO|end of DATA|MAIL FROM} command)',
    '<{rcpt}>: host {mx}[{ip}] said: {reply} (in reply to {RCPT TO|end of DATA|MAIL FROM} command)',
  ],
  exim: [
    'SMTP error from remote mail server after RCPT TO:<{rcpt}>: host {mx} [{ip}]: {reply}',
    '{rcpt}\n    SMTP error from remote mail server after RCPT TO:<{rcpt}>:\n    host {mx} [{ip}]: {reply}',
  ],
  dsn: [
    'Diagnostic-Code: smtp; {reply}',
    'Final-Recipient: rfc822; {rcpt}\nAction: failed\nStatus: {5.0.0|5.1.1|5.7.1|4.4.7}\nRemote-MTA: dns; {mx}\nDiagnostic-Code: smtp; {reply}',
  ],
  exchange: [
    "Remote Server returned '{reply}'",
    "Diagnostic information for administrators:\nGenerating server: {host}\n{rcpt}\nRemote Server returned '{reply}'",
  ],
};
const WRAPPER_NAMES = Object.keys(WRAPPERS);
const MICROSOFT = /microsoft|outlook|hotmail|exchange|office|o365/i;
const STATUS_LINE = /^(\d{3})[ -](\d\.\d{1,3}\.\d{1,3})\s+(.*)$/s;

/** Re-flows a one-line `550 5.7.1 text` reply the way Gmail sends it: `550-5.7.1 ...` lines, the last `550 5.7.1 ...`. */
function gmailMultiline(reply: string, width: number): string | null {
  const m = STATUS_LINE.exec(reply.replace(/\s*\n\s*/g, ' '));
  if (!m) return null;
  const [, code, status, body] = m;
  const lines: string[] = [];
  let line = '';
  for (const word of body!.split(' ')) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  if (lines.length < 2) return null;
  return lines.map((l, i) => `${code}${i === lines.length - 1 ? ' ' : '-'}${status} ${l}`).join('\n');
}

interface Input {
  kind: string;
  text: string;
}

function buildInputs(templates: readonly Template[]): Input[] {
  const rng = new Rng(20240917);
  const fill = (t: string) => expand(rng, t);
  const inRange = (s: string) => s.length >= MIN_CHARS && s.length <= MAX_CHARS;
  const inputs: Input[] = [];
  for (const { family, template } of templates) {
    const ms = MICROSOFT.test(family);
    for (let v = 0; v < 3; v++) {
      const reply = fill(template);
      // Multi-line templates stay as the receiving server sent them (Gmail quotes them so)
      if (reply.includes('\n')) {
        if (inRange(reply)) inputs.push({ kind: ms ? 'microsoft' : 'multi-line as sent', text: reply });
        continue;
      }
      // A wrapper drawn at random, its long form when the short one is under MIN_CHARS; others if neither fits
      const order = rng.shuffle([...WRAPPER_NAMES]);
      const wrapped = order
        .flatMap((w) => WRAPPERS[w]!.map((form) => ({ w, form })))
        .map(({ w, form }) => ({ w, text: expand(rng, form, { reply }) }))
        .find((c) => inRange(c.text));
      if (wrapped) inputs.push({ kind: ms ? 'microsoft' : wrapped.w, text: wrapped.text });
      else if (inRange(reply)) inputs.push({ kind: ms ? 'microsoft' : 'bare', text: reply });
    }
    // Gmail-style continuation lines, from Google's own templates and, reflowed, from other families' 5xx/4xx replies
    if (/google|gmail/i.test(family) || rng.next() < 0.3) {
      const multi = gmailMultiline(fill(template), rng.int(50, 75));
      if (multi && inRange(multi)) inputs.push({ kind: 'gmail multi-line', text: multi });
    }
  }
  // A bounded sample keeps a run near half a minute; shuffled first, so the mix keeps its proportions
  return rng.shuffle(inputs).slice(0, MAX_INPUTS);
}

/** DSN body parts of exactly BIG_CHARS characters: fields, a multi-line diagnostic, a session transcript. */
function buildBig(inputs: readonly Input[], n: number): string[] {
  const rng = new Rng(4096);
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let s = expand(
      rng,
      'Reporting-MTA: dns; {host}\n' +
        'X-Queue-ID: {qid}\n' +
        'Arrival-Date: {date}\n' +
        '\n' +
        'Final-Recipient: rfc822; {rcpt}\n' +
        'Original-Recipient: rfc822;{rcpt}\n' +
        'Action: failed\n' +
        'Status: 5.0.0\n' +
        'Remote-MTA: dns; {mx}\n' +
        'Diagnostic-Code: smtp; ',
    );
    while (s.length < BIG_CHARS) s += `${rng.pick(inputs).text}\n    `;
    out.push(s.slice(0, BIG_CHARS));
  }
  return out;
}

// ---- timing ----

let sink = 0;
const consume = (x: unknown): void => {
  sink += typeof x === 'string' ? x.length : (x as { probability: number }).probability;
};

interface Case {
  name: string;
  fn: (m: string) => unknown;
  predict: boolean;
}

/** Times every call on its own; rounds go through the cases in turn. Returns µs per call, per case. */
function measure(cases: readonly Case[], messages: readonly string[], rounds: number): Float64Array[] {
  const samples = cases.map(() => new Float64Array(rounds * messages.length));
  for (let r = -WARMUP_ROUNDS; r < rounds; r++) {
    cases.forEach((c, ci) => {
      const out = samples[ci]!;
      const fn = c.fn;
      let at = r * messages.length;
      for (const m of messages) {
        // performance.now() allocates nothing, unlike hrtime.bigint(), whose garbage would add collections to the
        // figures
        const t0 = performance.now();
        const x = fn(m);
        const t1 = performance.now();
        consume(x);
        if (r >= 0) out[at++] = (t1 - t0) * 1000;
      }
    });
  }
  return samples;
}

/** Nearest-rank quantile of sorted values. */
const quantile = (sorted: Float64Array, q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

function timerOverheadUs(): number {
  const s = new Float64Array(100_000);
  for (let i = 0; i < s.length; i++) {
    const t0 = performance.now();
    const t1 = performance.now();
    s[i] = (t1 - t0) * 1000;
  }
  return quantile(s.sort(), 0.5);
}

/** The 99th percentile over inputs of each input's median over the rounds: the cost of the input itself, without GC pauses and machine noise. */
function inputP99(samples: Float64Array, inputs: number): number {
  const rounds = samples.length / inputs;
  const medians = new Float64Array(inputs);
  const one = new Float64Array(rounds);
  for (let i = 0; i < inputs; i++) {
    for (let r = 0; r < rounds; r++) one[r] = samples[r * inputs + i]!;
    medians[i] = quantile(one.sort(), 0.5);
  }
  return quantile(medians.sort(), 0.99);
}

function report(
  title: string,
  cases: readonly Case[],
  samples: readonly Float64Array[],
  goals: boolean,
  inputs: number,
): void {
  console.log(`\n${title}`);
  const stats = samples.map((s) => {
    const sorted = s.slice().sort();
    return {
      median: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      p999: quantile(sorted, 0.999),
      inputP99: inputP99(s, inputs),
      n: sorted.length,
    };
  });
  const base = stats[0]!.median;
  console.log(
    `${'case'.padEnd(28)} ${'median µs'.padStart(10)} ${'p99 µs'.padStart(9)} ${'p99.9 µs'.padStart(9)} ${'p99 in µs'.padStart(10)} ${'× baseline'.padStart(11)}  calls`,
  );
  cases.forEach((c, i) => {
    const s = stats[i]!;
    const goal =
      c.predict && goals
        ? `  goal median ≤ ${GOAL_MEDIAN_US} ${s.median <= GOAL_MEDIAN_US ? 'met' : 'MISSED'}, p99 ≤ ${GOAL_P99_US} ${s.p99 <= GOAL_P99_US ? 'met' : 'MISSED'}`
        : '';
    console.log(
      `${c.name.padEnd(28)} ${s.median.toFixed(2).padStart(10)} ${s.p99.toFixed(2).padStart(9)} ` +
        `${s.p999.toFixed(2).padStart(9)} ${s.inputP99.toFixed(2).padStart(10)} ` +
        `${`×${(s.median / base).toFixed(1)}`.padStart(11)}  ${s.n}${goal}`,
    );
  });
}

function mix(title: string, inputs: readonly Input[]): void {
  const line = (name: string, texts: readonly string[]) => {
    const mean = texts.reduce((a, t) => a + t.length, 0) / texts.length;
    const max = texts.reduce((a, t) => Math.max(a, t.length), 0);
    console.log(
      `  ${name.padEnd(20)} ${String(texts.length).padStart(6)}  mean ${mean.toFixed(0).padStart(4)}  max ${String(max).padStart(4)} chars`,
    );
  };
  console.log(title);
  const kinds = [...new Set(inputs.map((i) => i.kind))].sort();
  for (const k of kinds)
    line(
      k,
      inputs.filter((i) => i.kind === k).map((i) => i.text),
    );
  line(
    'all',
    inputs.map((i) => i.text),
  );
}

// ---- run ----

const before = heapBytes();
const bnac = loadModel(join(MODELS, 'bnac.model'));
consume(bnac.predict('550 5 1 1 user unknown'));
const afterBnac = heapBytes();
const backoff = loadModel(join(MODELS, 'backoff.model'));
consume(backoff.predict('550 5 1 1 user unknown'));
const afterBoth = heapBytes();

const templates = await phrasingTemplates();
const inputs = buildInputs(templates);
const messages = inputs.map((i) => i.text);
const big = buildBig(inputs, 200);

const predictCase = (name: string, model: Model): Case => ({
  name,
  fn: (m) => model.predict(normalise(m)),
  predict: true,
});
const cases: Case[] = [
  { name: 'baseline JSON.stringify', fn: (m) => JSON.stringify({ message: m }), predict: false },
  { name: 'reply cutter only', fn: (m) => parseReply(m).text, predict: false },
  { name: 'normalise only', fn: normalise, predict: false },
  predictCase('normalise + bnac.predict', bnac),
  predictCase('normalise + backoff.predict', backoff),
];

console.log(
  `one core (main thread, no pool); ${process.version}; load average ${loadavg()[0]!.toFixed(2)} (other load disturbs p99 and p99.9)`,
);
console.log(`timer overhead ${timerOverheadUs().toFixed(3)} µs per timed call (included below)`);
console.log(
  `inputs: ${templates.length} phrasing templates of scripts/corpus/phrasings, expanded (seeded) and wrapped`,
);
mix(`input mix (${MIN_CHARS}-${MAX_CHARS} chars):`, inputs);
report(
  `per message, ${ROUNDS} rounds over ${messages.length} inputs (${WARMUP_ROUNDS} warm-up rounds not counted)`,
  cases,
  measure(cases, messages, ROUNDS),
  true,
  messages.length,
);
report(
  `per message, 4 KB inputs: ${big.length} DSN parts of ${BIG_CHARS} chars, ${BIG_ROUNDS} rounds`,
  cases,
  measure(cases, big, BIG_ROUNDS),
  false,
  big.length,
);

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
const perModel = [
  ['bnac', afterBnac - before],
  ['backoff', afterBoth - afterBnac],
] as const;
console.log(
  `\nheap of the loaded models (heapUsed + external, WebAssembly memory included, after forced GC; goal ≤ ${GOAL_MODEL_MB} MB per model):`,
);
for (const [name, bytes] of perModel) {
  console.log(
    `  ${name.padEnd(8)} ${mb(bytes).padStart(6)} MB  ${bytes <= GOAL_MODEL_MB * 1024 * 1024 ? 'met' : 'MISSED'}`,
  );
}
console.log(`  both     ${mb(afterBoth - before).padStart(6)} MB`);
console.log(
  `  shared   ${mb(before - beforeImports).padStart(6)} MB  (model, normaliser and rule modules as imported, not counted above)`,
);
if (sink === 42) console.log('');
