/**
 * Leaves out, before the MIME library decodes anything, what cannot hold a report: the preamble and epilogue of every
 * multipart, the parts no report is in (the returned original message, images, other attachments), the copy a
 * single-part notice quotes, and what passes the kept bytes and lines (`limits.ts`). Multiparts inside a kept
 * multipart are read the same way. One pass: every search stops at the end of the part it is in, so the time is
 * linear in the email (times the nesting), a 20 MB attachment costs a native byte search rather than a decode, and
 * what the MIME library gets is bounded whatever the input. Past a hard limit of `limits.ts` it throws
 * `BOUNCE_ERR_EMAIL_LIMIT` (413).
 */
import { errors } from '../errors.ts';
import { DELIVERY_STATUS, namesRecipient } from './dsn.ts';
import { MAX_DEPTH, MAX_HEADER_BYTES, MAX_HEADER_LINES, MAX_KEPT_BYTES, MAX_KEPT_LINES, MAX_PARTS } from './limits.ts';

/**
 * Lines after which single-part notices (qmail, Yahoo, Exim, sendmail) quote the returned message: nothing after them
 * is the report
 */
const COPY_MARKERS = [
  '--- Below this line is a copy of the message',
  '------ This is a copy of the',
  '----- Original message follows -----',
  '----- Unsent message follows -----',
].map((marker) => Buffer.from(marker, 'latin1'));

const KEEP =
  /^(?:text\/(?!rfc822-headers)|multipart\/|message\/(?:global-)?(?:delivery-status|feedback-report|disposition-notification)|application\/json)/;
