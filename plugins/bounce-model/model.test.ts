import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { normalise } from './normalise.ts';
import { BACKOFF_CLASSES, BNAC_CLASSES } from '../../generated/data/bounce-classifier.ts';
import { IDENTITY_MAP, loadModel, readModelCalibration, readRuleProbabilities, type ProbabilityMap } from './model.ts';

const MODELS = join(import.meta.dirname, 'models');
const bnac = loadModel(join(MODELS, 'bnac.model'));
const backoff = loadModel(join(MODELS, 'backoff.model'));

// Hand-written replies (the fixtures/unseen bucket proves its rows are not corpus lines; these are quick checks).
const UNSEEN: [string, string, string][] = [
  [
    '550 5.1.1 <bob@example.org>: Recipient address rejected: User unknown in virtual alias table',
    'RECIPIENT_NOT_FOUND',
    'RECIPIENT_ERROR',
  ],
  ['451 4.7.1 Greylisting in effect, please come back later', 'GRAYLISTING', 'GRAYLISTING'],
  [
    '554 5.7.1 Service unavailable; Client host [198.51.100.7] blocked using bl.spamcop.net',
    'BLOCK_LIST',
    'INFRASTRUCTURE_BLOCK',
  ],
  ['552 5.2.2 The email account that you tried to reach is over quota', 'RECIPIENT_ERROR', 'MAILBOX_FULL'],
  [
    "550 5.7.26 Unauthenticated email from example.com is not accepted due to domain's DMARC policy",
    'DMARC',
    'POLICY_VIOLATION_SPF_DMARC__SPF_OR_DMARC_FAIL',
  ],
  ['554 5.7.1 Message rejected: virus found in attachment (Win.Trojan.Agent-123)', 'VIRUS', 'CONTENT_REJECTED_VIRUS'],
];

test('loadModel returns a model with its labels and a hex version when given each model file', () => {
  assert.equal([...bnac.labels], [...BNAC_CLASSES]);
  assert.equal([...backoff.labels], [...BACKOFF_CLASSES]);
  assert.match(bnac.version, /^[0-9a-f]{16}\.\w+\.[0-9a-f]{8}\.[0-9a-f]{8}$/);
  assert.is.not(bnac.version, backoff.version);
  assert.is(bnac.name, 'bnac');
});

test('loadModel gives the same version when given the bytes instead of the path', () => {
  assert.is(loadModel(readFileSync(join(MODELS, 'bnac.model'))).version, bnac.version);
});

test('loadModel throws when the bytes are not a model file', () => {
  assert.throws(() => loadModel(Buffer.from('not a model')), /bad magic/);
});

test('loadModel refuses a model trained with another normaliser version', () => {
  const bytes = readFileSync(join(MODELS, 'bnac.model'));
  const headerEnd = 8 + bytes.readUInt32LE(4);
  const header = bytes.toString('utf8', 8, headerEnd).replace(/"normaliser":"[^"]*"/, '"normaliser":"0"');
  const json = Buffer.from(header, 'utf8');
  const prefix = Buffer.from(bytes.subarray(0, 8));
  prefix.writeUInt32LE(json.length, 4);
  assert.throws(
    () => loadModel(Buffer.concat([prefix, json, bytes.subarray(headerEnd)])),
    /trained with normaliser "0"/,
  );
});

test('the two models answer from one reading of the reply: both map the same situations', () => {
  const reply = normalise(
    '550 5.1.1 <a@example.org>: Recipient address rejected: User unknown in relay recipient table',
  );
  assert.is(bnac.predict(reply).label, 'RECIPIENT_NOT_FOUND');
  assert.is(backoff.predict(reply).label, 'RECIPIENT_ERROR');
});

test('predict names the rule that decided when a certain rule matches, and none otherwise', () => {
  const listed = bnac.predict(
    normalise('554 5.7.1 Service unavailable; Client host [192.0.2.9] blocked using zen.spamhaus.org'),
  );
  assert.is(listed.label, 'BLOCK_LIST');
  assert.type(listed.rule, 'string');
  assert.is(bnac.predict(normalise('451 4.3.0 The mail server is short of memory at the moment')).rule, undefined);
});

test('text outvotes the status code when they disagree', () => {
  // Real receivers send these generic or wrong codes; the words decide
  assert.is(bnac.predict(normalise('550 5.2.1 <x@example.com>... User unknown')).label, 'RECIPIENT_NOT_FOUND');
  assert.is(bnac.predict(normalise('552 5.2.2 User unknown')).label, 'RECIPIENT_NOT_FOUND');
  assert.is(backoff.predict(normalise('421 4.7.0 Mailbox full, try again later')).label, 'MAILBOX_FULL');
  assert.is(bnac.predict(normalise('Uzytkownik nie istnieje')).label, 'RECIPIENT_NOT_FOUND');
});

test('predict returns a closed-list label with probability in (0,1] when given any text', () => {
  for (const text of ['', 'x', normalise('550 5.1.1 user unknown'), 'ü'.repeat(500)]) {
    for (const [model, labels] of [
      [bnac, BNAC_CLASSES],
      [backoff, BACKOFF_CLASSES],
    ] as const) {
      const p = model.predict(text);
      assert.ok((labels as readonly string[]).includes(p.label), p.label);
      assert.ok(p.probability > 0 && p.probability <= 1, String(p.probability));
    }
  }
});

