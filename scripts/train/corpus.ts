import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalise } from '../../plugins/bounce-classifier/normalise.ts';

/** One corpus line, normalised, with the family (file) it came from. */
export interface LabelledText {
  readonly family: string;
  readonly text: string;
  readonly bnac: string;
  readonly backoff: string;
}

/** Reads every `*.jsonl` file of the corpus folder, in file-name order. */
export function readCorpus(dir: string): LabelledText[] {
  const out: LabelledText[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort()) {
    const family = file.slice(0, -'.jsonl'.length);
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const row = JSON.parse(line) as { text: string; bnac: string; backoff: string };
      out.push({ family, text: normalise(row.text), bnac: row.bnac, backoff: row.backoff });
    }
  }
  return out;
}
