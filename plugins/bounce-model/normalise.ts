/*
 * Canonical form of an SMTP bounce reply: the cache key and the model input, so it belongs to the model
 * (NORMALISER_VERSION is recorded in each model file and is part of the classifier's version).
 *
 * First the remote server's reply is cut out of whatever wraps it (lib/smtp-reply.ts), and its reply code and
 * enhanced status code are put first, once: `550 5_1_1 <text>`. Then the text follows the steps of
 * halon_smtp_reason_normalizer (lower case, status codes
 * with underscores, URLs and unique ids replaced, punctuation stripped). Where
 * the upstream rules are not public we decided as follows:
 *
 * - Length cap: only the first MAX_INPUT_CHARS (4096) UTF-16 units are read.
 *   Real replies are 50-600 chars; the cap bounds the cost of hostile input.
 * - URLs (`scheme://...`, `www....`) become `__url__` followed by the main
 *   label of the host (`support.google.com` -> `google`, `x.co.uk` -> `x`),
 *   because the host usually names the receiving provider. An IP host adds
 *   no label. A list's lookup page names the list in its path
 *   (`spamhaus.org/query/dbl?domain=x` -> `__url__ spamhaus dbl`), and which
 *   list it is tells a listed domain from a listed IP, so those words stay
 *   (LIST_URL_WORDS); the rest of the path is dropped.
 * - E-mail addresses become `__email__`: the local part only adds noise.
 * - IPv4 (optionally with `:port`) and IPv6 addresses become `__ip__`.
 * - Dotted status codes `x.y.z` (x in 2, 4, 5) become `x_y_z`; 3-digit reply
 *   codes and other short numbers stay.
 * - Unique ids: a token (run of non-space chars) holding a digit is an id when
 *   one of its `-._:/=+` separated parts is an id-like segment: 6+ digits, or
 *   6+ letters/digits mixing both. The whole token becomes `__uuid__` (so a
 *   Gmail id `41be03b00d2f7-5bd5f8c2b2fsi12a.120` is one `__uuid__`). Dates
 *   and times such as `2024-01-15` or `10:22:33` count as ids too when they
 *   hold such a segment; short ones (`15`, `jan`) stay as words.
 *   Exception: a hostname (dot-separated labels ending in an alphabetic TLD)
 *   keeps its plain labels, only id-like labels become `__uuid__`, so
 *   `mx01.mail.ru` -> `mx01 mail ru` and `bn8nam11ft012.eop.outlook.com` ->
 *   `__uuid__ eop outlook com`. Repeated `__uuid__` tokens collapse into one.
 * - Punctuation: every char that is not a letter, digit, underscore or
 *   in-word apostrophe becomes a space (commas, full stops, brackets, quotes,
 *   hyphens, lone dashes, NUL and control chars). Typographic apostrophes are
 *   folded to `'`. Whitespace collapses to one space; the result is trimmed.
 */
import { parseReply } from '../../lib/smtp-reply.ts';

/** Only this many UTF-16 units of the input are normalised. */
export const MAX_INPUT_CHARS = 4096;

/** Changes whenever `normalise` may answer differently; models trained on another version are refused. */
export const NORMALISER_VERSION = '4';

/** Words of a URL's path or query that name a block list, kept after the host's label; see the header */
const LIST_URL_WORDS = new Set(['dbl', 'sbl', 'xbl', 'pbl', 'css', 'zen', 'uribl', 'surbl', 'rhsbl']);

const URL_RE = /\b(?:(?:https?|ftp):\/\/|www\.)[^\s<>"'()[\]{}]+/g;
const EMAIL_RE = /[^\s<>()[\]{},;:"@]+@[^\s<>()[\]{},;:"@]+\.[^\s<>()[\]{},;:"@.]+/g;
const IPV4_RE = /\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?\b/g;
const IPV6_RE = /(?<![\w:])(?:[0-9a-f]{1,4}:){1,7}:?(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){0,6})?(?![\w:])/g;
const STATUS_RE = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/g;
const HAS_DIGIT_RE = /\d/;
const IPV4_TEST_RE = /\d\.\d{1,3}\.\d{1,3}\.\d/;
const STATUS_TEST_RE = /[245]\.\d{1,3}\.\d/;
const IPV6_TEST_RE = /[0-9a-f]:[0-9a-f]*:/;
const HOSTNAME_RE = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,12}$/;
const SEGMENT_SPLIT_RE = /[-._:/=+]/;
const SECOND_LEVEL = new Set(['co', 'com', 'net', 'org', 'ac', 'gov', 'edu', 'ne', 'or', 'go', 'gob', 'gouv']);
const UUID = '__uuid__';
const APOSTROPHE = 39;

