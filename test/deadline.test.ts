import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import * as assert from 'uvu/assert';
import { test } from './_deadline.ts';

const HANGS = resolve(import.meta.dirname, 'fixtures/deadline/hangs.ts');

test('a test past its deadline fails naming itself, the rest still run, and the file exits despite the open server', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', HANGS], {
    env: { ...process.env, TEST_DEADLINE_MS: '300', FORCE_COLOR: '0' },
    // Without the exit watch the open server keeps the file alive for good
    timeout: 15_000,
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  assert.is(code, 1, out);
  assert.match(out, /Test "waits on a socket forever" did not finish within its deadline of 300 ms/);
  assert.match(out, /Total:\s+3\s+Passed:\s+2/);
});

test.run();
