import { CapstanError } from '../../../runtime/mod.ts';
import { DELIVERY_STATUS, namesRecipient, readDeliveryStatus } from './dsn.ts';
import { FAMILY_FORMS } from './families.ts';
import { readArf, returnedTo } from './forms/arf.ts';
import { isJmrpComplaint, readJmrp } from './forms/jmrp.ts';
import { isBareNotice, isNotice, notice, noticeReason } from './forms/notice.ts';
import { readSes } from './forms/ses.ts';
import { readSieveReject } from './forms/sieve-reject.ts';
import { BOUNCE_SUBJECT, text } from './forms/text.ts';
import { bareAddress, statusIn } from './reply.ts';
import {
  autoReplyFormat,
  isDmarcFailureText,
  isFeedbackReport,
  isLureNotice,
  isOtherReport,
  isVacationReply,
} from './kind.ts';
import { readEmail, scanEmail } from './mime.ts';
import type { BounceForm, BounceKind, BounceReport, Email, ReportedRecipient } from './types.ts';

/** Recipients answered and classified per email; the rest are counted in `omitted` */
export const MAX_RECIPIENTS = 1_000;

/**
 * Non-standard forms: the families' own forms (`families/*.json`, most specific first), then `text` (reply lines) and
 * `notice` (named addresses) as the fallbacks
 */
const FORMS: readonly BounceForm[] = [...FAMILY_FORMS, text, notice];

/** `failed` when any recipient failed, else `delayed` when any is delayed, else `delivered` */
function kindOf(recipients: readonly ReportedRecipient[], delayed = false): BounceKind {
  if (recipients.some((r) => r.action === 'failed')) return 'failed';
  if (delayed || recipients.some((r) => r.action === 'delayed')) return 'delayed';
  return recipients.length > 0 ? 'delivered' : 'failed';
}

/** Records where a recipient's field came from, unless the reader that set it did */
function source(
  recipient: ReportedRecipient,
  field: keyof NonNullable<ReportedRecipient['sources']>,
  from: string,
): void {
  recipient.sources ??= {};
  recipient.sources[field] ??= from;
}

/**
 * Replies a reader left out, from the prose: each of `forms` that knows the email, then the notice reader, by address
 * (or the prose's first reply when the report has one recipient); last, a recipient's `Status` comment (`notes`).
 * `forms` are those not yet read: a form that answered, or found no recipient, has no more to give.
 */
function fillReplies(
  email: Email,
  recipients: readonly ReportedRecipient[],
  forms: readonly BounceForm[],
  notes?: ReadonlyMap<ReportedRecipient, string>,
): void {
  const wanting = () => recipients.filter((r) => r.reply === undefined && r.action !== 'delivered');
  for (const form of forms) {
    if (wanting().length === 0) return;
    if (form !== notice && !form.detect(email)) continue;
    const prose = form.read(email).recipients.filter((p) => p.reply !== undefined);
    for (const recipient of wanting()) {
      const match =
        prose.find((p) => p.recipient.toLowerCase() === recipient.recipient.toLowerCase()) ??
        (recipients.length === 1 ? prose[0] : undefined);
      if (!match) continue;
      recipient.reply = match.reply;
      source(recipient, 'reply', match.sources?.reply ?? `text:${form.name}`);
    }
  }
  for (const recipient of wanting()) {
    const note = notes?.get(recipient);
    if (!note) continue;
    recipient.reply = note;
    source(recipient, 'reply', 'dsn:Status');
  }
}

const FAILED_HEADER = 'header:X-Failed-Recipients';

/**
 * The recipients an `X-Failed-Recipients` header names (Exim's own list of the addresses that failed), when it names
 * any: the text's other addresses did not fail (Exim's `A message sent by` block names the sender), and one the text
 * does not list failed all the same. In the text's order, then the header's.
 */
