/*
 * Hashed sparse features of a normalised bounce reply (fastText-style). The normaliser puts the reply code
 * and the enhanced status code first, once (`550 5_1_1 user unknown`); they become a few features
 * (class, class.subject, full code) scaled by CODE_WEIGHT, a prior the text can outvote: real receivers
 * send "550 5.2.1 user unknown" and "421 4.7.0 mailbox full", so a code alone must not decide. The text
 * gives word unigrams and bigrams, character n-grams of each word (3-grams; 2-grams too for CJK words,
 * which carry no spaces) and cue-concept features (see CUES): each concept present, each pair of
 * concepts, and each concept x reply class. Words mixing Latin and CJK ("spf認証に失敗") also add their
 * script pieces as words. Hashes are FNV-1a, folded into 2^bits buckets.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
/** Features one reply can have; further ones are dropped */
export const MAX_FEATURES = 4096;
const MAX_CHARGRAM_WORD = 40;
// Per-kind hash seeds keep a word, a bigram and a 3-gram with equal text apart.
const KIND_WORD = 1;
const KIND_BIGRAM = 2;
const KIND_CHAR = 3;
const KIND_REPLY = 4;
const KIND_STATUS = 5;
const KIND_CUE = 6;
const KIND_CUE_PAIR = 7;
const KIND_CUE_CODE = 8;
/** Weight of each code feature against the unit L2 mass of all text features together. */
const CODE_WEIGHT = 0.5;

