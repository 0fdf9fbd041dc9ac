/**
 * The notice reader's wording is data, one file per mail-system family (`plugins/bounce-classifier/email/families/`):
 * every family file is well formed, each of its patterns compiles, and each names committed samples (fixtures, whose
 * expected answers `email.test.ts` checks over HTTP) in which its headings and reason leads occur, so no family's
 * wording goes untested.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { test } from '../_deadline.ts';

const EMAIL = join(import.meta.dirname, '../../plugins/bounce-classifier/email');
const files = readdirSync(join(EMAIL, 'families'))
  .filter((f) => f.endsWith('.json'))
  .sort();
const LISTS = ['headings', 'reason_leads', 'delayed', 'final'] as const;

test('there are families, each a JSON file named after its family with patterns that compile', () => {
  assert.ok(files.length >= 4, `found ${files.length} family files`);
  for (const file of files) {
    const family = JSON.parse(readFileSync(join(EMAIL, 'families', file), 'utf8'));
    assert.is(`${family.family}.json`, file);
    assert.type(family.about, 'string');
    for (const list of LISTS) {
      assert.ok(Array.isArray(family[list]), `${file}: ${list} is a list`);
      for (const source of family[list]) assert.not.throws(() => new RegExp(source, 'i'), `${file}: ${source}`);
    }
  }
});

test('each family names samples among the fixtures, and its headings and reason leads occur in them', () => {
  const fixtures = new Set(readdirSync(join(EMAIL, 'fixtures')));
  for (const file of files) {
    const family = JSON.parse(readFileSync(join(EMAIL, 'families', file), 'utf8'));
    assert.ok(family.samples.length > 0, `${file} names no sample`);
    const texts = family.samples.map((sample: string) => {
      assert.ok(
        fixtures.has(sample) && fixtures.has(sample.replace(/\.eml$/, '.json')),
        `${file}: ${sample} and its expected answer are fixtures`,
      );
      return readFileSync(join(EMAIL, 'fixtures', sample), 'latin1');
    });
    for (const source of [...family.headings, ...family.reason_leads]) {
      assert.ok(
        texts.some((text: string) => new RegExp(source, 'i').test(text)),
        `${file}: no sample holds ${source}`,
      );
    }
  }
});

test.run();
