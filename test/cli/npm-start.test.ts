/**
 * `npm start` as an orchestrator or a terminal runs it: stopping npm's own process must stop the host. npm forwards
 * SIGTERM to the shell it runs the script with (`sh -c`), which used to die alone, leaving the server listening.
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import * as assert from 'uvu/assert';
import { test } from '../_deadline.ts';
import { freePort } from '../host/_fixtures.ts';

const ROOT = resolve(import.meta.dirname, '../..');

/** Whether something accepts connections on the port */
function listening(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.destroy();
      done(true);
    }).on('error', () => done(false));
  });
}

async function until(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  for (const end = performance.now() + ms; !(await check());) {
    if (performance.now() > end) assert.unreachable(what);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('SIGTERM to the npm process of `npm start` stops the server', async () => {
  const port = await freePort();
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: { ...process.env, SERVICE_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    // A group of its own, so that a server left behind can be cut off with it
    detached: true,
  });
  let out = '';
  npm.stdout.on('data', (d) => (out += d));
  npm.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((done) => npm.on('exit', (code) => done(code)));
  try {
    await until(`npm start did not listen on ${port}: ${out}`, () => listening(port), 30_000);
    npm.kill('SIGTERM');
    await until(`port ${port} still open 5 s after SIGTERM to npm: ${out}`, async () => !(await listening(port)), 5000);
    assert.is(await exited, 0, out);
  } finally {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {
      // The group is gone: nothing was left behind
    }
  }
});

test.run();
