import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { test } from '../_deadline.ts';
import { document, runCli as capstan, tempDir } from '../host/_fixtures.ts';
import { usePlugin, type Classifier } from '../../runtime/mod.ts';

const RULES = join(import.meta.dirname, '../../docs/examples/rules-classifier');

/** A startup document whose bounce-classifier uses the docs' rules example, which cannot explain */
function rulesDocument(): string {
  const file = join(tempDir(), 'rules.json');
  writeFileSync(
    file,
    JSON.stringify(
      document([
        { id: 'rules', path: RULES },
        { id: 'bounce-classifier', config: { classifier: 'rules' } },
      ]),
    ),
  );
  return file;
}

/** The plain output's explanation column, as the CLI documents it, for an explanation the JSON gives */
const column = (e: { by: string; rule?: string; features?: { feature: string; weight: number }[] }) =>
  e.by === 'rule' ? `rule=${e.rule}` : `model=${e.features!.map((f) => `${f.feature}:${f.weight}`).join(',')}`;

test('capstan classify prints class and probability when given texts', async () => {
  const { code, stdout } = await capstan(['classify', '451 4.7.1 Greylisting in effect', '550 5.1.1 User unknown']);
  assert.is(code, 0);
  const lines = stdout.trim().split('\n');
  assert.is(lines.length, 2);
  assert.match(lines[0]!, /^GRAYLISTING\t(0|1|0\.\d+)$/);
});

test('capstan classify prints JSON lines when reading stdin with --json', async () => {
  const { code, stdout } = await capstan(
    ['classify', '--model', 'backoff', '--json'],
    'Mailbox full\n\n421 Too many connections\n',
  );
  assert.is(code, 0);
  const results = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  assert.equal(
    results.map((r) => r.message),
    ['Mailbox full', '421 Too many connections'],
  );
  for (const result of results) {
    assert.equal(Object.keys(result), ['message', 'class', 'probability', 'fields', 'actions']);
  }
});

test('capstan classify exits 2 when the model is unknown', async () => {
  const { code, stderr } = await capstan(['classify', '--model', 'spam', 'x']);
  assert.is(code, 2);
  assert.match(stderr, /unknown model "spam"/);
});

test('capstan classify logs at CAPSTAN_LOG_LEVEL on standard error, keeping standard output for answers', async () => {
  const quiet = await capstan(['classify', '550 5.1.1 User unknown']);
  assert.is(quiet.code, 0);
  assert.is(quiet.stderr, '');
  const { code, stdout, stderr } = await capstan(['classify', '550 5.1.1 User unknown'], '', {
    CAPSTAN_LOG_LEVEL: 'debug',
  });
  assert.is(code, 0);
  assert.match(stdout, /^RECIPIENT_NOT_FOUND\t[\d.]+\n$/);
  assert.match(stderr, /"level":"info".*"msg":"plugin started"/);
});

test('capstan classify refuses an unknown CAPSTAN_LOG_LEVEL in one line, exit 1', async () => {
  const { code, stdout, stderr } = await capstan(['classify', 'x'], '', { CAPSTAN_LOG_LEVEL: 'WARN' });
  assert.is(code, 1);
  assert.is(stdout, '');
  assert.is(
    stderr,
    'capstan classify: Invalid "CAPSTAN_LOG_LEVEL" "WARN": expected "debug", "info", "warn", "error"\n',
  );
});

test('capstan --config classify uses the classifier the document configures, as serve would', async () => {
  const file = rulesDocument();
  // The docs example answers 0.8 when a rule matches and its fallback class at 0.2; the built-in model does neither
  const { code, stdout, stderr } = await capstan([
    '--config',
    file,
    'classify',
    '451 4.7.1 Greylisting in effect',
    'zzz qqq',
  ]);
  assert.is(code, 0, stderr);
  assert.equal(stdout.trim().split('\n'), ['GRAYLISTING\t0.8', 'TEMPORARY_ERROR\t0.2']);
  const emails = await capstan([
    '--config',
    file,
    'classify',
    '--email',
    '--json',
    join(import.meta.dirname, '../../plugins/bounce-classifier/email/fixtures/exim.eml'),
  ]);
  assert.is(emails.code, 0, emails.stderr);
  const [recipient] = JSON.parse(emails.stdout).recipients;
  assert.ok([0.8, 0.2].includes(recipient.bnac.probability), `the rules classifier answered: ${emails.stdout}`);
});

test('capstan classify --explain says what decided each class: the rule, or the model and its features', async () => {
  const texts = ['451 4.7.1 Greylisting in effect', '550 mailbox unavailable, host overloaded'];
  // What the plugin API explains for the same texts: the CLI must answer exactly that
  const model = await usePlugin<Classifier>({ id: 'bounce-model' });
  let expected;
  try {
    expected = texts.map((text) => model.service.explain!('backoff', model.service.normalise!(text)));
  } finally {
    await model.close();
  }
  assert.is(expected[0]!.rule, 'greylisting');
  assert.ok(expected[1]!.rule === undefined && expected[1]!.features!.length > 0, "the second is the model's");

  const json = await capstan(['classify', '--model', 'backoff', '--explain', '--json', ...texts]);
  assert.is(json.code, 0, json.stderr);
  const explanations = json.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line).explanation);
  assert.equal(explanations, [
    { by: 'rule', rule: 'greylisting' },
    { by: 'model', features: expected[1]!.features },
  ]);

  const plain = await capstan(['classify', '--model', 'backoff', '--explain', ...texts]);
  assert.is(plain.code, 0, plain.stderr);
  const columns = plain.stdout
    .trim()
    .split('\n')
    .map((line) => line.split('\t').at(-1));
  assert.equal(columns, ['rule=greylisting', column({ by: 'model', features: expected[1]!.features })]);
});

test('capstan classify --explain leaves the column empty for a classifier that cannot explain', async () => {
  const file = rulesDocument();
  const { code, stdout, stderr } = await capstan(['--config', file, 'classify', '--explain', 'zzz qqq']);
  assert.is(code, 0, stderr);
  assert.is(stdout, 'TEMPORARY_ERROR\t0.2\t\n');
  const json = await capstan(['--config', file, 'classify', '--explain', '--json', 'zzz qqq']);
  assert.is(json.code, 0, json.stderr);
  assert.not.ok('explanation' in JSON.parse(json.stdout));
});

test('capstan classify --email --explain: each class with what decided it, in JSON and in two last columns', async () => {
  const eml = join(import.meta.dirname, '../../plugins/bounce-classifier/email/fixtures/exim.eml');
  const json = await capstan(['classify', '--email', '--explain', '--json', eml]);
  assert.is(json.code, 0, json.stderr);
  const classified = JSON.parse(json.stdout).recipients.filter((r: { bnac?: unknown }) => r.bnac);
  assert.ok(classified.length >= 2, json.stdout);
  for (const r of classified) assert.ok(r.bnac.explanation && r.backoff.explanation, JSON.stringify(r));
  const plain = await capstan(['classify', '--email', '--explain', eml]);
  assert.is(plain.code, 0, plain.stderr);
  const rows = plain.stdout
    .split('\n')
    .map((line) => line.split('\t'))
    .filter((cells) => cells.length === 8);
  assert.equal(
    rows.map((cells) => cells.slice(-2)),
    classified.map((r: any) => [column(r.bnac.explanation), column(r.backoff.explanation)]),
  );
  const without = await capstan(['classify', '--email', '--json', eml]);
  assert.not.ok(without.stdout.includes('explanation'));
});

test.run();
