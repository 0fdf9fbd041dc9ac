/*
 * Writes the labelled bounce corpus to scripts/corpus/lines/: one JSONL file per phrasing file of
 * scripts/corpus/phrasings/ (core-recipient.ts -> core-recipient.jsonl, ...), and the corpus README with the
 * labelling table rendered from SITUATIONS. Seeded per template: the same phrasings give the same bytes.
 * Usage: npx tsx scripts/corpus/generate-corpus.ts
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Rng } from './random.ts';
import { SITUATIONS, type Phrasings, type SituationName } from './situation.ts';
import { expand, templateParts, wrapReply } from './slots.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
/** Folder of the phrasing files; each default-exports `Phrasings[]`. */
export const PHRASINGS_DIR = join(HERE, 'phrasings');
const OUT_DIR = join(HERE, 'lines');

const SEED = 20240611;
/** Distinct expansions wanted per template (fewer when the template has fewer). */
const PER_TEMPLATE = 8;
/** Draws allowed per wanted line before giving up on distinct expansions. */
const DRAWS_PER_LINE = 20;
/** Share of the replies starting with a reply code that are wrapped in a sending MTA's report format. */
const WRAP_SHARE = 0.5;

/** One phrasing file: its name without `.ts`, and the phrasings it exports. */
export interface PhrasingFile {
  readonly name: string;
  readonly phrasings: readonly Phrasings[];
}

/** One labelled example as stored in the corpus files. */
export interface CorpusLine {
  readonly text: string;
  /** Null: not a bounce */
  readonly bnac: string | null;
  readonly backoff: string | null;
  /** `<file>:<situation>:<family>:<index>`: the phrasing the line was expanded from (the held-out unit). */
  readonly template: string;
}

/** Options of `generateCorpus`. */
export interface GenerateOptions {
  readonly seed?: number;
  readonly perTemplate?: number;
}

/** Imports every phrasing file of `dir` (`*.ts`, tests excluded), sorted by file name. */
export async function loadPhrasingFiles(dir: string = PHRASINGS_DIR): Promise<PhrasingFile[]> {
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
    .sort();
  const files: PhrasingFile[] = [];
  for (const file of names) {
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default?: unknown };
    if (!Array.isArray(mod.default)) throw new Error(`${file}: the default export must be a Phrasings[] array`);
    files.push({ name: file.slice(0, -'.ts'.length), phrasings: mod.default as Phrasings[] });
  }
  return files;
}

/** 32-bit FNV-1a of a string: seeds each template's generator from its id. */
function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/**
 * Upper bound of the distinct texts a template expands to: the product of its alternatives, or Infinity
 * when it has a random slot (`{ip}`, `{rcpt}`, ...).
 */
export function expansionCount(template: string): number {
  let count = 1;
  for (const part of templateParts(template)) {
    if (typeof part === 'string') continue;
    if (part.length === 1) return Infinity;
    count *= part.reduce((sum, a) => sum + expansionCount(a), 0);
  }
  return count;
}

/** Up to `n` distinct expansions of one template, about half of the coded replies wrapped. */
function expandTemplate(template: string, id: string, situation: SituationName, n: number, seed: number): CorpusLine[] {
  const rng = new Rng(fnv1a(`${seed}:${id}`));
  const { bnac, backoff } = SITUATIONS[situation];
  const want = Math.min(n, expansionCount(template));
  const seen = new Set<string>();
  const lines: CorpusLine[] = [];
  // Bounded retries: alternatives may expand to equal texts, so `want` is only an upper bound.
  for (let draw = 0; draw < want * DRAWS_PER_LINE && seen.size < want; draw++) {
    const reply = expand(rng, template);
    if (seen.has(reply)) continue;
    seen.add(reply);
    // A reply starting with a code is the remote server's answer, which the sending MTA may report inside its
    // own wording; texts without a code are the sending MTA's own words and stay as they are.
    // Text that is not a bounce (a 2xx reply among it) is not reported as an error.
    const wrap = bnac !== null && /^\d{3}[ -]/.test(reply) && rng.next() < WRAP_SHARE;
    lines.push({ text: wrap ? wrapReply(rng, reply) : reply, bnac, backoff, template: id });
  }
  return lines;
}