// Cue words: the words that decide the hard boundaries of the labelling rules
// (what is blamed: IP, domain, URL, sender; why: reputation, volume, a named
// third-party list, the receiver's own block), folded across languages and
// spellings into a few concepts. Each concept present is a feature, and so
// are pairs of concepts and concept × reply class (4xx/5xx), which lets the
// linear model tell "reputation + IP + 4xx" from "reputation + domain + 5xx".
const CUES: Readonly<Record<string, readonly string[]>> = {
  ip: ['ip', 'ips', '__ip__', "ip's", 'mta', 'senderbase', 'sbrs', 'client', 'connecting'],
  domain: ['domain', 'domains', 'dominio', 'domínio', 'domaine', 'домен', 'домена', 'домене', 'absenderdomain', 'dbl'],
  url: [
    'url',
    'urls',
    'link',
    'links',
    'uri',
    'enlaces',
    'liens',
    'uribl',
    'surbl',
    'linked',
    'referencing',
    'hyperlink',
  ],
  sender: ['sender', 'from', 'absender', 'remetente', 'expéditeur', 'отправитель', 'mittente', 'remitente'],
  reputation: [
    'reputation',
    'reputación',
    'reputação',
    'reputazione',
    'réputation',
    'reputaci',
    'репутация',
    'репутацию',
    'репутация',
    'complaints',
    'unsolicited',
    'senderbase',
    'sbrs',
    'score',
  ],
  thirdparty: [
    'spamhaus',
    'spamcop',
    'sorbs',
    'barracudacentral',
    'brbl',
    'mailspike',
    'psbl',
    'surbl',
    'uribl',
    'dnsbl',
    'dnsbls',
    'dbl',
    'zen',
    'sbl',
    'xbl',
    'pbl',
    'rbl',
    'surriel',
    'blocklists',
  ],
  listed: [
    'listed',
    'list',
    'listing',
    'listada',
    'listado',
    'listée',
    'gelistet',
    'lista',
    'списке',
    'blacklist',
    'blocklist',
    'blacklisted',
  ],
  block: [
    'blocked',
    'block',
    'banned',
    'denied',
    'refused',
    'prohibition',
    'gesperrt',
    'bloqueado',
    'bloqueada',
    'bloquee',
    'заблокирован',
    'bloccato',
    'rejected',
  ],
  rate: [
    'rate',
    'ratelimit',
    'ratelimited',
    'throttled',
    'throttling',
    'volume',
    'frequency',
    'fast',
    'quickly',
    'limit',
    'limited',
    'exceeded',
    'many',
    'zu',
    'viele',
    'demasiados',
    'muitas',
    'troppi',
    'trop',
    'много',
  ],
  connection: [
    'connection',
    'connections',
    'concurrent',
    'simultaneous',
    'sessions',
    'session',
    'verbindungen',
    'conexiones',
    'connexions',
    'connessioni',
    'соединений',
  ],
  busy: ['busy', 'overloaded', 'unavailable', 'resources', 'load', 'ausgelastet', 'surchargé', 'ocupado'],
  temporary: ['temporary', 'temporarily', 'deferred', 'later', 'again', 'retry'],
  recipient: [
    'recipient',
    'recipients',
    'empfänger',
    'destinataire',
    'destinataires',
    'destinatario',
    'destinatari',
    'получатель',
    'получателей',
    'user',
    'mailbox',
    'account',
  ],
  spam: ['spam', 'ube', 'junk', 'unsolicited', 'spamassassin'],
  virus: ['virus', 'malware', 'infected', 'trojan', 'вирус', 'ウイルス', 'clamav'],
  content: ['content', 'attachment', 'attachments', 'size', 'large', 'big', 'body', 'message'],
  auth: ['spf', 'dkim', 'dmarc', 'authentication', 'unauthenticated', 'authenticate', 'authenticated'],
  dns: ['dns', 'ptr', 'reverse', 'rdns', 'nxdomain', 'hostname', 'helo', 'ehlo'],
  tls: ['tls', 'starttls', 'ssl', 'certificate', 'encryption', 'encrypted', 'handshake'],
  grey: ['greylisted', 'greylisting', 'grey', 'gray', 'greylist', 'graylisted', 'postgrey', 'sqlgrey'],
  policy: ['policy', 'policies', 'politique', 'política', "policy's", 'administrative', 'local'],
  full: [
    'full',
    'quota',
    'overquota',
    'over_quota',
    'storage',
    'disk',
    'capacity',
    'voll',
    'überschritten',
    'plein',
    'pleine',
    'lleno',
    'llena',
    'cheia',
    'cheio',
    'pieno',
    'piena',
    'vol',
    'pełna',
    'pełne',
    'plná',
    'plný',
    'переполнен',
    'заполнен',
    'квота',
    'квоты',
    '满',
    '容量',
    'いっぱい',
    '용량',
  ],
  unknown: [
    'unknown',
    'exist',
    'exists',
    'nonexistent',
    'non',
    'invalid',
    'unbekannt',
    'unbekannter',
    'inconnu',
    'inexistant',
    'desconocido',
    'inexistente',
    'sconosciuto',
    'inesistente',
    'onbekend',
    'nieznany',
    'neexistuje',
    'существует',
    'найден',
    '不存在',
    '存在しません',
    '없는',
    'found',
    'unrouteable',
    'unavailable',
  ],
  disabled: [
    'disabled',
    'suspended',
    'inactive',
    'inactivity',
    'deactivated',
    'locked',
    'frozen',
    'closed',
    'expired',
    'discontinued',
    'deaktiviert',
    'désactivé',
    'désactivée',
    'desactivada',
    'desactivado',
    'inativa',
    'inativo',
    'disattivato',
    'disattivata',
    'отключен',
    'заморожен',
    '停用',
    '冻结',
    '無効',
  ],
  loop: ['loop', 'loops', 'looping', 'looped', 'hops', 'forwarding', 'aliasing'],
  syntax: [
    'syntax',
    'malformed',
    'unrecognized',
    'unrecognised',
    'sequence',
    'command',
    'rfc',
    'header',
    'headers',
    'fqdn',
    'qualified',
  ],
  connect: ['timeout', 'timed', 'connect', 'unreachable', 'route', 'responding', 'refused', 'lost', 'dropped'],
};
const CUE_NAMES = Object.keys(CUES);
const CUE_OF: ReadonlyMap<string, number> = (() => {
  const m = new Map<string, number>();
  CUE_NAMES.forEach((name, i) => {
    for (const w of CUES[name]!) m.set(w, (m.get(w) ?? 0) | (1 << i));
  });
  return m;
})();
// The same, keyed by the word's hash (the text is read without slicing words out); a hit is confirmed
// against the word itself, so a hash collision with another word costs a comparison, never a wrong cue.
const CUE_BY_HASH: ReadonlyMap<number, { readonly word: string; readonly bits: number }> = (() => {
  const m = new Map<number, { word: string; bits: number }>();
  for (const [word, bits] of CUE_OF) {
    const h = hashRange(KIND_WORD, word, 0, word.length);
    if (m.has(h)) throw new Error(`cue words "${m.get(h)!.word}" and "${word}" share a hash`);
    m.set(h, { word, bits });
  }
  return m;
})();

