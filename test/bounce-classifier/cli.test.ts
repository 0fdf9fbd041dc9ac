import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { test } from '../_deadline.ts';
import { document, runCli as capstan, tempDir } from '../host/_fixtures.ts';

const RULES = join(import.meta.dirname, '../../docs/examples/rules-classifier');

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

test.run();