const CONTENT_TYPE = /^content-type:[ \t]*([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)/im;
const BOUNDARY = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i;
/** Bytes of a status part read to tell whether it names a recipient */
const STATUS_PREFIX = 4096;
/** The reported message of a feedback report, whole or its headers */
const REPORTED = /^(?:message\/rfc822|text\/rfc822-headers)$/;
const BLANK_LINE = Buffer.from('\n\n', 'latin1');
const BLANK_CRLF = Buffer.from('\n\r\n', 'latin1');
const DISPOSITION_ATTACHMENT = /^content-disposition:[ \t]*attachment/im;

/** A header block as the scan reads it */
interface Head {
  /** Where the body after it starts; -1 when no blank line ends the block within its part */
  body: number;
  /** Media type, lower case */
  type: string;
  boundary?: string;
  /** `Content-Disposition: attachment` */
  attachment: boolean;
}

/** What the scan keeps of an email */
export interface Kept {
  /** The email as the MIME library gets it */
  bytes: Buffer;
  /** Where the top-level header block ends (its blank line included); the email's length when nothing ends it */
  headerEnd: number;
  /** Header lines read and lines of parts kept: what the MIME library's time goes with */
  lines: number;
  /** MIME parts seen in the multiparts read */
  parts: number;
}

class Scan {
  readonly #raw: Buffer;
  readonly pieces: Buffer[] = [];
  #headerBytes = 0;
  headerLines = 0;
  #keptBytes = 0;
  parts = 0;
  keptLines = 0;
  /**
   * A feedback-report or disposition-notification part, or a status part naming no recipient, was kept: the reported
   * or returned message's headers after it are wanted (a complaint's recipient, a Sieve reject's or an empty
   * report's when its parts name none)
   */
  #reported = false;
  /** The email is a top-level `multipart/mixed`: an attached message may be a forwarded bounce */
  #mixed = false;

  /** Marks the email a top-level `multipart/mixed` */
  mixed(): void {
    this.#mixed = true;
  }

  constructor(raw: Buffer) {
    this.#raw = raw;
  }

  /** The header block starting at `from` within its part's end `to`, counted against the header limits */
  head(from: number, to: number): Head {
    const raw = this.#raw;
    let at = from;
    let body = -1;
    while (at < to) {
      if (raw[at] === 0x0a || (raw[at] === 0x0d && raw[at + 1] === 0x0a)) {
        // The blank line's own line end may be the one that starts the next delimiter: then the body is empty
        body = Math.min(to, at + (raw[at] === 0x0a ? 1 : 2));
        break;
      }
      const lineEnd = raw.indexOf(0x0a, at);
      const next = lineEnd < 0 || lineEnd >= to ? to : lineEnd + 1;
      this.#headerBytes += next - at;
      if (this.#headerBytes > MAX_HEADER_BYTES) throw errors.BOUNCE_ERR_EMAIL_LIMIT('header bytes', MAX_HEADER_BYTES);
      if (++this.headerLines > MAX_HEADER_LINES) throw errors.BOUNCE_ERR_EMAIL_LIMIT('header lines', MAX_HEADER_LINES);
      at = next;
    }
    const headers = raw.toString('latin1', from, body < 0 ? to : body);
    const value = CONTENT_TYPE.exec(headers)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? 'text/plain';
    const match = BOUNDARY.exec(value);
    return {
      body,
      type: value.split(';')[0]!.trim().toLowerCase(),
      boundary: match?.[1] ?? match?.[2],
      attachment: DISPOSITION_ATTACHMENT.test(headers),
    };
  }

  /** Keeps bytes `from` to `to` as they are (the top-level header) */
  push(from: number, to: number): void {
    this.pieces.push(this.#raw.subarray(from, to));
  }

  /** Keeps what the kept bytes and lines still allow of bytes `from` to `to`, whole lines while lines remain */
  keep(from: number, to: number): void {
    const raw = this.#raw;
    const limit = Math.min(to, from + MAX_KEPT_BYTES - this.#keptBytes);
    let at = from;
    while (at < limit && this.keptLines < MAX_KEPT_LINES) {
      const lineEnd = raw.indexOf(0x0a, at);
      at = lineEnd < 0 || lineEnd >= limit ? limit : lineEnd + 1;
      this.keptLines++;
    }
    if (at === from) return;
    this.pieces.push(raw.subarray(from, at));
    this.#keptBytes += at - from;
  }

  /** A single-part body: up to the copy of the returned message a notice quotes, within the kept bytes and lines */
  notice(from: number): void {
    const within = this.#raw.subarray(0, Math.min(this.#raw.length, from + MAX_KEPT_BYTES));
    let end = within.length;
    for (const marker of COPY_MARKERS) {
      const at = within.indexOf(marker, from);
      if (at >= 0 && at < end) end = at;
    }
    this.keep(from, end);
  }

  /**
   * The body (`from` to `to`) of a multipart at nesting `depth`: the parts a report may be in, each up to the next
   * delimiter; the preamble before the first delimiter and the epilogue after the closing one hold no part and are
   * left out. No delimiter at all: the body is read as text.
   */
  multipart(from: number, to: number, boundary: string, depth: number): void {
    if (depth > MAX_DEPTH) throw errors.BOUNCE_ERR_EMAIL_LIMIT('levels of nested multiparts', MAX_DEPTH);
    const raw = this.#raw;
    // Searches stop at the part's end: past it lies the enclosing multipart, searched by its own scan
    const within = raw.subarray(0, to);
    const delimiter = Buffer.from(`\n--${boundary}`, 'latin1');
    // Searched without its line end, then checked: a search starting with a line end matches at every line, which
    // makes 7 MB of blank lines cost 50 times a search starting with `--`
    const dashes = delimiter.subarray(1);
    const find = (start: number) => {
      for (let at = within.indexOf(dashes, start + 1); at >= 0; at = within.indexOf(dashes, at + 1)) {
        if (raw[at - 1] === 0x0a && this.#endsDelimiter(at + dashes.length, to)) return at - 1;
      }
      return -1;
    };
    let at = find(from - 1);
    if (at < 0) return this.keep(from, to);
    while (at >= 0) {
      const lineEnd = within.indexOf(0x0a, at + 1);
      if (lineEnd < 0) return this.keep(at, to);
      if (raw[at + delimiter.length] === 0x2d && raw[at + delimiter.length + 1] === 0x2d)
        return this.keep(at, lineEnd + 1);
      if (++this.parts > MAX_PARTS) throw errors.BOUNCE_ERR_EMAIL_LIMIT('MIME parts', MAX_PARTS);
      const next = find(lineEnd);
      const end = next < 0 ? to : next;
      const head = this.head(lineEnd + 1, end);
      // A text file attached to a bounce is not its report; a delivery-status part counts whatever its disposition.
      // A part not kept is left out whole: each part costs the MIME library a decoder, even an empty one
      const wanted =
        KEEP.test(head.type) &&
        !(head.type.startsWith('text/') && head.attachment) &&
        this.#keptBytes < MAX_KEPT_BYTES &&
        this.keptLines < MAX_KEPT_LINES;
      if (wanted && head.type.startsWith('multipart/') && head.boundary && head.body >= 0) {
        this.keep(at, head.body);
        this.multipart(head.body, end, head.boundary, depth + 1);
      } else if (wanted) {
        this.keep(at, end);
        if (head.type === 'message/feedback-report' || head.type === 'message/disposition-notification')
          this.#reported = true;
        // A status part that names no recipient leaves the returned message's header block to name one. Its first
        // recipient group follows the few per-message fields, so a bounded prefix tells, whatever the part's size
        else if (
          DELIVERY_STATUS.has(head.type) &&
          head.body >= 0 &&
          !namesRecipient(within.toString('latin1', head.body, Math.min(end, head.body + STATUS_PREFIX)))
        )
          this.#reported = true;
      } else if (head.type === 'message/rfc822' && depth === 1 && this.#mixed && this.#keptBytes < MAX_KEPT_BYTES) {
        // A message attached to a top-level `multipart/mixed` may be a bounce forwarded whole: kept, within limits
        this.keep(at, end);
      } else if (this.#reported && REPORTED.test(head.type) && head.body >= 0) {
        // A feedback report's reported message, a returned one: its header block names the recipient
        const blank = [within.indexOf(BLANK_LINE, head.body), within.indexOf(BLANK_CRLF, head.body)].filter(
          (i) => i >= 0,
        );
        const stop = blank.length === 0 ? end : Math.min(...blank) + 1;
        this.keep(at, Math.min(stop, end));
      }
      at = next;
    }
  }

  /** A delimiter line goes on after the boundary with `--` (the closing one), spaces or tabs, then its line end */
  #endsDelimiter(from: number, to: number): boolean {
    const raw = this.#raw;
    let at = from;
    if (raw[at] === 0x2d && raw[at + 1] === 0x2d) at += 2;
    while (at < to && (raw[at] === 0x20 || raw[at] === 0x09)) at++;
    return at >= to || raw[at] === 0x0a || (raw[at] === 0x0d && (at + 1 >= to || raw[at + 1] === 0x0a));
  }
}

/** The email without what no report needs, and where its top-level header ends; throws past a hard limit */
export function skipUnneededBodies(raw: Buffer): Kept {
  const scan = new Scan(raw);
  const head = scan.head(0, raw.length);
  if (head.body < 0) return { bytes: raw, headerEnd: raw.length, lines: scan.headerLines, parts: 0 };
  scan.push(0, head.body);
  if (head.type === 'multipart/mixed') scan.mixed();
  if (head.type.startsWith('multipart/') && head.boundary) scan.multipart(head.body, raw.length, head.boundary, 1);
  else scan.notice(head.body);
  return {
    bytes: Buffer.concat(scan.pieces),
    headerEnd: head.body,
    lines: scan.headerLines + scan.keptLines,
    parts: scan.parts,
  };
}
