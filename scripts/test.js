#!/usr/bin/env node
// Type-checks the project and runs every uvu test file (`*.test.ts` beside the code and under test/) in its own
// process, two at a time, and
// prints the closing line CI reads: `N passed, N failed`. Usage: node scripts/test.js [filter...]
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const FOLDERS = ['runtime', 'lib', 'plugins', 'scripts', 'test', 'docs'];
const filters = process.argv.slice(2);

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'fixtures' ? [] : find(path);
    return e.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

const files = FOLDERS.flatMap((f) => {
  try {
    return find(join(ROOT, f));
  } catch {
    return [];
  }
})
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
const concurrency = Number(process.env.TEST_CONCURRENCY) || Math.max(2, availableParallelism());
const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');

const TYPECHECK = 'tsc --noEmit';

function lastLines(text, count) {
  return text.trimEnd().split('\n').slice(-count).join('\n') || '(nothing)';
}

function run(file) {
  return new Promise((done) => {
    const started = Date.now();
    const args =
      file === TYPECHECK
        ? [join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', ROOT]
        : ['--import', 'tsx', file];
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, FORCE_COLOR: '0' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const limit = Number(process.env.TEST_TIMEOUT_MS) || 240_000;
    let killed = false;
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, limit);
    // A server the file spawned may still hold its output open: do not wait for it once the file is gone
    child.on('exit', () => killed && setTimeout(() => [child.stdout, child.stderr].forEach((s) => s.destroy()), 1000));
    child.on('close', (code) => {
      clearTimeout(timer);
      // A file killed at the limit has no summary: say so, and show where it stopped rather than all it printed
      const text = killed
        ? `killed after ${limit / 1000} s (TEST_TIMEOUT_MS); its last output:\n${lastLines(strip(out), 40)}`
        : strip(out);
      if (file === TYPECHECK)
        return done({
          file,
          passed: code === 0 ? 1 : 0,
          failed: code === 0 ? 0 : 1,
          skipped: 0,
          code,
          text,
          ms: Date.now() - started,
        });
      const total = Number(/Total:\s+(\d+)/.exec(text)?.[1] ?? 0);
      const passed = Number(/Passed:\s+(\d+)/.exec(text)?.[1] ?? 0);
      const skipped = Number(/Skipped:\s+(\d+)/.exec(text)?.[1] ?? 0);
      // A file that exits non-zero without a summary still counts as one failure
      const failed = Math.max(total - passed - skipped, code === 0 ? 0 : 1);
      done({ file, passed, failed, skipped, code, text, ms: Date.now() - started });
    });
  });
}

const results = [];
// The type check runs as one more job, counted like a test
const queue = filters.length === 0 ? [TYPECHECK, ...files] : [...files];
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const r = await run(file);
      results.push(r);
      const mark = r.failed > 0 ? 'FAIL' : 'ok  ';
      console.log(
        `${mark} ${r.file} (${r.passed} passed${r.failed ? `, ${r.failed} failed` : ''}${r.skipped ? `, ${r.skipped} skipped` : ''}, ${(r.ms / 1000).toFixed(1)} s)`,
      );
      if (r.failed > 0)
        console.log(
          r.text
            .split('\n')
            .map((l) => `     ${l}`)
            .join('\n'),
        );
    }
  }),
);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const skipped = results.reduce((n, r) => n + r.skipped, 0);
console.log(`\n${files.length} test files`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || files.length === 0 ? 1 : 0);