function asFailedHeaderNames(email: Email, read: ReportedRecipient[]): ReportedRecipient[] {
  const named = (email.header('x-failed-recipients') ?? '')
    .split(',')
    .map(bareAddress)
    .filter((address) => address.includes('@'));
  if (named.length === 0) return read;
  const failed = new Set(named.map((address) => address.toLowerCase()));
  const kept = read.filter((r) => failed.has(r.recipient.toLowerCase()));
  // What remains of the header's addresses once the text's are taken: each failed all the same
  for (const r of kept) failed.delete(r.recipient.toLowerCase());
  const added = named
    .filter((address) => failed.delete(address.toLowerCase()))
    .map((recipient) => ({
      recipient,
      action: 'failed',
      sources: { recipient: FAILED_HEADER, action: FAILED_HEADER },
    }));
  return [...kept, ...added];
}

/**
 * A delivery-status report whose status part names no one (left empty, or a bounce forwarded in a form of its own)
 * names its recipient only as the returned message's one `To` address: that address, failed; else undefined
 */
function emptyReportRecipient(email: Email): ReportedRecipient | undefined {
  if (email.reportType !== 'delivery-status' && !email.parts.some((p) => DELIVERY_STATUS.has(p.type))) return undefined;
  const recipient = returnedTo(email);
  if (!recipient) return undefined;
  return { recipient, action: 'failed', sources: { recipient: 'returned-message:To', action: 'inferred' } };
}

/** Reads the RFC 3464 / RFC 6533 report; replies the status part lacks come from the prose (`fillReplies`) */
function readReport(email: Email, content: string): BounceReport {
  const { recipients, omitted, notes } = readDeliveryStatus(content, MAX_RECIPIENTS);
  fillReplies(email, recipients, FORMS, notes);
  for (const recipient of recipients) {
    if (recipient.status) continue;
    const status = statusIn(recipient.reply ?? '');
    if (!status) continue;
    recipient.status = status;
    source(recipient, 'status', 'inferred');
  }
  return { kind: kindOf(recipients), format: 'rfc3464', recipients, omitted };
}

/** What one raw email is, and its recipients with their replies (unclassified): `scanEmail`, then `readBounce` */
export async function parseBounce(raw: Buffer): Promise<BounceReport> {
  return readBounce(scanEmail(raw).bytes);
}

/** What an email `scanEmail` kept is, and its recipients; a bounce forwarded whole as an attachment is read as one */
export async function readBounce(kept: Buffer): Promise<BounceReport> {
  const email = await readEmail(kept);
  const report = await readOne(email);
  if (report.recipients.length > 0 || report.kind === 'feedback' || report.kind === 'auto-reply') return report;
  for (const part of email.parts) {
    if (part.type !== 'message/rfc822') continue;
    // The attached message gets the same scan and limits; one that is no email or passes a limit is not a bounce
    const inner = await parseAttached(Buffer.from(part.content));
    if (inner && inner.recipients.length > 0) return inner;
  }
  return report;
}

/** An attached message read as an email of its own (not its attachments in turn), or undefined when it is none */
async function parseAttached(raw: Buffer): Promise<BounceReport | undefined> {
  try {
    return await readOne(await readEmail(scanEmail(raw).bytes));
  } catch (error) {
    if (error instanceof CapstanError) return undefined;
    throw error;
  }
}

/** A form's report: its first MAX_RECIPIENTS recipients, and a count of the rest */
function capped(kind: BounceKind, format: string, recipients: ReportedRecipient[]): BounceReport {
  return {
    kind,
    format,
    recipients: recipients.slice(0, MAX_RECIPIENTS),
    omitted: Math.max(0, recipients.length - MAX_RECIPIENTS),
  };
}

