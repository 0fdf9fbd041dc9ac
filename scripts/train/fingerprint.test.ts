import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from '../../test/_deadline.ts';
import { NORMALISER_VERSION } from '../../plugins/bounce-model/normalise.ts';
import { MODELS_DIR, trainingLines } from '../train.ts';
import type { LabelledText } from './corpus.ts';
import { driftNote, readTrainedOn, trainedOn } from './fingerprint.ts';
import { DEFAULT_TRAIN_OPTIONS } from './linear-train.ts';

const line = (text: string, situation = 'mailbox-full'): LabelledText => ({
  family: 'real',
  template: `real:${situation}:real:0`,
  situation,
  text,
  bnac: 'RECIPIENT_ERROR',
  backoff: 'MAILBOX_FULL',
});

test('trainedOn changes with a line, its situation or the options, and counts every line', () => {
  const rows = [line('552 mailbox full'), line('552 mailbox full')];
  const was = trainedOn(rows, DEFAULT_TRAIN_OPTIONS, NORMALISER_VERSION);
  assert.equal(trainedOn([...rows], DEFAULT_TRAIN_OPTIONS, NORMALISER_VERSION), was);
  assert.is(was.lines, 2);
  for (const other of [
    trainedOn([rows[0]!, line('552 mailbox is full')], DEFAULT_TRAIN_OPTIONS, NORMALISER_VERSION),
    trainedOn([rows[0]!, line('552 mailbox full', 'quota')], DEFAULT_TRAIN_OPTIONS, NORMALISER_VERSION),
    trainedOn(rows, { ...DEFAULT_TRAIN_OPTIONS, epochs: DEFAULT_TRAIN_OPTIONS.epochs + 1 }, NORMALISER_VERSION),
    trainedOn(rows, DEFAULT_TRAIN_OPTIONS, `${NORMALISER_VERSION}-next`),
  ]) {
    assert.is.not(other.fingerprint, was.fingerprint);
  }
});

test('driftNote is silent for the same lines and says what differs otherwise', () => {
  const now = { lines: 25317, fingerprint: 'aaaa' };
  assert.is(driftNote(now, now), undefined);
  assert.match(
    driftNote({ lines: 25000, fingerprint: 'bbbb' }, now)!,
    /other lines \(25000 then, 25317 in this checkout\)/,
  );
  assert.match(driftNote(undefined, now)!, /report\.json does not record/);
});

test('readTrainedOn reads the report, and nothing from a report without it or no report', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-fingerprint-'));
  writeFileSync(join(dir, 'with.json'), JSON.stringify({ trainedOn: { lines: 3, fingerprint: 'cccc' }, bnac: {} }));
  writeFileSync(join(dir, 'without.json'), JSON.stringify({ bnac: {} }));
  assert.equal(readTrainedOn(join(dir, 'with.json')), { lines: 3, fingerprint: 'cccc' });
  assert.is(readTrainedOn(join(dir, 'without.json')), undefined);
  assert.is(readTrainedOn(join(dir, 'absent.json')), undefined);
});

test("the shipped models learnt from this checkout's training lines", () => {
  // Corpus lines or gathered train replies changed without `npm run train` fail here: a corrections retrain would
  // then compare that change with the corrections (scripts/train/fingerprint.ts)
  const shipped = readTrainedOn(join(MODELS_DIR, 'report.json'));
  const now = trainedOn(trainingLines().rows, DEFAULT_TRAIN_OPTIONS, NORMALISER_VERSION);
  assert.equal(shipped, now, 'the training lines changed since the models were trained: run npm run train');
});

test.run();
