import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { servedText } from './served-text.ts';

/** One corpus line, normalised, with the corpus file (`family`) and the template it came from. */
export interface LabelledText {
  /** Corpus file name without `.jsonl` (one per phrasing file, e.g. `core-recipient`). */
  readonly family: string;
  /** Template id `<file>:<situation>:<family>:<index>`: lines of one id are expansions of one phrasing. */
  readonly template: string;
  /** The situation of scripts/corpus/situation.ts the template belongs to: the class the models are trained on. */
  readonly situation: string;
  readonly text: string;
  /** Null: not a bounce */
  readonly bnac: string | null;
  readonly backoff: string | null;
}

/** Reads every `*.jsonl` file of the corpus folder, in file-name order. */
export function readCorpus(dir: string): LabelledText[] {
  const out: LabelledText[] = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    const family = file.slice(0, -'.jsonl'.length);
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const row = JSON.parse(line) as { text: string; bnac: string | null; backoff: string | null; template?: string };
      if (typeof row.template !== 'string')
        throw new Error(`${file}: line without a template id: ${line.slice(0, 120)}`);
      out.push({
        family,
        template: row.template,
        situation: row.template.split(':')[1]!,
        text: servedText(row.text),
        bnac: row.bnac,
        backoff: row.backoff,
      });
    }
  }
  return out;
}
