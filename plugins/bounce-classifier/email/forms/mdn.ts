import { bareAddress, paragraphs, unfold, untyped } from '../reply.ts';
import type { Email, ReportedRecipient } from '../types.ts';

/** Where RFC 5429's notice gives the reason (`The following reason was given:`, `... was automatically rejected:`) */
const REASON_LEAD = /(?:reason was given|automatically rejected)[^:\n]*:[ \t]*/i;

/**
 * A Sieve `reject` (RFC 5429): the recipient's server refused the message after accepting it, and says so with a
 * disposition notification (RFC 8098) whose disposition is `automatic-action/...; deleted`, under
 * `Auto-Submitted: auto-replied (rejected)`. A failed delivery, not an automatic reply, though it carries the header
 * replies do. Undefined for any other email, read receipts included.
 */
export function readRejection(email: Email): { recipients: ReportedRecipient[] } | undefined {
  const part = email.parts.find((p) => p.type === 'message/disposition-notification');
  if (!part && email.reportType !== 'disposition-notification') return undefined;
  const disposition = /^disposition[ \t]*:[ \t]*([^\r\n]*)/im.exec(part?.content ?? '')?.[1] ?? '';
  const deleted = /^\s*automatic-action\b/i.test(disposition) && /;\s*deleted\b/i.test(disposition);
  // Servers that leave the parts empty still set the header RFC 5429 asks for
  const rejected = /\(rejected\)/i.test(email.header('auto-submitted') ?? '');
  if (!deleted && !rejected) return undefined;
  const final = /^final-recipient[ \t]*:[ \t]*([^\r\n]+)/im.exec(part?.content ?? '')?.[1];
  const recipient = final ? bareAddress(untyped(final)) : '';
  if (recipient === '') return { recipients: [] };
  const reply = reasonIn(email.text);
  return {
    recipients: [
      {
        recipient,
        action: 'failed',
        ...(reply && { reply }),
        sources: {
          recipient: 'mdn:Final-Recipient',
          action: 'mdn:Disposition',
          ...(reply && { reply: 'text:rfc5429' }),
        },
      },
    ],
  };
}

/** The reason the notice gives: the rest of its paragraph after the lead, else the next paragraph, else the first */
function reasonIn(text: string): string | undefined {
  const parts = paragraphs(text);
  const at = parts.findIndex((p) => REASON_LEAD.test(p));
  if (at < 0) return parts[0] && unfold(parts[0]);
  const lead = REASON_LEAD.exec(parts[at]!)!;
  const rest = unfold(parts[at]!.slice(lead.index + lead[0].length));
  return rest !== '' ? rest : parts[at + 1] && unfold(parts[at + 1]!);
}
