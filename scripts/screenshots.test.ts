/**
 * `npm run screenshots` as a process: it writes one screenshot per page, at 1280×800, and they are the docs' set:
 * every `docs/images/ui-*.png` is one the script makes, and docs/operations.md shows each of them.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test as uvuTest } from 'uvu';
import * as assert from 'uvu/assert';
import { withDeadline } from '../test/_deadline.ts';

const ROOT = join(import.meta.dirname, '..');
/** A host of its own, the classifier's model loaded, five pages in Chromium: more than the default deadline */
const test = withDeadline(uvuTest, 120_000);
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
const it = present ? test : test.skip;
if (!present) console.log(`Skipped: no Chromium at "${CHROMIUM}" (CHROMIUM_PATH names another)`);

/** Width and height from a PNG's IHDR chunk */
function pngSize(file: string): [number, number] {
  const bytes = readFileSync(file);
  assert.is(bytes.subarray(1, 4).toString('latin1'), 'PNG', `${file} is a PNG`);
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

it('writes every page at 1280×800, the same set docs/images holds and docs/operations.md shows', async () => {
  const out = mkdtempSync(join(tmpdir(), 'capstan-screenshots-test-'));
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/screenshots.ts', out], {
      cwd: ROOT,
      timeout: 100_000,
    });
    const made = readdirSync(out).sort();
    assert.ok(made.length >= 5, made.join(', '));
    for (const name of made) assert.equal(pngSize(join(out, name)), [1280, 800], name);
    const docs = readdirSync(join(ROOT, 'docs/images'))
      .filter((name) => /^ui-.*\.png$/.test(name))
      .sort();
    assert.equal(made, docs, 'docs/images/ui-*.png is what the script makes');
    const page = readFileSync(join(ROOT, 'docs/operations.md'), 'utf8');
    assert.equal(
      docs.filter((name) => !page.includes(`(images/${name})`)),
      [],
      'docs/operations.md shows every screenshot',
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});

test.run();
