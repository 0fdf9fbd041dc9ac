/**
 * The `ui` pages' modules as source: what a browser test cannot see. Numbers are formatted in one place (look.js's
 * `number`).
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

test.run();
