/**
 * The import rules of the house style, checked on every source file: `runtime/` never imports `plugins/`, and a
 * plugin imports only `runtime/mod.ts`, `generated/` and its own folder (its tests may also use `test/`, where
 * the conformance suites live). Packages and `node:` modules are free.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = resolve(import.meta.dirname, '..');
// import/export ... from '...', import('...'), new URL('...', import.meta.url)
const SPECIFIER_RE = /\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\bnew URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(path);
    return /\.(ts|js|mjs)$/.test(e.name) ? [path] : [];
  });
}

/** Project-relative targets of a file's relative imports */
function targets(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER_RE)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (spec.startsWith('.')) out.push(relative(ROOT, resolve(ROOT, dirname(file), spec)).split(sep).join('/'));
  }
  return out;
}

function violations(): string[] {
  const found: string[] = [];
  for (const file of sources('runtime')) {
    for (const target of targets(file)) if (target.startsWith('plugins/')) found.push(`${file} -> ${target}`);
  }
  for (const file of sources('plugins')) {
    const own = `${file.split(sep).slice(0, 2).join('/')}/`;
    const isTest = file.endsWith('.test.ts');
    for (const target of targets(file)) {
      const allowed = target.startsWith(own) || target === 'runtime/mod.ts' || target.startsWith('generated/') || (isTest && target.startsWith('test/'));
      if (!allowed) found.push(`${file.split(sep).join('/')} -> ${target}`);
    }
  }
  return [...new Set(found)].sort();
}

// Known crossings, each to go: a fix makes its line fail here, and then the line is removed.
const KNOWN: Record<string, string> = {
  'runtime/cli/classify.ts -> plugins/bounce-classifier/classify.ts': 'the classify command moves into its plugin once plugins can contribute CLI commands',
  'runtime/cli/classify.ts -> plugins/bounce-classifier/format.ts': 'the classify command moves into its plugin once plugins can contribute CLI commands',
  'runtime/cli/classify.ts -> plugins/bounce-classifier/email/cli.ts': 'the classify command moves into its plugin once plugins can contribute CLI commands',
};

test('runtime imports no plugin, and plugins import only runtime/mod.ts, generated/ and their own folder', () => {
  assert.equal(violations().filter((v) => !(v in KNOWN)), []);
});

test('every known crossing still exists, so the list stays true', () => {
  const now = new Set(violations());
  assert.equal(Object.keys(KNOWN).filter((v) => !now.has(v)), []);
});

test('the check sees a crossing when a file makes one', () => {
  assert.ok(targets('runtime/cli/classify.ts').includes('plugins/bounce-classifier/classify.ts'), 'a runtime -> plugin import is found');
  assert.ok(targets('plugins/bounce-model/mod.ts').includes('plugins/bounce-model/worker.ts'), 'new URL(..., import.meta.url) is read');
});

test.run();
