/*
 * Cuts the remote SMTP server's reply out of the text a sending MTA reports
 * (Postfix, Exim, sendmail, qmail, Exchange, DSN fields, provider JSON, HTML).
 *
 * - Start. Wrappers introduce the reply with fixed words ("said:", "returned
 *   '", "smtp;", "<<<", InterScan's "Received >>>", Exim's "host h [ip]:"). These strong markers are
 *   trusted even when no code follows (Postfix "said: Mailbox full"); loose
 *   ones ("error:", "was:", "<x@y>:", " #") also occur in reply prose, so they
 *   count only when a reply code follows (a JSON "message" value may also
 *   start with a bare status, as Mailgun's does). The last marker wins since
 *   wrappers nest outside-in ("said:" in "said:", Exchange's "smtp; 550" in
 *   "returned '<...>'"). Without one, the first line starting with a code or
 *   status is the reply; without that the text is the sending MTA's own words
 *   ("connect to ...: Connection timed out") and keeps no code.
 * - End. A reply is one line plus "550-" continuation lines (RFC 5321), and
 *   wrappers fold long lines by indenting them. So indented lines and
 *   continuations of the same code carry on; a blank line, a ">>>"/"<<<"
 *   transcript line or a client's command in a bare transcript (`QUIT`), a new
 *   reply line (sendmail repeats the reply unprefixed), a "Label:" line
 *   indented no deeper than the reply's own line (DSN fields, an indented
 *   field list) or qmail's "Giving up on" end it.
 * - Continuations joined by spaces are found by the same code and a dash; the
 *   closing "550 " only goes after such a dash, so "more than 550 recipients"
 *   in a one-line reply stays.
 * - A code is [2-5]\d\d followed by a space, dash or end, so IPs, dates and
 *   host names never pass; a status x.y.z (x in 2/4/5, y and z up to 3 digits)
 *   must not run on into ".digit", which would make it an IPv4 address.
 * - Tail. A quote left open before the reply on its line closes it (Exchange,
 *   JSON); an unbalanced ">", ")" or "]", Postfix's "(in reply to ...
 *   command)", Exchange's "(delivery attempts: N)", "#SMTP#" and "##..." are
 *   wrapper. qmail's "(#5.1.1)", "[SMTP Error Code 550]" and Mailgun's JSON
 *   "code": 550 fill in a missing status or code: the sender copies them from
 *   the remote reply, so they are as reliable as the reply itself.
 * - HTML is decoded only when known tags or entities are present, and only
 *   known tag names are removed, so "<a@b.example>" stays.
 * - Cost: every regex is built once; markers start with the punctuation that
 *   ends them, so the one scan over the text only stops at ":;<>'\"#-".
 */

/** The remote server's reply, cut out of its wrapper: reply code, enhanced status code and text, each once. */
export interface Reply {
  /** Three-digit SMTP reply code ("550"), or "" when the reply carries none */
  readonly code: string;
  /** RFC 3463 enhanced status code ("5.1.1"), or "" when none */
  readonly status: string;
  /** The reply text without the leading code/status and without repeated continuation prefixes, whitespace collapsed to single spaces */
  readonly text: string;
}

const MAX_CHARS = 4096;

// Words before a code whose reply follows in quotes, the code's dash and quote aside; group 1 is the code
const QUOTED_REPLY = String.raw`(?:\berror|(?:^|\s)[245]\.\d{1,3}\.\d{1,3} - [^'"\n]{1,80}) ([2-5]\d\d)-`;