/** Sparse feature vector: bucket indices and values, `length` entries used. */
export interface Features {
  readonly index: Int32Array;
  readonly value: Float32Array;
  length: number;
  /** Buckets of the word and word-bigram features, `lexicalLength` used: what coverage is measured on */
  readonly lexical: Int32Array;
  lexicalLength: number;
}

/** Allocates a reusable feature buffer; `index` and `value` may be given (views of a scorer's memory). */
export function newFeatures(index = new Int32Array(MAX_FEATURES), value = new Float32Array(MAX_FEATURES)): Features {
  return { index, value, length: 0, lexical: new Int32Array(MAX_FEATURES), lexicalLength: 0 };
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
  out.lexicalLength = 0;
  // Words are read in place (offsets into the text, hashed once), not split out: slicing a string per word
  // and looking each up in a string-keyed map cost more than everything else here.
  const count = text.length === 0 ? 0 : scanWords(text);
  const starts = wordStarts;
  // The normaliser puts the codes first, so only the first two words can be codes
  let first = 0;
  let replyClass = 48;
  if (count > 0 && isReplyCode(text, starts[0]!, starts[1]! - 1)) {
    const s = starts[first++]!;
    replyClass = text.charCodeAt(s);
    add(out, hashRange(KIND_REPLY, text, s, s + 3), mask, CODE_WEIGHT);
    add(out, hashRange(KIND_REPLY, text, s, s + 1), mask, CODE_WEIGHT);
  }
  const statusHead = first < count ? statusHeadLength(text, starts[first]!, starts[first + 1]! - 1) : 0;
  if (statusHead > 0) {
    const s = starts[first]!;
    const e = starts[++first]! - 1;
    if (replyClass === 48) replyClass = text.charCodeAt(s);
    add(out, hashRange(KIND_STATUS, text, s, e), mask, CODE_WEIGHT);
    add(out, hashRange(KIND_STATUS, text, s, s + statusHead), mask, CODE_WEIGHT);
    add(out, hashRange(KIND_STATUS, text, s, s + 1), mask, CODE_WEIGHT);
  }
  // Each word's script pieces, read by both loops below; only texts holding CJK have any
  const pieces: (readonly string[])[] | undefined = CJK_RE.test(text) ? [] : undefined;
  const hashes = wordHashes;
  let cues = 0;
  for (let i = first; i < count; i++) {
    const s = starts[i]!;
    const e = starts[i + 1]! - 1;
    const h = hashRange(KIND_WORD, text, s, e);
    hashes[i] = h;
    const cue = CUE_BY_HASH.get(h);
    if (cue !== undefined && e - s === cue.word.length && text.startsWith(cue.word, s)) cues |= cue.bits;
    if (pieces) {
      const own = scriptPieces(text.slice(s, e));
      pieces[i - first] = own;
      for (const piece of own) cues |= CUE_OF.get(piece) ?? 0;
    }
  }
  if (cues !== 0) addCueFeatures(out, cues, replyClass, mask);
  const codeFeatures = out.length;
  let prev = 0;
  for (let i = first; i < count; i++) {
    const s = starts[i]!;
    const e = starts[i + 1]! - 1;
    const h = hashes[i]!;
    addLexical(out, h, mask);
    if (i > first) addLexical(out, mix(mix(prev, KIND_BIGRAM), h), mask);
    prev = h;
    // "spf認証に失敗しました": the Latin part is a word of its own too.
    const own = pieces?.[i - first];
    if (own && own.length > 1) for (const piece of own) add(out, hashRange(KIND_WORD, piece, 0, piece.length), mask, 1);
    if (e - s <= MAX_CHARGRAM_WORD && text.charCodeAt(s) !== 95) addCharGrams(out, text, s, e, mask);
  }
  // Text features share unit L2 mass so long replies do not drown the codes.
  const n = out.length - codeFeatures;
  if (n > 0) {
    const scale = 1 / Math.sqrt(n);
    for (let i = codeFeatures; i < out.length; i++) out.value[i] = scale;
  }
  return out;
}

// Start offset of each word of the text being read, then one past the end of the text plus one (so word i
// ends at wordStarts[i + 1] - 1), and each word's hash; reused across calls, grown for longer texts.
let wordStarts = new Int32Array(512);
let wordHashes = new Int32Array(512);

