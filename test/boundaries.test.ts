/**
 * The import rules of the house style, checked on every source file: `runtime/` never imports `plugins/`, and a
 * plugin imports only `runtime/mod.ts`, `generated/`, `lib/` (pure functions that import nothing of the project but
 * `lib/`, each with its own tests, such as the SMTP reply cutter) and its own folder (its tests may also use `test/`;
 * they take the conformance suites as a plugin author does, from the package export `capstan/conformance`). Packages
 * and `node:` modules are free. Inside `runtime/`, the folders form the layers of docs/architecture.md: a file imports
 * its own folder and lower layers only. Below `runtime/mod.ts`, which hands plugins their class lists, the runtime
 * takes no types, data or validators generated from a plugin's API document, only those of the host's own
 * (`host.yaml`, the startup document), so that the host knows no plugin. And no hand-written line runs past 200
 * characters: prettier keeps code to 120 columns but cannot split a string.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const ROOT = resolve(import.meta.dirname, '..');
// Every form a module can load another by (`import`/`export ... from`, `import()`, `new URL(..., import.meta.url)` for
// workers, a bare `import '...'`): a form left out here would let its imports cross a boundary unseen
const SPECIFIER_RE =
  /\bfrom\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)|\bnew URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url|^\s*import\s*['"]([^'"]+)['"]/gm;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(path);
    return /\.(ts|js|mjs)$/.test(e.name) ? [path] : [];
  });
}

/** Project-relative targets of a file's relative imports (`text`: the file's contents, read when not given) */
function targets(file: string, text = readFileSync(join(ROOT, file), 'utf8')): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(SPECIFIER_RE)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? m[4]!;
    if (spec.startsWith('.'))
      out.push(
        relative(ROOT, resolve(ROOT, dirname(file), spec))
          .split(sep)
          .join('/'),
      );
  }
  return out;
}

/**
 * The layers of `runtime/`, lowest first (docs/architecture.md draws them). Folders of one layer do not import each
 * other; `mod.ts`, the public surface, sits on top. A new folder must be placed here before it may be imported.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['core', 'fs'],
  ['contracts', 'config', 'observability', 'pool', 'postgres'],
  ['http'],
  ['plugins'],
  ['host'],
  ['cli'],
  ['mod.ts'],
];

/** The layer of a `runtime/` path: the index in LAYERS of its first segment under `runtime/`, -1 when unplaced */
function layerOf(path: string): number {
  const part = path.split('/')[1];
  return LAYERS.findIndex((layer) => layer.includes(part));
}

/** Imports of `file` (project-relative, under `runtime/`) that break the layer order; tests may use `runtime/mod.ts` */
function layerBreaks(file: string, text?: string): string[] {
  const own = file.split('/')[1];
  const from = layerOf(file);
  return targets(file, text)
    .filter((target) => {
      if (!target.startsWith('runtime/') || target.split('/')[1] === own) return false;
      if (file.endsWith('.test.ts') && target === 'runtime/mod.ts') return false;
      const to = layerOf(target);
      return from === -1 || to === -1 || to >= from;
    })
    .map((target) => `${file} -> ${target}`);
}

/** The names of the plugins' API documents (`spec/openapi/*.yaml` but the host's own) */
const PLUGIN_APIS = readdirSync(join(ROOT, 'spec/openapi'))
  .filter((name) => name.endsWith('.yaml') && name !== 'host.yaml')
  .map((name) => name.slice(0, -'.yaml'.length));

/** Whether `target` is generated from one plugin's API document alone */
function pluginApiOutput(target: string): boolean {
  const [top, kind, name] = target.split('/');
  return (
    top === 'generated' &&
    ['types', 'data', 'validators'].includes(kind!) &&
    PLUGIN_APIS.includes(name!.replace(/\.ts$/, ''))
  );
}

function violations(): string[] {
  const found: string[] = [];
  for (const file of sources('runtime')) {
    const path = file.split(sep).join('/');
    for (const target of targets(file)) {
      if (target.startsWith('plugins/')) found.push(`${path} -> ${target}`);
      if (path !== 'runtime/mod.ts' && pluginApiOutput(target)) found.push(`${path} -> ${target}`);
    }
    found.push(...layerBreaks(path));
  }
  // generated/ sits below every layer but core/, whose route-table types it emits
  for (const file of sources('generated')) {
    for (const target of targets(file))
      if (target.startsWith('runtime/') && !target.startsWith('runtime/core/')) found.push(`${file} -> ${target}`);
  }
  for (const file of sources('plugins')) {
    const own = `${file.split(sep).slice(0, 2).join('/')}/`;
    const isTest = file.endsWith('.test.ts');
    for (const target of targets(file)) {
      const allowed =
        target.startsWith(own) ||
        target === 'runtime/mod.ts' ||
        target.startsWith('generated/') ||
        target.startsWith('lib/') ||
        (isTest && target.startsWith('test/'));
      if (!allowed) found.push(`${file.split(sep).join('/')} -> ${target}`);
    }
  }
  // lib/ is pure functions shared by plugins (and runtime): it imports only itself, packages and node: modules
  for (const file of sources('lib')) {
    for (const target of targets(file))
      if (!target.startsWith('lib/')) found.push(`${file.split(sep).join('/')} -> ${target}`);
  }
  return [...new Set(found)].sort();
}