/**
 * Generates the corpus: file name -> lines, files in name order, phrasings in file order, families in name
 * order, templates in list order. Pure: the result depends only on the phrasing files and the options.
 */
export function generateCorpus(
  files: readonly PhrasingFile[],
  options: GenerateOptions = {},
): Map<string, CorpusLine[]> {
  const seed = options.seed ?? SEED;
  const perTemplate = options.perTemplate ?? PER_TEMPLATE;
  const corpus = new Map<string, CorpusLine[]>();
  for (const file of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (corpus.has(file.name)) throw new Error(`duplicate phrasing file ${file.name}`);
    const lines: CorpusLine[] = [];
    const groups = new Set<string>();
    for (const p of file.phrasings) {
      if (!(p.situation in SITUATIONS)) throw new Error(`${file.name}: unknown situation "${p.situation}"`);
      for (const family of Object.keys(p.templates).sort()) {
        const group = `${file.name}:${p.situation}:${family}`;
        if (groups.has(group)) throw new Error(`${group} appears twice: merge the two lists`);
        groups.add(group);
        p.templates[family]!.forEach((template, index) => {
          lines.push(...expandTemplate(template, `${group}:${index}`, p.situation, perTemplate, seed));
        });
      }
    }
    corpus.set(file.name, lines);
  }
  return corpus;
}

/** The labelling table of the corpus README, rendered from SITUATIONS (the one source of the labels). */
export function renderLabelTable(): string {
  const rows = Object.entries(SITUATIONS).map(
    ([name, s]) => `| \`${name}\` | ${s.bnac ?? 'none'} | ${s.backoff ?? 'none'} | ${s.what.replaceAll('|', '\\|')} |`,
  );
  return ['| situation | BNAC | backoff | what it covers |', '|---|---|---|---|', ...rows].join('\n');
}

/** Templates and lines per situation and per file, as the README's counts tables. */
function renderCounts(files: readonly PhrasingFile[], corpus: ReadonlyMap<string, readonly CorpusLine[]>): string {
  const templates = new Map<string, number>();
  for (const f of files) {
    for (const p of f.phrasings) {
      const n = Object.values(p.templates).reduce((a, t) => a + t.length, 0);
      templates.set(p.situation, (templates.get(p.situation) ?? 0) + n);
    }
  }
  const lines = new Map<string, number>();
  for (const rows of corpus.values()) {
    for (const r of rows) {
      const situation = r.template.split(':')[1]!;
      lines.set(situation, (lines.get(situation) ?? 0) + 1);
    }
  }
  const perSituation = Object.keys(SITUATIONS).map(
    (s) => `| \`${s}\` | ${templates.get(s) ?? 0} | ${lines.get(s) ?? 0} |`,
  );
  const perFile = [...corpus].map(
    ([name, rows]) => `| \`${name}.jsonl\` | ${new Set(rows.map((r) => r.template)).size} | ${rows.length} |`,
  );
  const total = [...corpus.values()].reduce((a, r) => a + r.length, 0);
  return [
    '| file | templates | lines |',
    '|---|---|---|',
    ...perFile,
    `| total | ${[...templates.values()].reduce((a, b) => a + b, 0)} | ${total} |`,
    '',
    '| situation | templates | lines |',
    '|---|---|---|',
    ...perSituation,
  ].join('\n');
}

