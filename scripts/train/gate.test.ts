import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { test } from '../../test/_deadline.ts';
import { readCorpus } from './corpus.ts';
import { correctionRows, gate, modelPair, readCorrections, type ModelPair } from './gate.ts';
import { readRealText } from './real-text.ts';
import { situationWith, trainModelFiles } from '../train.ts';

const MODELS = join(import.meta.dirname, '../../plugins/bounce-model/models');
const shipped = modelPair({
  bnac: readFileSync(join(MODELS, 'bnac.model')),
  backoff: readFileSync(join(MODELS, 'backoff.model')),
});
// A model trained on a tenth of the corpus for two epochs: worse than the shipped ones on any real text
const tiny = modelPair(
  trainModelFiles(
    readCorpus(join(import.meta.dirname, '../corpus/lines')).filter((_, i) => i % 10 === 0),
    { temperature: 1.2, coverageAlpha: 0.5 },
    { bits: 14, epochs: 2, learningRate: 0.2, smoothing: 0.1, seed: 7, runs: 1 },
  ),
);
const REPLY = '550 5.7.1 <anna@example.org>: Recipient address rejected: Access denied';

test('readCorrections reads the export of GET /v1/corrections and JSONL; a line without a class is refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'capstan-gate-'));
  try {
    const one = {
      id: 'a',
      message: REPLY,
      normalised: 'x',
      bnac: 'RECIPIENT_NOT_FOUND',
      created: '2026-11-26T00:00:00Z',
      principal: 'ops',
    };
    writeFileSync(join(dir, 'export.json'), JSON.stringify({ corrections: [one] }));
    writeFileSync(
      join(dir, 'lines.jsonl'),
      `${JSON.stringify(one)}\n${JSON.stringify({ message: 'b', backoff: 'MAILBOX_FULL' })}\n`,
    );
    writeFileSync(join(dir, 'bad.jsonl'), `${JSON.stringify({ message: 'no class', note: 'x' })}\n`);
    assert.equal(
      readCorrections(join(dir, 'export.json')).map((c) => c.bnac),
      ['RECIPIENT_NOT_FOUND'],
    );
    assert.equal(
      readCorrections(join(dir, 'lines.jsonl')).map((c) => c.message),
      [REPLY, 'b'],
    );
    // The export on one line however spaced, pretty-printed with CRLF line ends, or one correction alone: one JSON value
    writeFileSync(join(dir, 'spaced.json'), `{ "corrections": [ ${JSON.stringify(one)} ] }`);
    writeFileSync(join(dir, 'crlf.json'), JSON.stringify({ corrections: [one, one] }, null, 2).replace(/\n/g, '\r\n'));
    writeFileSync(join(dir, 'single.json'), JSON.stringify(one, null, 2));
    assert.equal(
      ['spaced.json', 'crlf.json', 'single.json'].map((f) => readCorrections(join(dir, f)).length),
      [1, 2, 1],
    );
    assert.throws(
      () => readCorrections(join(dir, 'bad.jsonl')),
      /correction 1 needs "message" and "bnac" or "backoff"/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("correctionRows trains a correction of one model with the other model's current class; an impossible pair is skipped", () => {
  const { rows, skipped, moved } = correctionRows(
    [
      { message: REPLY, bnac: 'RECIPIENT_NOT_FOUND', backoff: 'RECIPIENT_ERROR' },
      { message: '552 5.2.2 over quota', bnac: 'RECIPIENT_ERROR' },
      { message: REPLY, bnac: 'GRAYLISTING', backoff: 'MAILBOX_FULL' },
    ],
    shipped,
    situationWith,
    3,
  );
  assert.is(rows.length, 6, 'three copies of each of the two kept');
  assert.equal([rows[0]!.bnac, rows[0]!.backoff], ['RECIPIENT_NOT_FOUND', 'RECIPIENT_ERROR']);
  assert.is(rows[0]!.text, '550 5_7_1 __email__ recipient address rejected access denied');
  assert.equal([rows[3]!.bnac, rows[3]!.backoff], ['RECIPIENT_ERROR', shipped.backoff.predict(rows[3]!.text).label]);
  assert.equal(
    skipped.map((c) => c.bnac),
    ['GRAYLISTING'],
  );
  assert.equal(moved, []);
});

test("a correction of one model whose class no situation has with the other's current one trains as the class's first situation", () => {
  const message = '550 5.7.1 Message rejected: the sending server offered TLS 1.0, which this domain no longer accepts';
  // The current backoff model reads it as a class no TLS situation has
  const current = {
    bnac: { predict: () => ({ label: 'TLS', probability: 0.6 }) } as unknown as ModelPair['bnac'],
    backoff: {
      predict: () => ({ label: 'CONTENT_REJECTED_OTHER', probability: 0.6 }),
    } as unknown as ModelPair['backoff'],
  };
  assert.not.ok(situationWith('TLS', 'CONTENT_REJECTED_OTHER'));
  const { rows, skipped, moved } = correctionRows([{ message, bnac: 'TLS' }], current, situationWith, 2);
  assert.equal(skipped, []);
  assert.equal(
    rows.map((r) => [r.situation, r.bnac, r.backoff]),
    [
      ['tls-required', 'TLS', 'INFRASTRUCTURE_ERROR'],
      ['tls-required', 'TLS', 'INFRASTRUCTURE_ERROR'],
    ],
  );
  assert.equal(moved, [{ correction: { message, bnac: 'TLS' }, as: situationWith('TLS', undefined) }]);
  // And a backoff correction alone: its first situation gives the BNAC class
  const backoffOnly = correctionRows([{ message, backoff: 'CONCURRENCY_LIMIT' }], current, situationWith, 1);
  assert.equal(
    backoffOnly.rows.map((r) => r.backoff),
    ['CONCURRENCY_LIMIT'],
  );
  assert.is(backoffOnly.rows[0]!.bnac, situationWith(undefined, 'CONCURRENCY_LIMIT')!.bnac);
});

test('gate refuses new models that score worse on a set and accepts ones that do not, printing before and after', () => {
  const sets = { 'gathered real replies, test split': readRealText('test') };
  const refused = gate(shipped, tiny, sets);
  assert.is(refused.accepted, false);
  assert.ok(
    refused.lines.some((l) => l.endsWith('WORSE')),
    refused.lines.join('\n'),
  );
  assert.match(
    refused.lines[0]!,
    /^gathered real replies, test split \(\d+ rows\) bnac: before \d+\.\d\d %, after \d+\.\d\d %/,
  );
  assert.is(gate(tiny, shipped, sets).accepted, true);
  const same = gate(shipped, shipped, sets);
  assert.is(same.accepted, true, 'the same figures pass');
  assert.is(same.lines.length, 2, 'and list no row: ' + same.lines.join('\n'));
});

test('gate lists the rows the new models answer otherwise, lost and won, with their classes', () => {
  const rows = [
    {
      text: '550 5.1.1 <a@example.com>: Recipient address rejected: User unknown',
      bnac: 'RECIPIENT_NOT_FOUND',
      backoff: 'RECIPIENT_ERROR',
    },
    { text: '452 4.2.2 Mailbox full', bnac: 'RECIPIENT_ERROR', backoff: 'MAILBOX_FULL' },
    {
      text: '421 4.7.0 Try again later, closing connection',
      bnac: 'TEMPORARY_ERROR',
      backoff: 'TEMPORARY_SYSTEM_FAILURE',
    },
  ];
  // Models that answer by the text: the new BNAC model loses the first row and wins the second
  const answering = (answers: Record<string, string>) =>
    ({
      predict: (text: string) => ({ label: answers[text.slice(0, 3)] ?? 'BLOCKED', probability: 0.9 }),
    }) as unknown as ModelPair['bnac'];
  const before = {
    bnac: answering({ '550': 'RECIPIENT_NOT_FOUND', '452': 'RATE_LIMIT', '421': 'TEMPORARY_ERROR' }),
    backoff: shipped.backoff,
  };
  const after = {
    bnac: answering({ '550': 'PROTOCOL_ERROR', '452': 'RECIPIENT_ERROR', '421': 'TEMPORARY_ERROR' }),
    backoff: shipped.backoff,
  };
  const { accepted, lines } = gate(before, after, { few: rows });
  assert.is(accepted, true, 'one lost and one won: not worse');
  const bnac = lines.slice(
    0,
    lines.findIndex((l) => l.startsWith('few (3 rows) backoff')),
  );
  assert.equal(bnac, [
    'few (3 rows) bnac: before 66.67 %, after 66.67 %',
    '  now wrong (1):',
    `    RECIPIENT_NOT_FOUND -> PROTOCOL_ERROR (labelled RECIPIENT_NOT_FOUND): ${JSON.stringify(rows[0]!.text)}`,
    '  now right (1):',
    `    RATE_LIMIT -> RECIPIENT_ERROR (labelled RECIPIENT_ERROR): ${JSON.stringify(rows[1]!.text)}`,
  ]);
});

test.run();
