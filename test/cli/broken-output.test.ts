/**
 * Standard output that fails: a reader that went away (EPIPE: `capstan config schema | head`, `capstan serve | head`)
 * and a full disk (ENOSPC: /dev/full, a full tmpfs). Commands end quietly; `serve` keeps serving and counts the log
 * lines it dropped.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { test } from '../_deadline.ts';
import { CLI, freePort, tempDir } from '../host/_fixtures.ts';

const KEY = 'broken-output-key';

/** Runs `capstan ARGS` with its standard output's reader gone before the first write */
function withClosedReader(args: string[]): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.destroy();
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((done) => child.on('close', (code) => done({ code, stderr })));
}

test('commands whose output nobody reads end quietly with the status of SIGPIPE', async () => {
  for (const args of [['config', 'schema'], ['help']]) {
    const { code, stderr } = await withClosedReader(args);
    assert.is(stderr, '', args.join(' '));
    assert.is(code, 141, args.join(' '));
  }
});

test('a command writing to a full disk says so in one line', () => {
  const full = openSync('/dev/full', 'w');
  try {
    const run = spawnSync(process.execPath, [CLI, 'config', 'schema'], {
      stdio: ['ignore', full, 'pipe'],
      encoding: 'utf8',
    });
    assert.is(run.status, 1);
    assert.is(run.stderr, 'capstan: cannot write output: ENOSPC: no space left on device, write\n');
  } finally {
    closeSync(full);
  }
});

/** Starts `capstan serve` with `stdout` as its standard output and waits until it answers */
async function serve(
  stdout: 'pipe' | number,
  cwd: string,
): Promise<{ child: ChildProcess; base: string; stderr: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve'], {
    cwd,
    env: { ...process.env, SERVICE_PORT: String(port), API_KEY: KEY },
    stdio: ['ignore', stdout, 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const base = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`serve exited with ${child.exitCode}: ${stderr}`);
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { child, base, stderr: () => stderr };
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Makes the host log a line: a request without its key is refused and logged */
async function logALine(base: string): Promise<void> {
  assert.is((await fetch(`${base}/v1/cache/info`)).status, 401);
}

async function dropped(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { 'x-api-key': KEY } })).text();
  return Number(/^capstan_log_lines_dropped_total (\d+)$/m.exec(text)?.[1]);
}

async function stop(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  child.kill('SIGTERM');
  return exited;
}

test('serve keeps serving when its standard output is a pipe whose reader went away', async () => {
  const cwd = tempDir();
  const { child, base, stderr } = await serve('pipe', cwd);
  try {
    child.stdout!.destroy();
    const start = await dropped(base);
    await logALine(base);
    await logALine(base);
    assert.is(await dropped(base), start + 2);
    assert.is((await fetch(`${base}/healthz`)).status, 200);
    assert.match(stderr(), /^capstan: dropping log lines until standard output takes them again .*EPIPE/m);
  } finally {
    assert.is(await stop(child), 0, stderr());
  }
});

test('serve keeps serving on a full disk, counts what it dropped, and logs again once there is room', async () => {
  const cwd = tempDir();
  const disk = join(cwd, 'disk');
  const mounted = spawnSync('sh', ['-c', `mkdir -p "${disk}" && mount -t tmpfs -o size=64k tmpfs "${disk}"`], {
    encoding: 'utf8',
  });
  if (mounted.status !== 0) {
    // Without a mount of our own, /dev/full stands in for the full disk (it cannot be freed, so no recovery check)
    console.log(`  skipping the tmpfs part, mounting is not permitted (${mounted.stderr.trim()}): using /dev/full`);
    const full = openSync('/dev/full', 'w');
    const { child, base, stderr } = await serve(full, cwd);
    closeSync(full);
    try {
      const start = await dropped(base);
      await logALine(base);
      assert.is(await dropped(base), start + 1);
    } finally {
      assert.is(await stop(child), 0, stderr());
    }
    return;
  }
  try {
    const log = join(disk, 'capstan.log');
    const out = openSync(log, 'w');
    const filler = join(disk, 'filler');
    // Everything but a few bytes: the start-up lines already do not fit
    spawnSync('sh', ['-c', `dd if=/dev/zero of="${filler}" bs=1k 2>/dev/null; true`]);
    const { child, base, stderr } = await serve(out, cwd);
    closeSync(out);
    try {
      const start = await dropped(base);
      await logALine(base);
      const before = await dropped(base);
      assert.is(before, start + 1, 'the refusal was dropped and counted');
      assert.match(stderr(), /ENOSPC/);
      rmSync(filler);
      await logALine(base);
      assert.is(await dropped(base), before, 'nothing more dropped once there is room');
      const lines = readFileSync(log, 'utf8')
        .split('\n')
        .filter((l) => l !== '');
      assert.match(JSON.parse(lines.at(-1)!).msg, /request refused/);
    } finally {
      assert.is(await stop(child), 0, stderr());
    }
  } finally {
    spawnSync('umount', [disk]);
  }
});

test.run();