/** The whole corpus README (generated with the corpus, so its tables cannot drift from the data). */
export function renderReadme(
  files: readonly PhrasingFile[],
  corpus: ReadonlyMap<string, readonly CorpusLine[]>,
): string {
  return `# Bounce corpus

**Generated, do not edit by hand.** \`npx tsx scripts/corpus/generate-corpus.ts\` writes this README and the
\`*.jsonl\` files beside it. To change the corpus, edit the phrasing files and regenerate, then run
\`npm run train\`.

## What it is

The corpus is **synthetic**. Its replies are written from how real receiving systems phrase their SMTP
replies (Gmail's multi-line \`gsmtp\` replies, Microsoft's \`RESOLVER.ADR...\` and \`S3150\`, Yahoo's
\`[TSS04]\`, Orange's \`OFR_...\`, QQ/163 help links, Mimecast's DOC-1369 links, Postfix/Exim/Sendmail/qmail
stock texts, greylisting filters, DNSBL rejections, localised replies in several languages) and how sending
MTAs report them. It is not a sample of live traffic, and it **never contains rows of the real-mail dev set**
(\`../shared/bounce-dev/\` beside the checkout): that set is for measuring only, and no phrasing is copied from it. Accuracy on
this corpus is an upper bound for real mail.

## How it is made

- **Phrasing files.** Every file of \`scripts/corpus/phrasings/\` default-exports a list of
  \`phrasings(situation, { family: [templates] })\`: the replies of one situation (a real cause of a bounce,
  see the table below) as the receiving product or provider named by the family key words them (\`postfix\`,
  \`gmx\`, \`shared\` for stock wording many receivers use, ...). The generator imports every file of the
  folder, sorted by name, so a new file is picked up without registering it.
- **Templates.** \`{slot}\` marks a variable part drawn at random (addresses, IPs, hosts, queue ids,
  counters: see \`SLOTS\` in \`scripts/corpus/slots.ts\`), \`{a|b|c}\` equivalent phrasings (they may nest).
- **Lines.** Each template gives up to ${PER_TEMPLATE} distinct expansions (fewer when it has fewer: a
  template without slots gives one line per alternative). About half of the replies that start with a
  reply code are wrapped the way sending MTAs report them (Postfix \`host mx[ip] said: ... (in reply to RCPT
  TO command)\`, Exim \`SMTP error from remote mail server after RCPT TO:...\`, sendmail \`<<<\` transcripts,
  DSN \`Diagnostic-Code: smtp; ...\`, Exchange \`Remote Server returned '...'\`, Gmail \`The error that the
  other server returned was: ...\`); texts without a code are the sending MTA's own words and stay as they
  are. Generation is seeded per template, so the files are reproducible byte for byte and editing one
  template changes only its own lines.
- **Files.** One JSONL file per phrasing file (\`core-recipient.ts\` -> \`core-recipient.jsonl\`). Each line is
  \`{"text", "bnac", "backoff", "template"}\`: the text as a sending MTA reports it, both labels (fixed by the
  situation), and the template id \`<file>:<situation>:<family>:<index>\`. Evaluation holds out whole
  template ids, so a score measures phrasings the model has not seen, not new random values of seen ones.

## Labelling rules

Each template belongs to one situation, and the situation fixes both labels. This table is rendered from
\`SITUATIONS\` in \`scripts/corpus/situation.ts\`, the one source of the labels. Where a reply can honestly be
read two ways, the table names the reading a careful mail operator picks; a phrasing that still reads two
ways is left out of the corpus rather than given a coin-flip label. The rules follow the labelling section of
the dev set's README: the text's meaning wins over a generic status code; a named third-party list is
BLOCK_LIST, the receiver's own block is BLOCKED; every label must be decidable from the reply's own words
(the sending MTA's wrapper names an IP for every cause, so it is no IP cue).

${renderLabelTable()}

## Counts

${renderCounts(files, corpus)}
`;
}

async function main(): Promise<void> {
  const files = await loadPhrasingFiles();
  const corpus = generateCorpus(files);
  mkdirSync(OUT_DIR, { recursive: true });
  const written = new Set<string>();
  let total = 0;
  for (const [name, lines] of corpus) {
    writeFileSync(join(OUT_DIR, `${name}.jsonl`), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    written.add(`${name}.jsonl`);
    total += lines.length;
  }
  // Files of phrasing files that are gone (and the old per-family files) go too.
  for (const f of readdirSync(OUT_DIR).filter((f) => f.endsWith('.jsonl') && !written.has(f))) rmSync(join(OUT_DIR, f));
  writeFileSync(join(OUT_DIR, 'README.md'), renderReadme(files, corpus));
  console.log(`wrote ${total} examples in ${corpus.size} files to ${OUT_DIR}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
