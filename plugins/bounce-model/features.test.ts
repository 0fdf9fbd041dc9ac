import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { extractFeatures } from './features.ts';

const BITS = 18;
const buckets = (text: string): Set<number> => {
  const f = extractFeatures(text, BITS);
  return new Set(f.index.subarray(0, f.length));
};

test('a word mixing Latin and CJK adds its Latin piece as a word, and the cue that piece names, when given "spf認証に失敗しました"', () => {
  // A lone "spf": its cue features (concept, concept × reply class) come first, then the word itself
  const alone = extractFeatures('spf', BITS);
  const [cue, cueByClass] = alone.index;
  const word = alone.lexical[0]!;
  const mixed = buckets('spf認証に失敗しました');
  assert.ok(mixed.has(word!), 'the piece "spf" is a word feature');
  assert.ok(mixed.has(cue!) && mixed.has(cueByClass!), 'the piece "spf" sets the authentication cue');
});

test.run();