// Char classes for every UTF-16 unit, built once (a few ms) so the hot loop
// does table look-ups instead of Unicode regexes: SEP splits tokens, WORD is
// kept, PUNCT becomes a space. Surrogates count as WORD so astral letters
// and emoji survive as they are.
const SEP = 0;
const WORD = 1;
const PUNCT = 2;
const CHAR_CLASS = buildCharClasses();

function buildCharClasses(): Uint8Array {
  const table = new Uint8Array(0x10000);
  const word = /[\p{L}\p{N}\p{M}_]/u;
  const space = /\s/;
  for (let c = 0; c < 0x10000; c++) {
    const ch = String.fromCharCode(c);
    if (c < 32 || c === 127 || space.test(ch)) table[c] = SEP;
    else if ((c >= 0xd800 && c <= 0xdfff) || word.test(ch)) table[c] = WORD;
    else table[c] = PUNCT;
  }
  return table;
}

function isApostrophe(c: number): boolean {
  return c === APOSTROPHE || c === 0x2019 || c === 0x2018 || c === 0xb4 || c === 0x60;
}

/** `<code> <status> <text>` of the remote reply, lower-cased, placeholder-substituted and punctuation-free. Never throws. */
export function normalise(message: string): string {
  let s = typeof message === 'string' ? message : String(message);
  if (s.length > MAX_INPUT_CHARS) s = s.slice(0, MAX_INPUT_CHARS);
  const { code, status, text } = parseReply(s);
  // The codes go first into the pieces joined once: a string built by concatenation would be flattened, copied,
  // by the first reader of its chars
  const out: string[] = [];
  if (code !== '') out.push(code);
  if (status !== '') out.push(status.replaceAll('.', '_'));
  return normaliseText(text, out);
}

function normaliseText(reply: string, out: string[]): string {
  const s = reply.toLowerCase();
  let start = -1;
  let plain = true;
  let alnum = true;
  // Where the token stops being a-z, and how many chars are not a-z: a word with one bracket or stop around it
  // ("mail.", "(user") is the common case and skips the rewrites, which would answer the same
  let other = -1;
  let others = 0;
  // Words that stay as they are and stand one space apart in the reply go out as one slice (a run): a slice
  // per word cost more than reading the words.
  let runStart = -1;
  let runEnd = -1;
  // One pass over the reply; only tokens holding something other than
  // a-z go through the (token-local, hence cheap) regex rewrites.
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? s.charCodeAt(i) : 32;
    if (CHAR_CLASS[c] === SEP) {
      if (start >= 0) {
        let from = -1;
        let to = i;
        if (plain) from = start;
        else if (
          others === 1 &&
          i - start > 1 &&
          CHAR_CLASS[s.charCodeAt(other)] === PUNCT &&
          (other === start || other === i - 1)
        ) {
          if (other === start) from = start + 1;
          else [from, to] = [start, i - 1];
        }
        if (from >= 0) {
          if (runStart >= 0 && from === runEnd + 1 && s.charCodeAt(runEnd) === 32) runEnd = to;
          else {
            if (runStart >= 0) out.push(s.slice(runStart, runEnd));
            runStart = from;
            runEnd = to;
          }
        } else {
          if (runStart >= 0) out.push(s.slice(runStart, runEnd));
          runStart = -1;
          if (alnum) push(out, isIdRange(s, start, i) ? UUID : s.slice(start, i));
          else if (!addressToken(s, start, i, out)) stripPunctuation(rewriteToken(s.slice(start, i)), out);
        }
        start = -1;
      }
    } else {
      if (start < 0) {
        start = i;
        plain = true;
        alnum = true;
        others = 0;
      }
      if (c < 97 || c > 122) {
        plain = false;
        other = i;
        others++;
        if (c < 48 || c > 57) alnum = false;
      }
    }
  }
  if (runStart >= 0) out.push(s.slice(runStart, runEnd));
  return out.join(' ');
}