/** Fills wordStarts as `text.split(' ')` would cut the text; returns the number of words. */
function scanWords(text: string): number {
  let n = 0;
  let start = 0;
  for (;;) {
    if (n + 2 > wordStarts.length) {
      const grown = new Int32Array(wordStarts.length * 2);
      grown.set(wordStarts);
      wordStarts = grown;
      wordHashes = new Int32Array(grown.length);
    }
    wordStarts[n++] = start;
    const space = text.indexOf(' ', start);
    if (space < 0) break;
    start = space + 1;
  }
  wordStarts[n] = text.length + 1;
  return n;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * Whether text[s, e) is a code as the normaliser writes it: a reply code (`550`) or an enhanced status code
 * (`5_7_1`). The rules' `only` check lets the leading ones pass (./rules.ts).
 */
export function isCodeWord(text: string, s: number, e: number): boolean {
  return isReplyCode(text, s, e) || statusHeadLength(text, s, e) > 0;
}

/** Whether text[s, e) is a reply code (`^[245]\d\d$`). */
function isReplyCode(text: string, s: number, e: number): boolean {
  const c = text.charCodeAt(s);
  return (
    e - s === 3 && c >= 50 && c <= 53 && c !== 51 && isDigit(text.charCodeAt(s + 1)) && isDigit(text.charCodeAt(s + 2))
  );
}

/**
 * When text[s, e) is a normalised status code (`^[245]_\d{1,3}_\d{1,3}$`), the length of its class.subject
 * head (`5_1` of `5_1_1`); otherwise 0.
 */
function statusHeadLength(text: string, s: number, e: number): number {
  const c = text.charCodeAt(s);
  if (!(c >= 50 && c <= 53 && c !== 51) || text.charCodeAt(s + 1) !== 95) return 0;
  let i = s + 2;
  while (i < e && isDigit(text.charCodeAt(i))) i++;
  const subject = i - (s + 2);
  if (subject < 1 || subject > 3 || text.charCodeAt(i) !== 95 || i >= e) return 0;
  const detail = e - (i + 1);
  if (detail < 1 || detail > 3) return 0;
  for (let j = i + 1; j < e; j++) if (!isDigit(text.charCodeAt(j))) return 0;
  return i - s;
}

function addLexical(f: Features, hash: number, mask: number): void {
  if (f.length === MAX_FEATURES) return;
  f.lexical[f.lexicalLength++] = (hash >>> 0) & mask;
  add(f, hash, mask, 1);
}

const CJK_RE = /[\u2e80-\uffff]/;
const NO_PIECES: readonly string[] = [];

/** Splits a word where it changes between CJK and other scripts; empty when it does not. */
function scriptPieces(w: string): readonly string[] {
  let pieces: string[] | undefined;
  let start = 0;
  for (let i = 1; i < w.length; i++) {
    if (w.charCodeAt(i) >= 0x2e80 !== w.charCodeAt(i - 1) >= 0x2e80) {
      (pieces ??= []).push(w.slice(start, i));
      start = i;
    }
  }
  if (!pieces) return NO_PIECES;
  pieces.push(w.slice(start));
  return pieces;
}

function addCueFeatures(out: Features, cues: number, replyClass: number, mask: number): void {
  const n = CUE_NAMES.length;
  for (let i = 0; i < n; i++) {
    if ((cues & (1 << i)) === 0) continue;
    add(out, mix(mix(FNV_OFFSET, KIND_CUE), i), mask, 1);
    add(out, mix(mix(mix(FNV_OFFSET, KIND_CUE_CODE), i), replyClass), mask, 1);
    for (let j = i + 1; j < n; j++) {
      if ((cues & (1 << j)) !== 0) add(out, mix(mix(mix(FNV_OFFSET, KIND_CUE_PAIR), i), j), mask, 1);
    }
  }
}

function addCharGrams(out: Features, text: string, s: number, e: number, mask: number): void {
  // Boundary marks (2 before, 3 after the word) let prefixes and suffixes differ from inner grams; they are
  // read in place rather than by building a marked string, which would cost an allocation per word.
  const seed = mix(FNV_OFFSET, KIND_CHAR);
  const n = e - s;
  let a = 2;
  let b = text.charCodeAt(s);
  for (let i = 1; i <= n; i++) {
    const c = i < n ? text.charCodeAt(s + i) : 3;
    add(out, mix(mix(mix(seed, a), b), c), mask, 1);
    a = b;
    b = c;
  }
  if (text.charCodeAt(s) >= 0x2e80) {
    let prev = 2;
    for (let i = 0; i <= n; i++) {
      const c = i < n ? text.charCodeAt(s + i) : 3;
      add(out, mix(mix(seed, prev), c), mask, 1);
      prev = c;
    }
  }
}
