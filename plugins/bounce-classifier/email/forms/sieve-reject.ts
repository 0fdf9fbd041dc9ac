import { bareAddress, paragraphs, unfold, untyped } from '../reply.ts';
import type { Email, ReportedRecipient } from '../types.ts';
import { returnedTo } from './arf.ts';

const MDN = 'message/disposition-notification';
/** The MDN's disposition of a message an automatic action deleted unread (RFC 8098): what a Sieve `reject` sends */
const DELETED = /^disposition\s*:\s*automatic-action\/[\w-]+\s*;\s*deleted\b/im;
const FINAL_RECIPIENT = /^final-recipient\s*:\s*(.+)$/im;
/** The text naming the recipient: `Your message to <x> was automatically rejected` */
const REJECTED_TO = /\bto\s+<?([^\s<>@]{1,64}@[^\s<>@]{1,255}?)>?\s+was\s+(?:automatically\s+)?rejected\b/i;
/** The reason after `...rejected:` or `The following reason was given:`, on its line or the next */
const REASON = /(?:\brejected\b[^:\n]{0,120}|\breason was given):[ \t]*\n?([^]*)/i;

/**
 * A Sieve `reject` (RFC 5429 section 2.1): the rejecting server answers with an MDN (`multipart/report;
 * report-type=disposition-notification`) whose disposition is `deleted` by an automatic action, marked
 * `Auto-Submitted: auto-replied (rejected)`. A failed delivery, not an automatic reply: the recipient is the MDN's
 * `Final-Recipient`, else the address the text names, else the returned message's one `To` address, and the reply the
 * reason the text gives. Undefined for any other email.
 */
export function readSieveReject(email: Email): ReportedRecipient[] | undefined {
  const part = email.parts.find((p) => p.type === MDN);
  if (!part && email.reportType !== 'disposition-notification') return undefined;
  const mdn = part?.content ?? '';
  const deleted = DELETED.test(mdn);
  if (!deleted && !/\(rejected\)/i.test(email.header('auto-submitted') ?? '')) return undefined;
  const final = FINAL_RECIPIENT.exec(mdn)?.[1];
  const said = final ? undefined : REJECTED_TO.exec(email.text)?.[1];
  // A reject whose parts say nothing names its recipient only in the returned message, when that went to one address
  const returned = final || said ? undefined : returnedTo(email);
  const named = final ? bareAddress(untyped(final)) : (said ?? returned);
  if (!named) return [];
  const reason = REASON.exec(email.text)?.[1];
  const reply = reason === undefined ? '' : unfold(paragraphs(reason)[0] ?? '');
  return [
    {
      recipient: named,
      action: 'failed',
      ...(reply !== '' && { reply }),
      sources: {
        recipient: final ? 'mdn:Final-Recipient' : said ? 'text:rfc5429' : 'returned-message:To',
        action: deleted ? 'mdn:Disposition' : 'header:Auto-Submitted',
        ...(reply !== '' && { reply: 'text:rfc5429' }),
      },
    },
  ];
}
