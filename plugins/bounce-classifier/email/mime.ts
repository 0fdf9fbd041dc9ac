import PostalMime from 'postal-mime';
import type { Email as ParsedEmail } from 'postal-mime';
import { httpError } from '../../../runtime/mod.ts';
import { htmlToText } from './html-text.ts';
import { bodyStart, skipUnneededBodies } from './skip.ts';
import type { Email } from './types.ts';

/** A header line's start: a field name and a colon (RFC 5322), or an mbox `From ` line */
const FIRST_LINE = /^(?:From |[!-9;-~]+[ \t]*:)/;

/**
 * Reads an email with the MIME library (encodings, charsets, nesting) after cutting the bodies no report needs.
 * Not an email (no header line first, NUL bytes among the headers) is a 400; anything else gets a best effort.
 */
export async function readEmail(raw: Buffer): Promise<Email> {
  const firstLine = raw.toString('latin1', 0, Math.min(raw.length, 1000)).replace(/^\uFEFF|^\xEF\xBB\xBF/, '');
  if (!FIRST_LINE.test(firstLine)) throw httpError(400, 'Body is not an email: it does not start with a header line');
  const headerEnd = bodyStart(raw, 0);
  if (raw.subarray(0, headerEnd < 0 ? raw.length : headerEnd).includes(0)) throw httpError(400, 'Body is not an email: its headers hold NUL bytes');
  let parsed: ParsedEmail;
  try {
    parsed = await PostalMime.parse(skipUnneededBodies(raw), { attachmentEncoding: 'utf8', forceRfc822Attachments: true, maxNestingDepth: 32 });
  } catch (error) {
    throw httpError(400, `Cannot read email: ${(error as Error).message}`);
  }
  const byName = new Map<string, string[]>();
  for (const { key, value } of parsed.headers) {
    const values = byName.get(key);
    if (values) values.push(value);
    else byName.set(key, [value]);
  }
  const contentType = (byName.get('content-type')?.[0] ?? 'text/plain').toLowerCase();
  const from = parsed.from?.address ?? parsed.from?.group?.[0]?.address ?? '';
  const text = parsed.text?.trim() ? parsed.text : parsed.html ? htmlToText(parsed.html) : '';
  return {
    header: (name) => byName.get(name)?.[0],
    headers: (name) => byName.get(name) ?? [],
    subject: parsed.subject ?? '',
    from: from.toLowerCase(),
    mediaType: contentType.split(';')[0]!.trim(),
    reportType: /;\s*report-type\s*=\s*"?([\w-]+)/.exec(contentType)?.[1] ?? '',
    text,
    parts: parsed.attachments
      .filter((a) => typeof a.content === 'string' && !a.mimeType.startsWith('image/'))
      .map((a) => ({ type: a.mimeType, content: a.content as string })),
  };
}
