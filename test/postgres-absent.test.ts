import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import * as assert from 'uvu/assert';
import { test } from './_deadline.ts';
import { freePort } from './host/_fixtures.ts';

// The file that used to hang until the runner's limit when PostgreSQL was down
const STORE_TESTS = resolve(import.meta.dirname, '../plugins/schedule-store-postgres/mod.test.ts');

test('without PostgreSQL a test file that needs it ends at once, saying where it looked and how to start it', async () => {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', STORE_TESTS], {
    env: { ...process.env, DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/test`, FORCE_COLOR: '0' },
    timeout: 30_000,
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  assert.is(code, 1, out);
  assert.match(
    out,
    new RegExp(
      '^This test file needs PostgreSQL, which does not answer at ' +
        `127\\.0\\.0\\.1:${port} \\(.*ECONNREFUSED.*\\)\\. Start it \\(as \\.ci/run ` +
        `does: pg_ctlcluster --skip-systemctl-redirect \\S+ main start\\)`,
    ),
  );
  assert.not.match(out, /✘|FAIL/, 'no test ran');
});

test.run();
