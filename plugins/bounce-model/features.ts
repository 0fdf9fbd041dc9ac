/*
 * Hashed sparse features of a normalised bounce reply (fastText-style):
 * the SMTP reply code and RFC 3463 enhanced status code as explicit
 * features (class, class.subject, full code), word unigrams and bigrams,
 * and character n-grams of each word (3-grams; 2-grams too for CJK words,
 * which carry no spaces). Hashes are FNV-1a, folded into 2^bits buckets.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const MAX_FEATURES = 4096;
const MAX_CHARGRAM_WORD = 40;
// Per-kind hash seeds keep a word, a bigram and a 3-gram with equal text apart.
const KIND_WORD = 1;
const KIND_BIGRAM = 2;
const KIND_CHAR = 3;
const KIND_REPLY = 4;
const KIND_STATUS = 5;
const REPLY_CODE_RE = /^[245]\d\d$/;
const STATUS_CODE_RE = /^([245])_(\d{1,3})_(\d{1,3})$/;

/** Sparse feature vector: bucket indices and values, `length` entries used. */
export interface Features {
  readonly index: Int32Array;
  readonly value: Float32Array;
  length: number;
}

/** Allocates a reusable feature buffer. */
export function newFeatures(): Features {
  return { index: new Int32Array(MAX_FEATURES), value: new Float32Array(MAX_FEATURES), length: 0 };
}

function mix(h: number, c: number): number {
  return Math.imul(h ^ c, FNV_PRIME);
}

function hashRange(seed: number, s: string, start: number, end: number): number {
  let h = mix(FNV_OFFSET, seed);
  for (let i = start; i < end; i++) h = mix(h, s.charCodeAt(i));
  return h;
}

function add(f: Features, hash: number, mask: number, value: number): void {
  if (f.length === MAX_FEATURES) return;
  f.index[f.length] = (hash >>> 0) & mask;
  f.value[f.length++] = value;
}

/** Fills `out` with the features of a normalised text; returns it. */
export function extractFeatures(text: string, bits: number, out: Features = newFeatures()): Features {
  const mask = (1 << bits) - 1;
  out.length = 0;
  const words = text.length === 0 ? [] : text.split(' ');
  let seenReply = false;
  for (const w of words) {
    if (!seenReply && REPLY_CODE_RE.test(w)) {
      seenReply = true;
      add(out, hashRange(KIND_REPLY, w, 0, 3), mask, 1);
      add(out, hashRange(KIND_REPLY, w, 0, 1), mask, 1);
    }
    const m = STATUS_CODE_RE.exec(w);
    if (m) {
      add(out, hashRange(KIND_STATUS, w, 0, w.length), mask, 1);
      add(out, hashRange(KIND_STATUS, w, 0, m[1]!.length + 1 + m[2]!.length), mask, 1);
      add(out, hashRange(KIND_STATUS, w, 0, 1), mask, 1);
    }
  }
  const codeFeatures = out.length;
  let prev = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const h = hashRange(KIND_WORD, w, 0, w.length);
    add(out, h, mask, 1);
    if (i > 0) add(out, mix(mix(prev, KIND_BIGRAM), h), mask, 1);
    prev = h;
    if (w.length <= MAX_CHARGRAM_WORD && w.charCodeAt(0) !== 95) addCharGrams(out, w, mask);
  }
  // Text features share unit L2 mass so long replies do not drown the codes.
  const n = out.length - codeFeatures;
  if (n > 0) {
    const scale = 1 / Math.sqrt(n);
    for (let i = codeFeatures; i < out.length; i++) out.value[i] = scale;
  }
  return out;
}

function addCharGrams(out: Features, w: string, mask: number): void {
  // Boundary marks (\u0002 ... \u0003) let prefixes and suffixes differ from inner grams.
  const s = `\u0002${w}\u0003`;
  for (let i = 0; i + 3 <= s.length; i++) add(out, hashRange(KIND_CHAR, s, i, i + 3), mask, 1);
  if (w.charCodeAt(0) >= 0x2e80) {
    for (let i = 0; i + 2 <= s.length; i++) add(out, hashRange(KIND_CHAR, s, i, i + 2), mask, 1);
  }
}
