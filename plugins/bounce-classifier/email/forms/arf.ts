import { fieldGroups } from '../dsn.ts';
import { ADDRESS, ownAddresses, unfold } from '../reply.ts';
import type { Email, Feedback, FeedbackRecipient } from '../types.ts';

/** The fields of a block up to its first blank line (a report's fields, a message's header): see `fieldGroups` */
function fields(block: string): Map<string, string[]> {
  const end = block.search(/^[ \t]*\r?$/m);
  return fieldGroups(end < 0 ? block : block.slice(0, end))[0] ?? new Map();
}

/** A receiver's placeholder for an address it withholds (`redacted@`, `xxxxx@`, `****@`) */
const REDACTED = /^(?:redacted|removed|anonymi[sz]ed|hidden|x+|\*+)@/i;

/** The addresses a header value names, less redaction placeholders */
export function addresses(values: readonly string[]): string[] {
  return values
    .flatMap((value) => [...unfold(value).matchAll(new RegExp(ADDRESS.source, 'gi'))].map((m) => m[1]!))
    .filter((a) => !REDACTED.test(a));
}

/**
 * The header fields of the message a report carries (a complaint's reported message, a reject's returned one): its
 * `message/rfc822` or `text/rfc822-headers` part, of which the scan keeps the header block; empty without one
 */
export function reportedHeader(email: Email): Map<string, string[]> {
  const part = email.parts.find((p) => p.type === 'message/rfc822' || p.type === 'text/rfc822-headers');
  return part ? fields(part.content) : new Map();
}

/**
 * The one address the returned message went to (its `To`, the notice's own addresses left out), which names the
 * recipient of a report whose parts name none; undefined when it went to none or to several
 */
export function returnedTo(email: Email): string | undefined {
  const own = ownAddresses(email);
  const to = addresses(reportedHeader(email).get('to') ?? []).filter((a) => !own.has(a.toLowerCase()));
  return to.length === 1 ? to[0] : undefined;
}

/**
 * An RFC 5965 feedback report's type and complained-about recipients: `Feedback-Type` and `Original-Rcpt-To` of the
 * `message/feedback-report` part, else the `To` of the reported message (its `message/rfc822` or
 * `text/rfc822-headers` part, of which the scan keeps the header block). Undefined without a feedback-report part.
 */
export function readArf(email: Email): Feedback | undefined {
  const report = email.parts.find((p) => p.type === 'message/feedback-report');
  if (!report) return undefined;
  const arf = fields(report.content);
  const type =
    arf
      .get('feedback-type')?.[0]
      ?.toLowerCase()
      .split(/[\s;(]/)[0] || 'abuse';
  const sources: Feedback['sources'] = { type: arf.has('feedback-type') ? 'arf:Feedback-Type' : 'inferred' };
  let recipients = addresses(arf.get('original-rcpt-to') ?? []);
  if (recipients.length > 0) sources.recipients = 'arf:Original-Rcpt-To';
  else {
    recipients = addresses(reportedHeader(email).get('to') ?? []);
    if (recipients.length > 0) sources.recipients = 'reported-message:To';
  }
  const unique = [...new Set(recipients)];
  // What the report says of the reported message holds for each of its recipients
  const extra: Partial<FeedbackRecipient> = {};
  const from: FeedbackRecipient['sources'] = { recipient: sources.recipients ?? '', type: sources.type };
  for (const [field, names] of ARF_FIELDS) {
    const name = names.find((n) => arf.get(n)?.[0]);
    if (!name) continue;
    const value = unfold(arf.get(name)![0]!);
    extra[field] = field === 'original_mail_from' ? (ADDRESS.exec(value)?.[1] ?? value.replace(/[<>]/g, '')) : value;
    from[field] = `arf:${ARF_NAMES[name]}`;
  }
  const reported = unique.map((recipient) => ({ recipient, type, ...extra, sources: from }));
  return { type, recipients: unique, sources, ...(reported.length > 0 && { reported }) };
}

/** The ARF fields (RFC 5965 section 3.2, and the older `Received-Date`) each reported recipient carries */
const ARF_FIELDS: ['original_mail_from' | 'source_ip' | 'arrival_date', string[]][] = [
  ['original_mail_from', ['original-mail-from']],
  ['source_ip', ['source-ip']],
  ['arrival_date', ['arrival-date', 'received-date']],
];
/** Field names as RFC 5965 spells them, for `sources` */
const ARF_NAMES: Record<string, string> = {
  'original-mail-from': 'Original-Mail-From',
  'source-ip': 'Source-IP',
  'arrival-date': 'Arrival-Date',
  'received-date': 'Received-Date',
};
