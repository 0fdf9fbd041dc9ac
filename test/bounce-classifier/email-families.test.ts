/**
 * The patterns of mail systems' notices are data, one file per mail-system family
 * (`plugins/bounce-classifier/email/families/`): every family file is well formed, each of its patterns compiles, and
 * each names committed samples (fixtures, whose expected answers `email.test.ts` checks over HTTP) in which its
 * headings, reason leads and form's detection occur, a form's samples answered in its format, so no family's
 * patterns go untested.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { test } from '../_deadline.ts';

const EMAIL = join(import.meta.dirname, '../../plugins/bounce-classifier/email');
const files = readdirSync(join(EMAIL, 'families'))
  .filter((f) => f.endsWith('.json'))
  .sort();
const LISTS = ['headings', 'reason_leads', 'delayed', 'final', 'not_reply', 'trailers'] as const;
const LAYOUTS = ['address-blocks', 'indented-list', 'sections', 'labelled', 'returned-line', 'single'];
/** The patterns each layout needs */
const NEEDS: Record<string, string[]> = {
  'indented-list': ['lists_failures'],
  sections: ['addresses_section', 'transcript_section', 'reason'],
  labelled: ['lead', 'label'],
  'returned-line': ['reply_line', 'recipient'],
  single: ['recipient', 'reply_lead'],
};

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
    const form = family.form;
    if (!form) continue;
    assert.type(form.name, 'string');
    assert.type(form.order, 'number');
    assert.ok(LAYOUTS.includes(form.layout), `${file}: layout ${form.layout}`);
    for (const need of NEEDS[form.layout] ?? []) assert.ok(form.rules[need], `${file}: ${form.layout} needs ${need}`);
    assert.ok(form.detect.length > 0, `${file}: the form is told by nothing`);
    for (const entry of form.detect) {
      assert.ok(Object.values(entry).flat().length > 0, `${file}: an empty detect entry matches every email`);
      for (const source of Object.values(entry).flat()) assert.not.throws(() => new RegExp(source as string, 'im'));
    }
    for (const [key, value] of Object.entries(form.rules)) {
      if (key === 'answer_prefix') continue;
      for (const source of [value].flat())
        assert.not.throws(() => new RegExp(source as string, 'im'), `${file}: ${key}`);
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
      // As bytes read both ways: 8-bit fixtures are in legacy charsets, and a CJK family's words are in UTF-8
      const bytes = readFileSync(join(EMAIL, 'fixtures', sample));
      return `${bytes.toString('latin1')}\n${bytes.toString('utf8')}`;
    });
    for (const source of [...family.headings, ...family.reason_leads, ...family.not_reply, ...family.trailers]) {
      assert.ok(
        texts.some((text: string) => new RegExp(source, 'im').test(text)),
        `${file}: no sample holds ${source}`,
      );
    }
    if (!family.form) continue;
    // A form's samples: one at least is answered in its format (the fixture's expected answer says so)
    const formats = family.samples.map(
      (sample: string) =>
        JSON.parse(readFileSync(join(EMAIL, 'fixtures', sample.replace(/\.eml$/, '.json')), 'utf8')).format,
    );
    assert.ok(formats.includes(family.form.name), `${file}: no sample is answered as ${family.form.name}`);
  }
});

test.run();
