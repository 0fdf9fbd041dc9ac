/**
 * The `ui` pages' modules as source: what a browser test cannot see. Numbers are formatted in one place (look.js's
 * `number`), and every name a page module exports is imported by another (no dead exports).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { test } from '../_deadline.ts';

const PAGES = join(import.meta.dirname, '../../plugins/ui/pages');
const modules = readdirSync(PAGES)
  .filter((name) => name.endsWith('.js'))
  .map((name) => ({ name, text: readFileSync(join(PAGES, name), 'utf8') }));

test('no page formats a number by itself: they all use look.js', () => {
  const own = modules.flatMap(({ name, text }) =>
    name === 'look.js'
      ? []
      : [...text.matchAll(/toLocaleString\('en'\)|Intl\.NumberFormat|toFixed\(0\)/g)].map((m) => `${name}: ${m[0]}`),
  );
  assert.equal(own, []);
});

test("every name a page module exports is imported by another page's module", () => {
  const imported = new Set(
    modules.flatMap(({ text }) =>
      [...text.matchAll(/import\s*\{([^}]*)\}\s*from\s*'\.\/([\w-]+\.js)'/g)].flatMap(([, names, from]) =>
        names!.split(',').map((n) => `${from}:${n.trim().split(/\s+as\s+/)[0]}`),
      ),
    ),
  );
  const exported = modules.flatMap(({ name, text }) => [
    ...[...text.matchAll(/export\s+(?:async\s+)?(?:function|class|const|let)\s+(\w+)/g)].map((m) => `${name}:${m[1]}`),
    ...[...text.matchAll(/export\s*\{([^}]*)\}/g)].flatMap(([, names]) =>
      names!.split(',').map(
        (n) =>
          `${name}:${n
            .trim()
            .split(/\s+as\s+/)
            .pop()}`,
      ),
    ),
  ]);
  assert.ok(exported.length > 5, 'the pattern finds the exports');
  assert.equal(
    exported.filter((e) => !imported.has(e)),
    [],
  );
});

test.run();