// Chars that may open or close an IP address or host name in a reply ("[192.0.2.1]:", "(mx.example.com).").
const OPENER = new Uint8Array(0x10000);
const CLOSER = new Uint8Array(0x10000);
for (const c of '[(<') OPENER[c.charCodeAt(0)] = 1;
for (const c of '])>.,;:') CLOSER[c.charCodeAt(0)] = 1;

/**
 * IPv4 addresses and host names, the most frequent tokens that are not plain words, answered without the
 * regexes of rewriteToken (which cost 10-20 times a word): the same pieces as rewriteToken + stripPunctuation,
 * or false when the token has another shape. "1.2.3.4", "[1.2.3.4]:25" -> __ip__; "mx1.mail.example.com" ->
 * its labels, an id-like label as __uuid__, hyphens splitting a label.
 */
function addressToken(s: string, from: number, to: number, out: string[]): boolean {
  // Read in place: the s as a slice of the reply would be a sliced string, slow to read char by char.
  let a = from;
  let b = to;
  if (OPENER[s.charCodeAt(a)] === 1) a++;
  let colons = 0;
  while (b > a && CLOSER[s.charCodeAt(b - 1)] === 1) if (s.charCodeAt(--b) === 58) colons++;
  // "www." names are URLs to rewriteToken
  if (b - a < 3 || s.startsWith('www.', a)) return false;
  const first = s.charCodeAt(a);
  if (!isLowerAlnum(first)) return false;
  // One pass over the core: labels between dots, which hold digits, letters, hyphens.
  let dots = 0;
  let digitDot = false;
  let letters = 0;
  let hyphens = 0;
  let labelStart = a;
  let lastLabelLetters = true;
  for (let i = a; i <= b; i++) {
    const c = i < b ? s.charCodeAt(i) : 46;
    if (c === 46) {
      if (i === labelStart) return false;
      if (i < b) {
        dots++;
        if (isDigit(s.charCodeAt(i - 1)) && isDigit(s.charCodeAt(i + 1))) digitDot = true;
      }
      lastLabelLetters = true;
      for (let j = labelStart; j < i && lastLabelLetters; j++)
        lastLabelLetters = s.charCodeAt(j) >= 97 && s.charCodeAt(j) <= 122;
      if (i < b) labelStart = i + 1;
    } else if (c >= 97 && c <= 122) letters++;
    else if (c === 45) hyphens++;
    else if (!isDigit(c)) return false;
  }
  if (letters === 0 && hyphens === 0 && dots === 3) return ipv4(s, a, b, out);
  // Two colons could read as IPv6 there
  if (dots === 0 || digitDot || colons > 1 || !lastLabelLetters || b - labelStart < 2 || b - labelStart > 12)
    return false;
  let start = a;
  for (let i = a; i <= b; i++) {
    if (i < b && s.charCodeAt(i) !== 46) continue;
    if (isIdRange(s, start, i)) push(out, UUID);
    else {
      // Hyphens split a label into pieces, as punctuation does everywhere.
      let piece = start;
      for (let j = start; j <= i; j++) {
        if (j < i && s.charCodeAt(j) !== 45) continue;
        if (j > piece) push(out, s.slice(piece, j));
        piece = j + 1;
      }
    }
    start = i + 1;
  }
  return true;
}

/** An IPv4 address of 1-3 digit octets (what IPV4_RE reads; the closers after it hold no port digits). */
function ipv4(s: string, a: number, b: number, out: string[]): boolean {
  let digits = 0;
  for (let i = a; i < b; i++) {
    if (s.charCodeAt(i) === 46) digits = 0;
    else if (++digits > 3) return false;
  }
  push(out, '__ip__');
  return true;
}

function isLowerAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function push(out: string[], piece: string): void {
  if (piece === UUID && out[out.length - 1] === UUID) return;
  out.push(piece);
}