// A reply code (or for JSON values, a status too) ahead, for the markers that
// only count when one follows.
const CODE_AHEAD = String.raw`(?=[\s'"<([]*#?[2-5]\d\d(?:[\s-]|$))`;
const HEAD_AHEAD = String.raw`(?=[\s'"<([]*#?(?:[2-5]\d\d(?:[\s-]|$)|[245]\.\d))`;
const STRONG_MARKERS = [
  String.raw`:(?<=\b(?:said|replied|responded|returned(?: was)?|reason(?: for the problem)?|refused to talk to me|diagnostic-code|host [^\s[\]]{1,255} ?\[[^\]\s]{1,64}\]):)`,
  String.raw`;(?<=\b(?:smtp|x-[\w.-]{1,40});)`,
  String.raw`<<<`,
  // Trend Micro InterScan's transcript: `Sent <<< RCPT TO:<x>`, then `Received >>> 550 ...` (arrows the other way)
  String.raw`>>>(?<=\breceived[ \t]{0,3}>>>)`,
  String.raw`['"](?<=\breturned\s*['"])`,
];
const WEAK_MARKERS = [
  // "Error:", "recv:", Gmail's "was:", Exim's "after RCPT TO:<x@y>:", "after end of data:" ...
  String.raw`:(?<=(?:\b(?:error|response|recv|was|data|connection|size=\d{1,12})|>):)${CODE_AHEAD}`,
  String.raw`:(?<="(?:message|description|response|reason|error|diagnostic[\w-]*|smtp[\w-]*)"\s*:)${HEAD_AHEAD}`,
  // Outlook's "x@y.example #550 5.1.1 ... ##". The enhanced status is required: a reply may end in a reference such as
  // smtpf's "#208 <session id>", which is not a reply code
  String.raw`#(?<=(?:^|\s)#)(?=[2-5]\d\d[\s-]+#?[245]\.\d)`,
  // A code the quote cuts off (group 2 keeps it): MDaemon's "error 550-'5.1.1 ...'", IronPort's
  // "5.3.0 - Other mail system problem 550-'...' (delivery attempts: 0)"
  String.raw`-(?<=${QUOTED_REPLY})(?=['"])`,
  // MDaemon's session transcript: "Thu 2007-11-15 17:14:44: <-- 550 ...", the server's line after its arrow
  String.raw`-(?<=(?:^|\s)<--)${CODE_AHEAD}`,
];
// Group 1 is set for strong markers.
const MARKER_RE = new RegExp(`(${STRONG_MARKERS.join('|')})|${WEAK_MARKERS.join('|')}`, 'gi');
// chasquid names the stage that failed before the reply (`MAIL+RCPT 550 ...`, `DATA 554 ...`): a wrapper's words
const STAGE = String.raw`(?:(?:MAIL|RCPT|DATA)(?:\+(?:MAIL|RCPT|DATA))*[ \t]+(?=[2-5]\d\d[\s-]))?`;
// Groups: 1 code, 2 dash (continuation follows), 3 or 4 status. A quote after
// "550-" opens a quoted reply (MDaemon's "550-'5.1.1 ...'"), not a continuation.
const HEAD = String.raw`[\s'"<([]*${STAGE}#?(?:([2-5]\d\d)(?:-['"]|(-)\s*|\s+|$)(?:#?([245]\.\d{1,3}\.\d{1,3})(?!\.?\d)[ \t]*)?|([245]\.\d{1,3}\.\d{1,3})(?!\.?\d)[ \t]*)`;
const HEAD_RE = new RegExp(HEAD, 'y');
// After a code the quote cuts off, a reply whose text has no code or status of its own (IronPort's `550-'SPF check
// failed ...'`): its groups line up with HEAD's, the code's and the dash's empty
const QUOTED_HEAD_RE = /['"]\s*()()(?:#?([245]\.\d{1,3}\.\d{1,3})(?!\.?\d)[ \t]*)?/y;
const LINE_HEAD_RE = new RegExp(String.raw`^[ \t]*${HEAD}`, 'gm');
// Groups: 1 indent, 2 blank line, 3 transcript or qmail note, 4 code, 5 dash, 6 status, 7 label. A transcript without
// `>>>` markers gives the client's next command as a bare line (`QUIT`, `RCPT To:<x>`): it is no part of the reply.
const NEXT_LINE_RE = new RegExp(
  String.raw`([ \t\r]*)(?:(\n|$)|` +
    String.raw`(<<<|>>>|(?:[^\n]{0,40}?[\s:])?(?:-->|<--)[ \t]|giving up on |i'm not going to try again|` +
    String.raw`(?:quit|rset|noop|data)[ \t\r]*(?=\n|$)|(?:mail from|rcpt to):<|(?:helo|ehlo) [^\s]+[ \t\r]*(?=\n|$))|` +
    String.raw`#?([2-5]\d\d)(?:(-)|\s|$)|([245]\.\d{1,3}\.\d{1,3}\s)|([a-z][\w-]*(?: [\w-]+){0,3}:(?:\s|$)))?`,
  'iy',
);
// Wrapper words that some MTAs write without their colon, before a code: asked only when nothing else introduces a reply
const SAID_WORDS = String.raw`\b(?:said|replied|responded)`;
const SAID_RE = new RegExp(String.raw`${SAID_WORDS}[ \t]+(?=#?[2-5]\d\d[\s-])`, 'i');
const IN_REPLY_TO = 'in reply to ';
// Groups: 1 code, 2 dash, 3 status.
const CONTINUATION_RE = / ([2-5]\d\d)(?:(-)|(?= ))(?: ?#?([245]\.\d{1,3}\.\d{1,3})(?!\.?\d))?/g;
// Sending-MTA notes after the reply, tried at the text's last "(" or "[".
// Groups: 1 code hint, 2 status hint.
const TAIL_NOTE_RE = new RegExp(
  String.raw`[[(](?:${IN_REPLY_TO}[^()]*|delivery attempts: \d+|smtp error code:? ([2-5]\d\d)|#([245]\.\d{1,3}\.\d{1,3}))[\])]$`,
  'iy',
);
const JSON_CODE_RE = /"code"\s*:\s*"?([2-5]\d\d)\b/;
// Runs of whitespace other than a lone space: replace() then copies nothing
// for the usual one-line reply.
const SPACE_RE = /[\t-\r\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]\s*| \s+/g;

const BLOCK_TAGS =
  'br|p|div|pre|table|thead|tbody|tr|td|th|ul|ol|li|hr|h[1-6]|blockquote|center|html|head|body|title|meta|img';
const INLINE_TAGS = 'span|font|b|i|u|em|strong|a|tt|small|big|code';
const tagRe = (names: string) => String.raw`<\/?(?:${names})(?=[\s/>])`;
const HTML_TEST_RE = new RegExp(`${tagRe(`${BLOCK_TAGS}|${INLINE_TAGS}`)}|&#?\\w+;`, 'i');
const INLINE_TAG_RE = new RegExp(`${tagRe(INLINE_TAGS)}[^<>]*>`, 'gi');
// A run of block tags is one line break: "</div><div>" and "<br>\n" must not
// read as the blank line that ends a reply.
const BLOCK_TAGS_RE = new RegExp(String.raw`(?:${tagRe(BLOCK_TAGS)}[^<>]*>\s*)+`, 'gi');
const ENTITY_RE = /&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(lt|gt|amp|quot|apos|nbsp));/gi;
const NAMED_ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ' };
const WORD_CHAR_RE = /^[\p{L}\p{N}]$/u;

/** The innermost remote reply in `raw`, split into code, status and text. Never throws. */
export function parseReply(raw: string): Reply {
  const { code, status, text } = readReply(raw);
  return { code, status, text };
}

/**
 * `parseReply`, and whether `raw` holds a reply at all (`found`: a wrapper's marker or a line starting with a code
 * or status); without one, `text` is the whole text, less the sending MTA's tail notes. `note` is the code note cut
 * off the reply's end (qmail's `(#5.1.1)`, `[SMTP Error Code 550]`), "" when none. `asSent` keeps a multi-line
 * reply's continuation prefixes (`550-5.1.1 ... 550-5.1.1 ... 550 5.1.1 ...`) in `text`, as the server sent them,
 * and `dash` says the first line had one. Never throws.
 */
export function readReply(
  raw: string,
  options: { asSent?: boolean } = {},
): Reply & { found: boolean; note: string; dash: boolean } {
  let s = typeof raw === 'string' ? raw : '';
  if (s.length > MAX_CHARS) s = s.slice(0, MAX_CHARS);
  if (HTML_TEST_RE.test(s)) s = s.replace(INLINE_TAG_RE, '').replace(BLOCK_TAGS_RE, '\n').replace(ENTITY_RE, entity);

  const head = findHead(s);
  let { code, status } = head;
  let text = head.start < 0 ? s : cutReply(s, head);
  text = text.replace(SPACE_RE, ' ');
  // Before trim(), so a continuation after an empty first line keeps the space it needs.
  if (code && !options.asSent && (head.dash || text.includes(code + '-')))
    text = dropContinuations(text, code, head.dash);
  text = text.trim();
  const hashes = text.indexOf('##');
  if (hashes >= 0) text = text.slice(0, hashes).trimEnd();
  // Real tails stack up to four notes ("...' (delivery attempts: 0)> #SMTP#");
  // the cap keeps hostile tails such as ">)>)>)..." linear.
  let codeNote = '';
  for (let pass = 0; pass < 8; pass++) {
    const last = text[text.length - 1];
    const open = last === ')' ? text.lastIndexOf('(') : last === ']' ? text.lastIndexOf('[') : -1;
    TAIL_NOTE_RE.lastIndex = open;
    const note = open >= 0 ? TAIL_NOTE_RE.exec(text) : null;
    let cut = note ? note.index : text.endsWith('#SMTP#') ? text.length - 6 : -1;
    if (cut < 0 && (last === '>' || last === ')' || last === ']')) cut = unmatchedCloseStart(text, last);
    if (cut < 0 || cut === text.length) break;
    code ||= note?.[1] ?? '';
    status ||= note?.[2] ?? '';
    if (note && (note[1] || note[2])) codeNote ||= note[0];
    text = text.slice(0, cut).trimEnd();
  }
  if (code) {
    // sendmail reports the reply a second time, unprefixed.
    const again = ` ${code} ${status ? status + ' ' : ''}`;
    const i = text.indexOf(again);
    if (i > 0 && text.slice(i + again.length) === text.slice(0, i)) text = text.slice(0, i);
  } else if (s.includes('"code"')) {
    code = JSON_CODE_RE.exec(s)?.[1] ?? '';
  }
  return { code, status, text, found: head.start >= 0, note: codeNote, dash: head.dash };
}

interface Head {
  code: string;
  status: string;
  /** A "550-" first line: continuation lines follow. */
  dash: boolean;
  /** Where the reply text starts, or -1 when there is no reply. */
  start: number;
}

function findHead(s: string): Head {
  let head: RegExpExecArray | null = null;
  let quotedCode = '';
  let start = -1;
  let strongEnd = -1;
  MARKER_RE.lastIndex = 0;
  for (let m; (m = MARKER_RE.exec(s));) {
    HEAD_RE.lastIndex = MARKER_RE.lastIndex;
    const h = HEAD_RE.exec(s) ?? (m[2] === undefined ? null : quotedHead(s, MARKER_RE.lastIndex));
    if (h) {
      head = h;
      quotedCode = m[2] ?? '';
      start = h[0].length + h.index;
    } else if (m[1] !== undefined) {
      strongEnd = MARKER_RE.lastIndex;
    }
  }
  if (!head) {
    LINE_HEAD_RE.lastIndex = 0;
    head = LINE_HEAD_RE.exec(s);
    start = head ? LINE_HEAD_RE.lastIndex : strongEnd;
  }
  // Last, a wrapper's words without a colon before a code (NetEase's "RCPT TO said 550 No such user here")
  if (!head && strongEnd < 0) {
    const said = SAID_RE.exec(s);
    if (said) {
      HEAD_RE.lastIndex = said.index + said[0].length;
      head = HEAD_RE.exec(s);
      start = head ? HEAD_RE.lastIndex : -1;
    }
  }
  return {
    code: quotedCode || (head?.[1] ?? ''),
    status: head?.[3] ?? head?.[4] ?? '',
    dash: head?.[2] === '-',
    start,
  };
}

function quotedHead(s: string, at: number): RegExpExecArray | null {
  QUOTED_HEAD_RE.lastIndex = at;
  return QUOTED_HEAD_RE.exec(s);
}

function cutReply(s: string, { code, dash, start }: Head): string {
  let end = s.length;
  const lineStart = s.lastIndexOf('\n', start - 1) + 1;
  // A fold is indented deeper than the line it continues: a status or label line at the reply line's own indent is
  // the next field of an indented list (Sun's `  Diagnostic code: ...` then `  Remote system: ...`)
  const indent = /^[ \t\r]*/.exec(s.slice(lineStart, start))![0].length;
  for (let nl = s.indexOf('\n', start); nl >= 0 && end === s.length; nl = s.indexOf('\n', nl + 1)) {
    NEXT_LINE_RE.lastIndex = nl + 1;
    const m = NEXT_LINE_RE.exec(s)!;
    if (m[4] && dash && m[4] === code) dash = m[5] === '-';
    else if (m[2] !== undefined || m[3] || m[4] || ((m[6] || m[7]) && m[1]!.length <= indent)) end = nl;
  }
  const text = s.slice(start, end);
  if (s.lastIndexOf("'", start - 1) < lineStart && s.lastIndexOf('"', start - 1) < lineStart) return text;
  const quote = openQuote(s, lineStart, start);
  return quote ? text.slice(0, closingQuote(text, quote)) : text;
}

function dropContinuations(text: string, code: string, dash: boolean): string {
  let out = '';
  let from = 0;
  CONTINUATION_RE.lastIndex = 0;
  for (let m; (m = CONTINUATION_RE.exec(text));) {
    if (m[1] !== code || !(m[2] || dash)) continue;
    out += text.slice(from, m.index) + (text[CONTINUATION_RE.lastIndex] === ' ' ? '' : ' ');
    from = CONTINUATION_RE.lastIndex;
    dash = m[2] === '-';
  }
  return out + text.slice(from);
}

// The quote (" or ') left open on the reply's line before it starts, if any.
function openQuote(s: string, from: number, to: number): string {
  let double = false;
  let single = false;
  let last = '';
  for (let i = from; i < to; i++) {
    const c = s[i];
    if (c === '"' && s[i - 1] !== '\\') double = !double;
    else if (c === "'" && !inWord(s, i)) single = !single;
    else continue;
    if (c === '"' ? double : single) last = c;
  }
  return double && single ? last : double ? '"' : single ? "'" : '';
}

function closingQuote(text: string, quote: string): number {
  for (let i = text.indexOf(quote); i >= 0; i = text.indexOf(quote, i + 1)) {
    if (quote === '"' ? text[i - 1] !== '\\' : !inWord(text, i)) return i;
  }
  return text.length;
}

// An apostrophe between two word chars (don't, recipient's) is no quote.
function inWord(s: string, i: number): boolean {
  return WORD_CHAR_RE.test(s[i - 1] ?? '') && WORD_CHAR_RE.test(s[i + 1] ?? '');
}

// Where the closing brackets at the end that no opening one matches begin.
function unmatchedCloseStart(text: string, close: string): number {
  const open = close === '>' ? '<' : close === ')' ? '(' : '[';
  let surplus = 0;
  for (let i = text.indexOf(close); i >= 0; i = text.indexOf(close, i + 1)) surplus++;
  for (let i = text.indexOf(open); i >= 0; i = text.indexOf(open, i + 1)) surplus--;
  let i = text.length;
  while (surplus-- > 0 && text[i - 1] === close) i--;
  return i;
}

function entity(_entity: string, dec?: string, hex?: string, name?: string): string {
  if (name) return NAMED_ENTITIES[name.toLowerCase()]!;
  const cp = dec ? Number(dec) : parseInt(hex!, 16);
  return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
}
