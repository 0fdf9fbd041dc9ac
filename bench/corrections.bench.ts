/*
 * What operators' corrections add per message: the lookup `classifyNormalised` makes for every answer (one read of a
 * map keyed by the normalised text), with 1,000 corrections in force, against the same run's baseline of
 * normalise + bnac prediction (model.predict(normalise(message))). Inputs are replies built here (the phrasing
 * templates' kinds of wording with varied addresses and IPs), never the dev set; half of the lookups hit.
 *
 * Memory: what a host holds for `corrections.maxCount` (10,000) corrections, the store's list and the plugin's map
 * keyed by this host's normalisation (heap and external memory after forced collections), for replies of 150 and of
 * 4,096 ASCII characters (the longest a correction takes) and of 4,096 Cyrillic ones, against the replies' characters.
 *
 * Run: npx tsx bench/corrections.bench.ts   (or npm run bench corrections)
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Corrections } from '../plugins/bounce-classifier/corrections/corrections.ts';
import type { Correction, CorrectionStore } from '../plugins/bounce-classifier/corrections/store.ts';
import { loadModel } from '../plugins/bounce-model/model.ts';
import { normalise } from '../plugins/bounce-model/normalise.ts';
import { heapBytes } from './_heap.ts';

const MESSAGES = 20_000;
const CORRECTIONS = 1_000;
const ROUNDS = 5;
const WORDINGS = [
  '550 5.1.1 <{a}>: Recipient address rejected: User unknown in virtual mailbox table',
  '421 4.7.0 [{ip}] Our system has detected an unusual rate of unsolicited mail originating from your IP address',
  '552 5.2.2 The email account that you tried to reach is over quota, message {n} for {a}',
  '451 4.7.1 Greylisting in effect for {ip}, please come back in {n} seconds',
  '554 5.7.1 Service unavailable; Client host [{ip}] blocked using zen.spamhaus.org; message {n}',
  '550 5.7.1 <{a}>: Relay access denied by host policy case {n}',
];
const fill = (w: string, i: number) =>
  w
    .replace('{a}', `user${i}@example${i % 97}.org`)
    .replace('{ip}', `192.0.2.${i % 250}`)
    .replace('{n}', `n${i % 1500}`);
const messages = Array.from({ length: MESSAGES }, (_, i) => fill(WORDINGS[i % WORDINGS.length]!, i * 7));
const texts = messages.map(normalise);
// Corrections for half the distinct normalised texts met, then made-up ones up to CORRECTIONS
const distinct = [...new Set(texts)];
const corrected = distinct.filter((_, i) => i % 2 === 0);
const list: Correction[] = Array.from({ length: CORRECTIONS }, (_, i) => ({
  id: `c${i}`,
  message: '',
  normalised: corrected[i] ?? `550 5_7_1 made up correction ${i}`,
  bnac: 'RECIPIENT_NOT_FOUND',
  created: new Date(0).toISOString(),
  principal: 'bench',
}));
const store: CorrectionStore = {
  list: async () => list,
  newest: async (limit) => ({ corrections: list.slice(-limit), total: list.length }),
  put: async () => undefined,
  delete: async () => undefined,
  watch: async () => {},
  close: async () => {},
};
const corrections = await Corrections.open({
  store,
  normalise,
  maxCount: list.length,
  audit: { record: async (_c, commit) => commit({} as never) },
  auditSink: undefined,
  log: console as never,
});
const model = loadModel(join(import.meta.dirname, '../plugins/bounce-model/models/bnac.model'));

let sink = 0;
const time = (run: () => void): number => {
  const start = performance.now();
  run();
  return ((performance.now() - start) * 1000) / MESSAGES;
};
const rows = { baseline: [] as number[], withLookup: [] as number[], lookup: [] as number[] };
for (let r = -1; r < ROUNDS; r++) {
  const baseline = time(() => messages.forEach((m) => (sink += model.predict(normalise(m)).probability)));
  const withLookup = time(() =>
    messages.forEach((m) => {
      // As classifyNormalised does: the classifier's answer first (the cache's, or the model's), then the overlay
      const text = normalise(m);
      const probability = model.predict(text).probability;
      sink += corrections.lookup('bnac', text) ? 1 : probability;
    }),
  );
  const lookup = time(() => texts.forEach((t) => (sink += corrections.lookup('bnac', t) ? 1 : 0)));
  if (r < 0) continue;
  rows.baseline.push(baseline);
  rows.withLookup.push(withLookup);
  rows.lookup.push(lookup);
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const base = median(rows.baseline);
console.log(
  `${MESSAGES} messages, ${CORRECTIONS} corrections (${corrected.length} of ${distinct.length} distinct texts corrected), ${ROUNDS} rounds, load ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log(`baseline normalise + bnac   ${base.toFixed(3)} µs/message`);
console.log(
  `with corrections lookup     ${median(rows.withLookup).toFixed(3)} µs/message  (${(median(rows.withLookup) / base).toFixed(3)} ×)`,
);
console.log(
  `corrections lookup alone    ${median(rows.lookup).toFixed(4)} µs/message  (${(median(rows.lookup) / base).toFixed(4)} × baseline; goal < 1 µs)`,
);

const HELD = 10_000;
// Replies outside Latin-1 are kept as two-byte strings: a reply in Russian (a mailbox-full text) measures that case
const CYRILLIC = 'Почтовый ящик получателя переполнен, письмо {n} для {a} не доставлено';
for (const [length, wordings, script] of [
  [150, WORDINGS, 'ASCII'],
  [4096, WORDINGS, 'ASCII'],
  [4096, [CYRILLIC], 'Cyrillic'],
] as const) {
  const before = heapBytes();
  // Distinct replies of the given length: each wording, its numbers varied, cut or padded with its own words
  const held: Correction[] = Array.from({ length: HELD }, (_, i) => {
    let message = fill(wordings[i % wordings.length]!, i);
    while (message.length < length) message += ` ${fill(wordings[(i + message.length) % wordings.length]!, i)}`;
    message = message.slice(0, length);
    return { id: `h${i}`, message, normalised: normalise(message), bnac: 'BLOCKED', created: '', principal: 'bench' };
  });
  const kept = await Corrections.open({
    store: { ...store, list: async () => [...held] },
    normalise,
    maxCount: HELD,
    audit: { record: async (_c, commit) => commit({} as never) },
    auditSink: undefined,
    log: console as never,
  });
  const bytes = heapBytes() - before;
  console.log(
    `${HELD} corrections of ${length}-character ${script} replies held: ` +
      `${(bytes / HELD / 1024).toFixed(2)} KB each, ${(bytes / 2 ** 20).toFixed(1)} MB in all ` +
      `(${(bytes / (HELD * length)).toFixed(2)} bytes per character of the replies)`,
  );
  // Used after the reading, so the map is alive when it is measured
  if (kept.lookup('bnac', held[0]!.normalised) === undefined) console.log('lookup failed');
}
if (sink === -1) console.log(sink);
