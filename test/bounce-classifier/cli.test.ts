import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const CAPSTAN = fileURLToPath(new URL('../../runtime/cli/capstan.js', import.meta.url));

function capstan(args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CAPSTAN, ...args]);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

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
