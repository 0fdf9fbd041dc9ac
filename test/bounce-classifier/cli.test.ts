import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { runCli as capstan } from '../host/_fixtures.ts';

test('capstan classify prints class and probability when given texts', async () => {
  const { code, stdout } = await capstan(['classify', '451 4.7.1 Greylisting in effect', '550 5.1.1 User unknown']);
  assert.is(code, 0);
  const lines = stdout.trim().split('\n');
  assert.is(lines.length, 2);
  assert.match(lines[0]!, /^GRAYLISTING\t(0|1|0\.\d+)$/);
});

test('capstan classify prints JSON lines when reading stdin with --json', async () => {
  const { code, stdout } = await capstan(['classify', '--model', 'backoff', '--json'], 'Mailbox full\n\n421 Too many connections\n');
  assert.is(code, 0);
  const results = stdout.trim().split('\n').map((line) => JSON.parse(line));
  assert.equal(results.map((r) => r.message), ['Mailbox full', '421 Too many connections']);
  for (const result of results) {
    assert.equal(Object.keys(result), ['message', 'class', 'probability', 'fields', 'actions']);
  }
});

test('capstan classify exits 2 when the model is unknown', async () => {
  const { code, stderr } = await capstan(['classify', '--model', 'spam', 'x']);
  assert.is(code, 2);
  assert.match(stderr, /unknown model "spam"/);
});

test.run();
