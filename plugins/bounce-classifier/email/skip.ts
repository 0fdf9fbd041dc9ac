/**
 * Leaves out the top-level parts that cannot hold a report (the returned original message, images, other
 * attachments) and the copy a single-part notice quotes before the MIME library decodes them, and keeps at most
 * `MAX_KEPT_BYTES` and `MAX_KEPT_LINES` of parts: a bounce with a
 * 20 MB attachment costs a native byte search, not a decode of 20 MB, and memory stays bounded by the input.
 */

/** Most bytes of part bodies kept: a delivery status of 1,000 recipients takes about 300 KB */
export const MAX_KEPT_BYTES = 1024 * 1024;

/**
 * Most lines of part bodies kept: the MIME library pays about 5 µs a line whatever its length, so lines, not bytes,
 * bound its time (a delivery status of 1,000 recipients takes about 8,000)
 */
export const MAX_KEPT_LINES = 12_000;

/** Where `from` plus at most `lines` lines ends, within `to`; and the lines counted */
function afterLines(raw: Buffer, from: number, to: number, lines: number): { end: number; counted: number } {
  let at = from;
  let counted = 0;
  while (counted < lines) {
    const next = raw.indexOf(0x0a, at);
    if (next < 0 || next >= to) return { end: to, counted };
    at = next + 1;
    counted++;
  }
  return { end: at, counted };
}

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

/** Where the quoted copy of the returned message starts in a single-part notice, else its end, within the limits */
function reportEnd(raw: Buffer, start: number): number {
  let end = afterLines(raw, start, Math.min(raw.length, start + MAX_KEPT_BYTES), MAX_KEPT_LINES).end;
  for (const marker of COPY_MARKERS) {
    const at = raw.indexOf(marker, start);
    if (at >= 0 && at < end) end = at;
  }
  return end;
}

/** Header bytes of a part read for its type: more is no header a part needs */
const MAX_HEADER_BYTES = 64 * 1024;

const KEEP = /^(?:text\/(?!rfc822-headers)|multipart\/|message\/(?:global-)?(?:delivery-status|feedback-report|disposition-notification)|application\/json)/;
const CONTENT_TYPE = /^content-type:[ \t]*([^\r\n]*(?:\r?\n[ \t][^\r\n]*)*)/im;
const BOUNDARY = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i;
const DISPOSITION_ATTACHMENT = /^content-disposition:[ \t]*attachment/im;

/** Index where the body after the header block starting at `from` begins; -1 when the block has no end */
export function bodyStart(raw: Buffer, from: number): number {
  if (raw[from] === 0x0a) return from + 1;
  if (raw[from] === 0x0d && raw[from + 1] === 0x0a) return from + 2;
  const lf = raw.indexOf('\n\n', from, 'latin1');
  const crlf = raw.indexOf('\r\n\r\n', from, 'latin1');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return crlf + 4;
  return lf < 0 ? -1 : lf + 2;
}

/** The top-level part's media type and boundary, from its header block */
function typeOf(headers: string): { type: string; boundary?: string } {
  const value = CONTENT_TYPE.exec(headers)?.[1]?.replace(/\r?\n[ \t]/g, ' ') ?? 'text/plain';
  const match = BOUNDARY.exec(value);
  return { type: value.split(';')[0]!.trim().toLowerCase(), boundary: match?.[1] ?? match?.[2] };
}

/** The message without the top-level parts no report needs; the message itself (cut at the limit) when it is not multipart */
export function skipUnneededBodies(raw: Buffer): Buffer {
  const start = bodyStart(raw, 0);
  if (start < 0) return raw.length > MAX_KEPT_BYTES ? raw.subarray(0, MAX_KEPT_BYTES) : raw;
  const { type, boundary } = typeOf(raw.toString('latin1', 0, start));
  if (!type.startsWith('multipart/') || !boundary) return raw.subarray(0, reportEnd(raw, start));
  const delimiter = Buffer.from(`\n--${boundary}`, 'latin1');
  const pieces: Buffer[] = [];
  let kept = 0;
  let keptLines = 0;
  let at = raw.indexOf(delimiter, start - 1);
  if (at < 0) return raw.subarray(0, Math.min(raw.length, start + MAX_KEPT_BYTES));
  pieces.push(raw.subarray(0, at));
  while (at >= 0) {
    const lineEnd = raw.indexOf(0x0a, at + 1);
    if (lineEnd < 0) {
      pieces.push(raw.subarray(at));
      break;
    }
    // The closing delimiter: what follows it (the epilogue) is no part
    if (raw[at + delimiter.length] === 0x2d && raw[at + delimiter.length + 1] === 0x2d) {
      pieces.push(raw.subarray(at, lineEnd + 1));
      break;
    }
    const next = raw.indexOf(delimiter, lineEnd);
    const end = next < 0 ? raw.length : next;
    const partBody = bodyStart(raw, lineEnd + 1);
    const headerEnd = partBody < 0 || partBody > end ? end : partBody;
    const headers = raw.toString('latin1', lineEnd + 1, Math.min(headerEnd, lineEnd + 1 + MAX_HEADER_BYTES));
    const partType = typeOf(headers).type;
    // A text file attached to a bounce is not its report; a delivery-status part counts whatever its disposition.
    // A part not kept is left out whole: each part costs the MIME library a decoder, even an empty one
    const keep = KEEP.test(partType) && !(partType.startsWith('text/') && DISPOSITION_ATTACHMENT.test(headers)) && kept < MAX_KEPT_BYTES && keptLines < MAX_KEPT_LINES;
    if (keep) {
      const { end: cut, counted } = afterLines(raw, at + 1, Math.min(end, headerEnd + MAX_KEPT_BYTES - kept), MAX_KEPT_LINES - keptLines);
      pieces.push(raw.subarray(at, cut));
      kept += Math.max(0, cut - headerEnd);
      keptLines += counted;
    }
    at = next;
  }
  return Buffer.concat(pieces);
}
