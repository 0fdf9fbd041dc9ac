import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readCorpus } from '../train/corpus.ts';
import {
  expansionCount,
  generateCorpus,
  loadPhrasingFiles,
  renderLabelTable,
  renderReadme,
} from './generate-corpus.ts';
import { Rng } from './random.ts';
import { SITUATIONS, phrasings, type SituationName } from './situation.ts';
import { expand } from './slots.ts';

const CORPUS_DIR = join(import.meta.dirname, 'lines');
const files = await loadPhrasingFiles();
const corpus = generateCorpus(files);

test('the generator loads every phrasing file, sorted, including the core files', () => {
  const names = files.map((f) => f.name);
  assert.equal(names, [...names].sort());
  for (const core of ['core-policy', 'core-protocol', 'core-recipient', 'core-shared', 'core-traffic'])
    assert.ok(names.includes(core), core);
  assert.equal([...corpus.keys()], names);
});

test('generateCorpus is deterministic and depends on the seed', () => {
  const again = generateCorpus(files);
  assert.equal(JSON.stringify([...again]), JSON.stringify([...corpus]));
  const other = generateCorpus(files, { seed: 1 });
  assert.is.not(JSON.stringify([...other]), JSON.stringify([...corpus]));
});

test('a template expands the same whatever other files exist', () => {
  const alone = generateCorpus(files.filter((f) => f.name === 'core-shared'));
  assert.equal(alone.get('core-shared'), corpus.get('core-shared'));
});

test("every line carries its situation's labels and a template id of its own file", () => {
  for (const [file, lines] of corpus) {
    assert.ok(lines.length > 0, file);
    for (const line of lines) {
      const [f, situation, family, index, ...rest] = line.template.split(':');
      assert.is(f, file);
      assert.is(rest.length, 0, line.template);
      assert.ok(situation! in SITUATIONS, line.template);
      assert.ok(/^[a-z0-9]+(-[a-z0-9]+)*$/.test(family!), `family key ${family} is kebab case`);
      assert.ok(/^\d+$/.test(index!), line.template);
      const labels = SITUATIONS[situation as SituationName];
      assert.is(line.bnac, labels.bnac, line.template);
      assert.is(line.backoff, labels.backoff, line.template);
      assert.not.match(line.text, /[{}]/, `unexpanded template part in ${line.template}: ${line.text}`);
    }
  }
});

test('template ids are unique per line group: one id per template, its lines contiguous and distinct', () => {
  const templates = new Set<string>();
  for (const f of files) {
    for (const p of f.phrasings) {
      for (const [family, list] of Object.entries(p.templates)) {
        list.forEach((_, i) => {
          const id = `${f.name}:${p.situation}:${family}:${i}`;
          assert.not.ok(templates.has(id), `duplicate id ${id}`);
          templates.add(id);
        });
      }
    }
  }
  const seen = new Set<string>();
  for (const lines of corpus.values()) {
    let previous = '';
    const texts = new Set<string>();
    for (const line of lines) {
      assert.ok(templates.has(line.template), line.template);
      if (line.template !== previous) {
        assert.not.ok(seen.has(line.template), `${line.template} lines are not contiguous`);
        seen.add(line.template);
        texts.clear();
        previous = line.template;
      }
      assert.not.ok(texts.has(line.text), `${line.template} repeats a text`);
      texts.add(line.text);
    }
  }
  assert.is(seen.size, templates.size, 'every template gives at least one line');
});

test('a template gives min(8, distinct expansions) lines', () => {
  const file = {
    name: 'x',
    phrasings: [
      phrasings('mail-loop', {
        t: [
          '554 5.4.6 Too many hops',
          '554 5.4.{6|0} {Routing loop detected|Loop detected}',
          '554 5.4.6 loop for {rcpt}',
        ],
      }),
    ],
  };
  const lines = generateCorpus([file]).get('x')!;
  const count = (i: number) => lines.filter((l) => l.template === `x:mail-loop:t:${i}`).length;
  assert.is(count(0), 1);
  assert.is(count(1), 4);
  assert.is(count(2), 8);
  assert.is(expansionCount('{a|b {ip}}'), Infinity);
  assert.is(expansionCount('{a|{b|c}} {d|e}'), 6);
});

test('nested alternatives expand fully', () => {
  const rng = new Rng(3);
  for (let i = 0; i < 50; i++) assert.not.match(expand(rng, '{IP {ip}|Your IP {a|b {n}}} x'), /[{}]/);
});

test('the committed corpus and README are what the generator writes', () => {
  const onDisk = readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort();
  assert.equal(
    onDisk,
    [...corpus.keys()].map((n) => `${n}.jsonl`),
  );
  for (const [name, lines] of corpus) {
    const expected = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
    assert.ok(
      readFileSync(join(CORPUS_DIR, `${name}.jsonl`), 'utf8') === expected,
      `${name}.jsonl is stale: run npx tsx scripts/corpus/generate-corpus.ts`,
    );
  }
  const readme = readFileSync(join(CORPUS_DIR, 'README.md'), 'utf8');
  assert.ok(readme === renderReadme(files, corpus), 'corpus/README.md is stale');
  assert.ok(readme.includes(renderLabelTable()));
  for (const name of Object.keys(SITUATIONS)) assert.ok(renderLabelTable().includes(`| \`${name}\` |`), name);
});

test('readCorpus keeps the template id and names the family after the corpus file', () => {
  const rows = readCorpus(CORPUS_DIR);
  assert.is(
    rows.length,
    [...corpus.values()].reduce((a, l) => a + l.length, 0),
  );
  for (const r of rows) {
    assert.ok(r.template.startsWith(`${r.family}:`), r.template);
    const labels = SITUATIONS[r.template.split(':')[1] as SituationName];
    assert.is(r.bnac, labels.bnac);
    assert.is(r.backoff, labels.backoff);
  }
});

test.run();