test('predictBatch equals single predictions when given several texts', () => {
  const texts = UNSEEN.map(([t]) => normalise(t));
  assert.equal(
    bnac.predictBatch(texts),
    texts.map((t) => bnac.predict(t)),
  );
  assert.equal(
    backoff.predictBatch(texts),
    texts.map((t) => backoff.predict(t)),
  );
});

test('predict classifies hand-written bounces right when their wording is not a corpus template', () => {
  for (const [reply, bnacClass, backoffClass] of UNSEEN) {
    assert.is(bnac.predict(normalise(reply)).label, bnacClass, reply);
    assert.is(backoff.predict(normalise(reply)).label, backoffClass, reply);
  }
});

test("a rule answer carries that rule's measured probability, the pooled one for a rule never measured", () => {
  const table = { pooled: 0.61, rules: { greylisting: 0.83 } };
  const model = loadModel(join(MODELS, 'bnac.model'), { ruleProbabilities: { bnac: table, backoff: table } });
  const grey = model.predict(normalise('451 4.7.1 Greylisting in effect, please come back later'));
  assert.equal([grey.rule, grey.label, grey.probability], ['greylisting', 'GRAYLISTING', 0.83]);
  const listed = model.predict(
    normalise('554 5.7.1 Service unavailable; Client host [198.51.100.7] blocked using bl.spamcop.net'),
  );
  assert.ok(listed.rule && listed.rule !== 'greylisting', 'another rule decides');
  assert.is(listed.probability, 0.61);
});

test('the model alone answers without a rule when loaded with rules off', () => {
  const alone = loadModel(join(MODELS, 'bnac.model'), { rules: false });
  const p = alone.predict(normalise('451 4.7.1 Greylisting in effect, please come back later'));
  assert.is(p.rule, undefined);
  assert.is.not(alone.version, bnac.version);
});

// That the shipped figures are the measured ones is scripts/train/calibrate.test.ts (plugins import no training code)
test('readRuleProbabilities refuses a figure outside (0, 1)', () => {
  assert.throws(
    () =>
      readRuleProbabilities(
        Buffer.from(JSON.stringify({ bnac: { pooled: 1, rules: {} }, backoff: { pooled: 0.5, rules: {} } })),
      ),
    /in \(0, 1\)/,
  );
});

/** The bnac model with one map for both models. */
const withMap = (map: ProbabilityMap) =>
  loadModel(join(MODELS, 'bnac.model'), { calibration: { bnac: map, backoff: map } });

test('a linear-model answer carries the calibrated probability of its step, and no map leaves it as it is', () => {
  const text = normalise('451 4.3.0 The mail server is short of memory at the moment');
  const raw = withMap(IDENTITY_MAP);
  // A one-step map answers its value times the share the model gives to the text being a bounce
  const share = withMap({ from: [0], to: [0.5] }).predict(text).probability / 0.5;
  const mapped = withMap({ from: [0, 0.5], to: [0.2, 0.7] });
  const p = raw.predict(text);
  assert.is(p.rule, undefined);
  assert.ok(share > 0.9 && share <= 1, `a bounce is read as one (share ${share})`);
  const step = p.probability / share >= 0.5 ? 0.7 : 0.2;
  assert.ok(Math.abs(mapped.predict(text).probability - step * share) < 1e-12, 'the step of the share among bounces');
  assert.is(mapped.predict(text).label, p.label);
  assert.is.not(mapped.version, raw.version);
  assert.throws(
    () => readModelCalibration(Buffer.from(JSON.stringify({ bnac: { from: [0], to: [1] }, backoff: IDENTITY_MAP }))),
    /"bnac" needs ascending steps/,
  );
});

test("a class shift moves the probability of that class's answers only, by its log-odds", () => {
  const text = normalise('451 4.3.0 The mail server is short of memory at the moment');
  const plain = withMap({ from: [0], to: [0.8] }).predict(text);
  const shifted = (classShift: Record<string, number>) => withMap({ from: [0], to: [0.8], classShift }).predict(text);
  const share = plain.probability / 0.8;
  // ln(4) + ln(0.25) = 0: a shift of -ln(4) takes 0.8 (odds 4) to 0.5
  const lowered = shifted({ [plain.label]: -Math.log(4) });
  assert.is(lowered.label, plain.label);
  assert.ok(Math.abs(lowered.probability - 0.5 * share) < 1e-9, `lowered to ${lowered.probability / share}`);
  const other = plain.label === 'BLOCKED' ? 'TLS' : 'BLOCKED';
  assert.is(shifted({ [other]: -3 }).probability, plain.probability, "another class's shift changes nothing");
  assert.throws(
    () =>
      readModelCalibration(
        Buffer.from(
          JSON.stringify({ bnac: { from: [0], to: [0.5], classShift: { TLS: 'x' } }, backoff: IDENTITY_MAP }),
        ),
      ),
    /"bnac" needs finite numbers as class shifts/,
  );
});

test('text that is not a bounce keeps a low probability whatever the map says of bounces', () => {
  const sure = withMap({ from: [0], to: [0.99] });
  const bounce = sure.predict(normalise('550 5.1.1 <ana@example.org>: Recipient address rejected: no such user here'));
  assert.ok(bounce.probability > 0.9, `a bounce: ${bounce.probability}`);
  for (const text of [
    '250 2.0.0 Ok: message 7F3A2B1C0D accepted',
    'Automatic reply: I am on holiday until 14 June and will answer your message when I am back.',
  ]) {
    const p = sure.predict(normalise(text)).probability;
    assert.ok(p < 0.3, `not a bounce, p ${p}: ${text}`);
  }
});

test.run();
