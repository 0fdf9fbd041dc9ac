import PostalMime from 'postal-mime';
import type { Email as ParsedEmail } from 'postal-mime';
import { errors } from '../errors.ts';
import { rejoinHardWraps } from './hard-wrap.ts';
import { htmlToText } from './html-text.ts';
import { MAX_DEPTH, MAX_HEADER_BYTES } from './limits.ts';
import { skipUnneededBodies } from './skip.ts';
import type { Kept } from './skip.ts';
import type { Email } from './types.ts';

/** A header line's start: a field name and a colon (RFC 5322), or an mbox `From ` line */
const FIRST_LINE = /^(?:From |[!-9;-~]+[ \t]*:)/;

/** Longest line and indent the readers see: SMTP allows 1,000-byte lines, and no form is told by a deeper indent */
const MAX_LINE = 4_000;
const MAX_INDENT = 16;

/**
 * The text as the readers match it: LF line ends, no trailing blanks, a run of blank lines as one, lines and indents
 * bounded, so that a pattern spanning whitespace stays linear on hostile input
 */
function tidy(text: string): string {
  const out: string[] = [];
  let blank = true;
  for (const raw of text.split(/\r?\n|\r/)) {
    let line = raw.trimEnd();
    if (line === '') {
      if (!blank) out.push('');
      blank = true;
      continue;
    }
    blank = false;
    const body = line.trimStart();
    if (line.length - body.length > MAX_INDENT) line = line.slice(0, MAX_INDENT) + body;
    out.push(line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line);
  }
  return out.join('\n');
}

/**
 * Checks that the body is an email (a header line first, no NUL bytes among the headers: else 400) and cuts what no
 * report needs (`skip.ts`: past a hard limit of `limits.ts`, 413). Linear in the body and cheap: run on the request
 * thread before anything else.
 */
export function scanEmail(raw: Buffer): Kept {
  const firstLine = raw.toString('latin1', 0, Math.min(raw.length, 1000)).replace(/^\uFEFF|^\xEF\xBB\xBF/, '');
  if (!FIRST_LINE.test(firstLine)) throw errors.BOUNCE_ERR_NOT_EMAIL_HEADER();
  const kept = skipUnneededBodies(raw);
  if (raw.subarray(0, kept.headerEnd).includes(0)) throw errors.BOUNCE_ERR_NOT_EMAIL_NUL();
  return kept;
}

/**
 * The body as sent, for an email the library found no part in (a multipart whose boundary is cut off or never
 * occurs): its text is still the notice
 */
function bodyOf(kept: Buffer): string {
  const end = /\r?\n\r?\n/.exec(kept.toString('latin1', 0, Math.min(kept.length, MAX_HEADER_BYTES)));
  return end ? kept.toString('utf8', end.index + end[0].length) : '';
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const LATIN = new TextDecoder('windows-1252');

/**
 * A kept part's text: UTF-8 (RFC 6533's global status parts, JSON), else the 8-bit Western text some servers write
 * into an RFC 3464 status part that should be ASCII (a German Domino's `Empfänger`), not replacement characters
 */
function decoded(bytes: ArrayBuffer): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    return LATIN.decode(bytes);
  }
}

/**
 * Reads what `scanEmail` kept with the MIME library (encodings, charsets, nesting): broken MIME gets a best effort,
 * what the library refuses a 400
 */
export async function readEmail(kept: Buffer): Promise<Email> {
  let parsed: ParsedEmail;
  try {
    // The scan enforced both limits already: the library's own are a second line
    parsed = await PostalMime.parse(kept, {
      attachmentEncoding: 'arraybuffer',
      forceRfc822Attachments: true,
      maxNestingDepth: MAX_DEPTH,
      maxHeadersSize: MAX_HEADER_BYTES,
    });
  } catch (error) {
    throw errors.BOUNCE_ERR_EMAIL_UNREADABLE((error as Error).message);
  }
  const byName = new Map<string, string[]>();
  for (const { key, value } of parsed.headers) {
    const values = byName.get(key);
    if (values) values.push(value);
    else byName.set(key, [value]);
  }
  const contentType = (byName.get('content-type')?.[0] ?? 'text/plain').toLowerCase();
  const from = parsed.from?.address ?? parsed.from?.group?.[0]?.address ?? '';
  const read = parsed.text?.trim() ? parsed.text : parsed.html ? htmlToText(parsed.html) : '';
  const text = tidy(rejoinHardWraps(read || (parsed.attachments.length === 0 ? bodyOf(kept) : '')));
  return {
    header: (name) => byName.get(name)?.[0],
    headers: (name) => byName.get(name) ?? [],
    subject: parsed.subject ?? '',
    from: from.toLowerCase(),
    mediaType: contentType.split(';')[0]!.trim(),
    reportType: /;\s*report-type\s*=\s*"?([\w-]+)/.exec(contentType)?.[1] ?? '',
    text,
    parts: parsed.attachments
      .filter((a) => typeof a.content !== 'string' && !a.mimeType.startsWith('image/'))
      .map((a) => ({ type: a.mimeType, content: decoded(a.content as ArrayBuffer) })),
  };
}