function rewriteToken(token: string): string {
  let t = token;
  if (t.includes('://') || t.includes('www.')) t = t.replace(URL_RE, urlToken);
  if (t.includes('@')) t = t.replace(EMAIL_RE, ' __email__ ');
  if (!HAS_DIGIT_RE.test(t)) return t;
  // test() before replace(): a global replace costs far more than a miss.
  if (t.includes('.')) {
    if (IPV4_TEST_RE.test(t)) t = t.replace(IPV4_RE, ' __ip__ ');
    if (STATUS_TEST_RE.test(t)) t = t.replace(STATUS_RE, '$1_$2_$3');
  }
  if (t.includes(':') && IPV6_TEST_RE.test(t)) t = t.replace(IPV6_RE, ipv6Token);
  return t.includes(' ') ? t.split(' ').map(digitPart).join(' ') : digitPart(t);
}

// Splits on separators and punctuation, keeping apostrophes between word chars.
function stripPunctuation(t: string, out: string[]): void {
  let piece = '';
  let start = 0;
  for (let i = 0; i <= t.length; i++) {
    const c = i < t.length ? t.charCodeAt(i) : 32;
    if (CHAR_CLASS[c] === WORD) continue;
    const inWord = isApostrophe(c) && i > start && i + 1 < t.length && CHAR_CLASS[t.charCodeAt(i + 1)] === WORD;
    piece += t.slice(start, i);
    if (inWord) {
      piece += "'";
    } else if (piece.length > 0) {
      push(out, piece);
      piece = '';
    }
    start = i + 1;
  }
}

function urlToken(url: string): string {
  const afterScheme = url.startsWith('www.') ? url : url.slice(url.indexOf('//') + 2);
  const hostEnd = afterScheme.search(/[/?#:]/);
  const host = hostEnd < 0 ? afterScheme : afterScheme.slice(0, hostEnd);
  const label = mainLabel(host.slice(host.lastIndexOf('@') + 1));
  const lists = hostEnd < 0 ? [] : listWords(afterScheme.slice(hostEnd));
  return ` ${['__url__', label, ...lists].filter((w) => w !== '').join(' ')} `;
}

function listWords(rest: string): string[] {
  const words = rest.toLowerCase().split(/[^a-z]+/);
  return [...new Set(words.filter((w) => LIST_URL_WORDS.has(w)))];
}

function mainLabel(host: string): string {
  const labels = host.split('.').filter((l) => l.length > 0);
  const n = labels.length;
  if (n === 0 || /^\d+$/.test(labels[n - 1]!)) return '';
  if (n === 1) return labels[0]!;
  const twoLevelSuffix = n >= 3 && labels[n - 1]!.length === 2 && SECOND_LEVEL.has(labels[n - 2]!);
  return labels[twoLevelSuffix ? n - 3 : n - 2]!;
}

// The IPv6 pattern also matches clock times like 10:22:33 (no hex letter,
// fewer than 3 colons); those are left to the id rule.
function ipv6Token(m: string): string {
  const colons = m.split(':').length - 1;
  return colons >= 3 || m.includes('::') ? ' __ip__ ' : m;
}

function digitPart(raw: string): string {
  if (raw.length < 6 || !HAS_DIGIT_RE.test(raw)) return raw;
  const part = trimPunctuation(raw);
  if (part.startsWith('__') || part.length < 6) return raw;
  if (HOSTNAME_RE.test(part)) {
    return part
      .split('.')
      .map((l) => (isIdSegment(l) ? UUID : l))
      .join(' ');
  }
  return part.split(SEGMENT_SPLIT_RE).some(isIdSegment) ? ` ${UUID} ` : raw;
}

function isIdSegment(seg: string): boolean {
  return isIdRange(seg, 0, seg.length);
}

function isIdRange(s: string, from: number, to: number): boolean {
  if (to - from < 6) return false;
  let digits = 0;
  let letters = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c >= 97 && c <= 122) letters++;
    else return false;
  }
  return digits > 0 && (letters > 0 || digits >= 6);
}

function trimPunctuation(t: string): string {
  let a = 0;
  let b = t.length;
  while (a < b && CHAR_CLASS[t.charCodeAt(a)] !== WORD) a++;
  while (b > a && CHAR_CLASS[t.charCodeAt(b - 1)] !== WORD) b--;
  return t.slice(a, b);
}