/** What one email is, and its recipients */
async function readOne(email: Email): Promise<BounceReport> {
  const ses = readSes(email, MAX_RECIPIENTS);
  if (ses)
    return {
      kind: ses.kind,
      format: 'amazon-ses',
      recipients: ses.recipients,
      omitted: ses.omitted,
      ...(ses.feedback && { feedback: ses.feedback }),
    };
  // The status part that names recipients: a mail system may label its human-readable text a status part too
  const status = email.parts.find((p) => DELIVERY_STATUS.has(p.type) && namesRecipient(p.content));
  if (status) {
    // A status part with no fields is the notice's text mislabelled: its prose may hold the replies
    const prose = email.parts.filter(
      (p) => p !== status && DELIVERY_STATUS.has(p.type) && !/^[\w-]+[ \t]*:/m.test(p.content),
    );
    const text = [email.text, ...prose.map((p) => p.content)].join('\n\n');
    return readReport(prose.length > 0 ? { ...email, text } : email, status.content);
  }
  if (isFeedbackReport(email)) {
    const feedback = readArf(email);
    return { kind: 'feedback', format: 'rfc5965', recipients: [], omitted: 0, ...(feedback && { feedback }) };
  }
  if (isJmrpComplaint(email))
    return { kind: 'feedback', format: 'jmrp', recipients: [], omitted: 0, feedback: readJmrp(email) };
  // A bounce may quote a DMARC reply in its own words: its subject says which it is
  if (isDmarcFailureText(email) && !BOUNCE_SUBJECT.test(email.subject))
    return { kind: 'feedback', format: 'dmarc', recipients: [], omitted: 0 };
  if (isOtherReport(email) || isLureNotice(email))
    return { kind: 'not-a-bounce', format: 'none', recipients: [], omitted: 0 };
  // A Sieve reject is sent as a disposition notification marked auto-replied: a failure all the same
  const rejected = readSieveReject(email);
  if (rejected) return { kind: 'failed', format: 'rfc5429', recipients: rejected, omitted: 0 };
  // The first form that finds recipients answers; a specific form that knows the email but finds none still makes
  // it a bounce, as does a notice whose sender and subject both say so
  let known: BounceForm | undefined;
  for (const [i, form] of FORMS.entries()) {
    // The fallbacks read any address a text names: a vacation reply from a daemon-like sender is no notice
    if ((form === text || form === notice) && isVacationReply(email) && !BOUNCE_SUBJECT.test(email.subject)) break;
    if (!form.detect(email)) continue;
    const { recipients: read, delayed } = form.read(email);
    // A delay warning carries no such header: a notice that still retries is read as it stands
    const recipients = read.length > 0 && !delayed ? asFailedHeaderNames(email, read) : read;
    if (recipients.length > 0) {
      // A form names its own pattern for what it read; what it read is marked by the form's name
      for (const recipient of recipients) {
        for (const field of ['recipient', 'action', 'status', 'reply', 'remote_mta'] as const) {
          if (recipient[field] !== undefined) source(recipient, field, `text:${form.name}`);
        }
      }
      // Replies a form left out, from the prose; under a list of reasons only a reply line is one, not the MTA's words
      const rest = FORMS.slice(i + 1).filter((later) => later !== notice || !form.listsReasons);
      if (form !== notice) fillReplies(email, recipients, rest);
      return capped(kindOf(recipients, delayed), form.name, recipients);
    }
    if (form !== text && form !== notice) known ??= form;
  }
  // A notice no form reads recipients from (a Google Group refusing a post) may name them in its header all the same;
  // one such recipient's reply is the reason the notice gives
  const named = asFailedHeaderNames(email, []);
  const reason = named.length === 1 ? noticeReason(email) : undefined;
  if (reason) {
    named[0]!.reply = reason;
    source(named[0]!, 'reply', 'text:notice.stated-reason');
  }
  if (named.length > 0) return capped('failed', known?.name ?? notice.name, named);
  const returned = emptyReportRecipient(email);
  if (returned) return capped('failed', 'rfc3464', [returned]);
  // A form knows text a person may quote too (asking a list why their mail bounced): only a notice is a bounce
  if ((known && isNotice(email)) || isBareNotice(email))
    return { kind: 'failed', format: known?.name ?? notice.name, recipients: [], omitted: 0 };
  const auto = autoReplyFormat(email);
  if (auto) return { kind: 'auto-reply', format: auto, recipients: [], omitted: 0 };
  return { kind: 'not-a-bounce', format: 'none', recipients: [], omitted: 0 };
}
