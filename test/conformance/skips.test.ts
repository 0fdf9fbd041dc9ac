/**
 * Skipping a conformance test as docs/plugin-api.md tells a plugin author to: by its title as the suite prints it,
 * with a reason the suite prints. Each run is a child process, as `npx tsx conformance.test.ts` runs an author's.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as assert from 'uvu/assert';
import { suite } from '../_deadline.ts';
import { tempDir } from '../host/_fixtures.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const DIR = tempDir('capstan-skips-');
const EXAMPLES = join(ROOT, 'docs/examples');

/** Runs `call` (a conformance call over `plugin`, the plugin `usePlugin` started) as an author's test file */
function runSuite(name: string, call: string): { status: number | null; out: string } {
  const file = join(DIR, `${name}.test.ts`);
  writeFileSync(
    file,
    [
      `import { usePlugin } from ${JSON.stringify(join(ROOT, 'runtime/mod.ts'))};`,
      `import { classifierConformance, storeConformance } from ${JSON.stringify(join(ROOT, 'conformance/mod.ts'))};`,
      call,
    ].join('\n'),
  );
  const result = spawnSync(join(ROOT, 'node_modules/.bin/tsx'), [file], {
    cwd: DIR,
    encoding: 'utf8',
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  return { status: result.status, out: `${result.stdout}${result.stderr}` };
}

/** The memory store example under the store suite, with `skip` */
const memoryStore = (skip: Record<string, string>) =>
  `storeConformance('memory', async () => {
    const plugin = await usePlugin({ id: 'memory', path: ${JSON.stringify(join(EXAMPLES, 'memory-store'))} });
    return { store: plugin.service as never, close: plugin.close };
  }, { skip: ${JSON.stringify(skip)} });`;

const skips = suite('conformance skips', 60_000);

skips('a store test is skipped with its reason printed when skipped by the title its failure printed', () => {
  // The example keeps no audit trail: without skips its audit tests fail
  const failing = runSuite('store-failing', memoryStore({}));
  assert.is.not(failing.status, 0, failing.out);
  const title = /FAIL\s+store conformance: memory\s+"([^"]+)"/.exec(failing.out)?.[1];
  assert.ok(title, `no failing test printed:\n${failing.out}`);

  const skipped = runSuite('store-skipped', memoryStore({ [title]: 'keeps no audit trail' }));
  assert.ok(skipped.out.includes(`skipped "${title}": keeps no audit trail`), skipped.out);
  assert.not.ok(skipped.out.includes(`"${title}"\n`), `the skipped test still ran:\n${skipped.out}`);
  assert.match(skipped.out, /Skipped:\s+1\b/);
});

skips('a classifier suite stops naming the title when a skip names no test of it', () => {
  const run = runSuite(
    'classifier-misspelt',
    `classifierConformance('rules', async () => {
      const plugin = await usePlugin({ id: 'rules', path: ${JSON.stringify(join(EXAMPLES, 'rules-classifier'))} });
      return { classifier: plugin.service as never, close: plugin.close };
    }, { skip: { 'classifier exposes a versoin when created': 'misspelt' } });`,
  );
  assert.is.not(run.status, 0, run.out);
  assert.ok(
    run.out.includes(
      'Cannot skip "classifier exposes a versoin when created" in the classifier conformance suite: it has no test of that title',
    ),
    run.out,
  );
});

skips.run();