test('runtime imports no plugin, its layers point only down; plugins import only runtime/mod.ts, generated/, lib/ and their own folder; lib/ only itself', () => {
  assert.equal(violations(), []);
});

/**
 * bounce-classifier's `email/` is a parser: it reads what an email says and leaves classification to its caller
 * (`classify-email.ts`), so within the plugin it imports only its own folder and the plugin's error registry.
 * The imports of `file` (project-relative, under `email/`) that break this; `text` stands for its contents in the
 * self-check below
 */
function emailParserBreaks(file: string, text?: string): string[] {
  return targets(file, text)
    .filter(
      (target) =>
        target.startsWith('plugins/') &&
        !target.startsWith('plugins/bounce-classifier/email/') &&
        target !== 'plugins/bounce-classifier/errors.ts',
    )
    .map((target) => `${file} -> ${target}`);
}

test('bounce-classifier/email/ is parse-only: no import of classification', () => {
  const files = sources('plugins/bounce-classifier/email').map((file) => file.split(sep).join('/'));
  // A moved or renamed folder would leave nothing to check, and the rule would pass unread
  assert.ok(files.includes('plugins/bounce-classifier/email/parse.ts'), 'the parser files are found');
  assert.equal(files.flatMap((file) => emailParserBreaks(file)).sort(), []);
});

test('the parse-only check sees a call back into classification, from any depth of email/', () => {
  assert.equal(
    emailParserBreaks(
      'plugins/bounce-classifier/email/parse.ts',
      "import { classifyNormalised } from '../classify.ts';\n",
    ),
    ['plugins/bounce-classifier/email/parse.ts -> plugins/bounce-classifier/classify.ts'],
  );
  assert.equal(
    emailParserBreaks(
      'plugins/bounce-classifier/email/forms/x.ts',
      "import type { Model } from '../../../bounce-model/mod.ts';\nimport { errors } from '../../errors.ts';\n",
    ),
    ['plugins/bounce-classifier/email/forms/x.ts -> plugins/bounce-model/mod.ts'],
  );
});

test("the check sees the runtime take a plugin API document's types, and not the host's own", () => {
  assert.ok(pluginApiOutput('generated/types/ip-schedule.ts'));
  assert.ok(pluginApiOutput('generated/validators/bounce-classifier.ts'));
  assert.not.ok(pluginApiOutput('generated/types/host.ts'));
  assert.not.ok(pluginApiOutput('generated/types/startup-config.ts'));
  assert.not.ok(pluginApiOutput('generated/openapi.ts'));
});

test('the check sees a crossing when a file makes one', () => {
  const crossing = "import { classifyNormalised } from '../../plugins/bounce-classifier/classify.ts';\n";
  assert.ok(
    targets('runtime/cli/main.ts', crossing).includes('plugins/bounce-classifier/classify.ts'),
    'a runtime -> plugin import is found',
  );
  assert.ok(
    targets('plugins/bounce-model/mod.ts').includes('plugins/bounce-model/worker.ts'),
    'new URL(..., import.meta.url) is read',
  );
  assert.ok(
    targets('runtime/cli/main.ts', "import '../../plugins/x/mod.ts';\n").includes('plugins/x/mod.ts'),
    'a bare import is read',
  );
  assert.ok(
    targets('lib/smtp-reply.ts', "import { x } from '../runtime/mod.ts';\n").includes('runtime/mod.ts'),
    'a lib/ import is read',
  );
});

test('the check sees an import that points up or sideways between layers', () => {
  assert.equal(
    layerBreaks('runtime/core/types.ts', "import type { Host } from '../host/serve.ts';\n"),
    ['runtime/core/types.ts -> runtime/host/serve.ts'],
    'core imports nothing above it',
  );
  assert.equal(
    layerBreaks('runtime/config/load.ts', "import { metrics } from '../observability/metrics.ts';\n").length,
    1,
    'folders of one layer do not import each other',
  );
  assert.equal(
    layerBreaks('runtime/newfolder/x.ts', "import { hostErrors } from '../core/host-errors.ts';\n").length,
    1,
    'an unplaced folder is a break',
  );
  assert.equal(
    layerBreaks(
      'runtime/http/app.ts',
      "import { hostErrors } from '../core/host-errors.ts';\nimport { x } from './body.ts';\n",
    ),
    [],
    'down and within a folder are allowed',
  );
});

/** Lines of hand-written code over `limit` characters, as `file:line`; phrasing data and fixtures are text, not code */
function longLines(limit: number): string[] {
  const dirs = ['bench', 'conformance', 'docs/examples', 'lib', 'plugins', 'runtime', 'scripts', 'test'];
  return dirs
    .flatMap((dir) => sources(dir))
    .map((file) => file.split(sep).join('/'))
    .filter((file) => !file.startsWith('scripts/corpus/phrasings/') && !file.includes('/fixtures/'))
    .flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (line.length > limit ? [`${file}:${i + 1}`] : [])),
    );
}

test('no hand-written line of code is over 200 characters', () => {
  assert.equal(longLines(200), []);
  assert.ok(longLines(119).length > 0, 'the check reads the code');
});

test.run();
