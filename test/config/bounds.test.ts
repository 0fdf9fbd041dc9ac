/**
 * The linter's bounds, through the CLI: time linear in the keys of one mapping, a maximum file size, and a cap on the
 * lines printed per file. The documents are generated in a temporary folder.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'capstan-bounds-'));
const KEYS = 40_000;
// Linear work takes 2-4 s here on a shared 2-core machine (the CLI's start included); the quadratic parser took 17 s
// for the valid document and 42 s for the one with an error per key
const BOUND_MS = 15_000;

type Run = { code: number; stdout: string; stderr: string; ms: number };

function check(file: string, timeout = 60_000): Promise<Run> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['runtime/cli/capstan.js', 'config', 'check', file],
      { cwd: root, timeout, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr, ms: Date.now() - started });
      },
    );
  });
}

function keys(indent: string): string {
  return Array.from({ length: KEYS }, (_, i) => `${indent}k${i}: ${i}\n`).join('');
}

test(`config check reads a plugin config of ${KEYS} keys in linear time`, async () => {
  const file = join(dir, 'wide-config.yaml');
  writeFileSync(
    file,
    `version: "6.10"\nplugins:\n  - id: ui\n    config:\n      enabled: true\n      extra:\n${keys('        ')}`,
  );
  const run = await check(file);
  assert.ok(run.ms < BOUND_MS, `took ${run.ms} ms`);
  assert.is(run.code, 1, run.stderr);
});

test(`config check reports ${KEYS} unknown keys in linear time and prints the first 100`, async () => {
  const file = join(dir, 'wide.yaml');
  writeFileSync(file, `version: "6.10"\nenvironment:\n${keys('  ')}`);
  const run = await check(file);
  assert.ok(run.ms < BOUND_MS, `took ${run.ms} ms`);
  assert.is(run.code, 1);
  const lines = run.stdout.trimEnd().split('\n');
  assert.is(lines.length, 101);
  assert.match(lines[0], `${file}:3:3 environment.k0 unknown property of "environment"`);
  assert.is(lines[100], `${file}: ... and ${KEYS - 100} more errors`);
  assert.match(run.stderr, `1 file checked: 0 valid, 1 invalid (${KEYS} errors)`);
});

test('config check finds a repeated key among many in linear time', async () => {
  const file = join(dir, 'repeated.yaml');
  writeFileSync(file, `version: "6.10"\nenvironment:\n  sockets:\n${keys('    ')}    k7: 7\n`);
  const run = await check(file);
  assert.ok(run.ms < BOUND_MS, `took ${run.ms} ms`);
  assert.is(run.stdout, `${file}:${KEYS + 4}:5 invalid YAML: Map keys must be unique\n`);
});

test('config check and serve refuse a file over 10 MiB, naming it, before parsing it', async () => {
  const file = join(dir, 'huge.yaml');
  writeFileSync(file, `version: "6.10"\n#${'x'.repeat(10 * 1024 * 1024)}\n`);
  const run = await check(file);
  assert.is(run.code, 2);
  assert.match(
    run.stderr,
    `capstan config: Cannot check "${file}": it has "10485778" bytes, and a configuration file may have at most "10485760"`,
  );
  const serve = await new Promise<Run>((resolve) => {
    execFile(
      process.execPath,
      ['runtime/cli/capstan.js', 'serve', '--config', file],
      { cwd: root, timeout: 60_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr, ms: 0 });
      },
    );
  });
  assert.is(serve.code, 1);
  assert.match(serve.stderr, `capstan serve: Cannot check "${file}": it has "10485778" bytes`);
});

test.after(() => rmSync(dir, { recursive: true, force: true }));

test.run();
