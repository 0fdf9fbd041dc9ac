import { actionOf, bareAddress, replyOrText, statusIn, unfold, untyped } from './reply.ts';
import type { ReportedRecipient } from './types.ts';

/** The media types of an RFC 3464 / RFC 6533 status part */
export const DELIVERY_STATUS = new Set(['message/delivery-status', 'message/global-delivery-status']);

/** Whether a status part's text names a recipient (`Final-Recipient:` or `Original-Recipient:`) */
export function namesRecipient(content: string): boolean {
  return /^(?:final|original)-recipient[ \t]*:/im.test(content);
}

/** Longest field value read: a reply is classified on its first 4,096 characters, and no address or host is longer */
const MAX_FIELD = 8 * 1024;

/**
 * The name of a field that may follow a `Diagnostic-Code`: RFC 3464's own, or any hyphenated one (`X-...`, a MIME
 * header run on without a blank line); a hard-wrapped piece of the reply rarely starts so (`ps://...`, `e: 7QK2`)
 */
const FIELD_AFTER_DIAGNOSTIC = /^(?:action|status|[a-z][a-z\d]*-[\w-]+)$/;
/** The per-recipient fields that may follow a `Diagnostic-Code`, indented (Gmail folds `Last-Attempt-Date:` into it) */
const INDENTED_FIELD = /^[ \t]+(?:last-attempt-date|will-retry-until|final-log-id|remote-mta)[ \t]*:/i;

/**
 * Field groups of a delivery-status or feedback-report part (`Name: value` lines, groups between blank lines): the
 * per-message group, then one per recipient. Names are lower case, values start at their first non-blank, a folded
 * line is kept on a line of its own in the value (a line that is no field, after a `Diagnostic-Code`, is joined to it
 * as it stands), and every value of a repeated field is kept, in order.
 */
export function fieldGroups(content: string): Map<string, string[]>[] {
  const out: Map<string, string[]>[] = [];
  let fields = new Map<string, string[]>();
  let last: string[] | undefined;
  // The code of a `Diagnostic-Code` reply whose last line read (`451-...`) says more lines follow, and whether blank
  // lines came after it: Microsoft's SMTPSVC writes the other lines unindented, after a blank line
  let open: string | undefined;
  let blank = false;
  // A folded line goes on a line of its own in the value; a hard-wrapped piece (`separator` "") as it stands
  const append = (line: string, separator = '\n') => {
    const value = last![last!.length - 1]!;
    if (value.length < MAX_FIELD) last![last!.length - 1] = `${value}${separator}${line.slice(0, MAX_FIELD)}`;
    if (open !== undefined) open = /^\s*(\d{3})-/.exec(line)?.[1];
  };
  for (const line of content.split(/\r?\n/)) {
    if (open !== undefined) {
      if (line.trim() === '') {
        blank = true;
        continue;
      }
      if (line.startsWith(open) && /^\d{3}[ -]/.test(line)) {
        append(line);
        continue;
      }
      open = undefined;
      if (blank) {
        out.push(fields);
        fields = new Map();
        last = undefined;
        blank = false;
      }
    }
    if (line.trim() === '') {
      if (fields.size > 0) out.push(fields);
      fields = new Map();
      last = undefined;
      continue;
    }
    // Gmail folds `Last-Attempt-Date:` into the `Diagnostic-Code` before it, indented: a field all the same
    if (/^[ \t]/.test(line) && last && !INDENTED_FIELD.test(line)) {
      append(line);
      continue;
    }
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim().toLowerCase() : '';
    // After a `Diagnostic-Code`, a line that is no field carries its reply on: a reply line of its own (`550 ...`), or
    // a piece cut where a mailer hard-wrapped it (`... judged to b` / `e spam by ...`, `<htt` / `ps://...`), joined
    // as it stands, as such a cut adds nothing
    if (last && last === fields.get('diagnostic-code') && !FIELD_AFTER_DIAGNOSTIC.test(name)) {
      append(line, /^[2-5]\d\d[ -]/.test(line) ? '\n' : '');
      continue;
    }
    if (colon <= 0) continue;
    // Some MTAs omit the blank line between recipients: a second Final-Recipient starts a new group
    if (name === 'final-recipient' && fields.has('final-recipient')) {
      out.push(fields);
      fields = new Map();
    }
    const value = line.slice(colon + 1, colon + 1 + MAX_FIELD).trimStart();
    open = name === 'diagnostic-code' ? /^(?:[\w-]+\s*;\s*)?(\d{3})-/.exec(value)?.[1] : undefined;
    last = fields.get(name);
    if (last) last.push(value);
    else fields.set(name, (last = [value]));
  }
  if (fields.size > 0) out.push(fields);
  return out;
}

/**
 * An address with RFC 6533 unitext escapes (`\x{00F6}`) decoded, and RFC 3461 xtext (`+2B`) too when `xtext`: only
 * `Original-Recipient` carries the ORCPT as xtext, and a final address may hold a literal `+AB`
 */
function decodeAddress(value: string, xtext: boolean): string {
  const unitext = value.replace(/\\x\{([0-9a-f]{1,6})\}/gi, (all, hex: string) => {
    const code = parseInt(hex, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
  return xtext
    ? unitext.replace(/\+([0-9A-F]{2})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : unitext;
}

/** The nouns some MTAs write for `Action` */
const ACTIONS: Record<string, string> = { failure: 'failed', fail: 'failed', delay: 'delayed', delivery: 'delivered' };

/** A typed address field that names a mail address (`rfc822; user@host`, or untyped) rather than an X.400 one */
function isMailAddress(value: string): boolean {
  const type = /^\s*([\w-]+)\s*;/.exec(value)?.[1]?.toLowerCase();
  return (type === undefined || type === 'rfc822' || type === 'utf-8') && value.includes('@');
}

/** What a delivery-status part says; `notes` holds a recipient's `Status` comment, a reason when nothing better is */
export interface DeliveryStatus {
  recipients: ReportedRecipient[];
  omitted: number;
  notes: Map<ReportedRecipient, string>;
}

/**
 * Recipients of an RFC 3464 `message/delivery-status` or RFC 6533 `message/global-delivery-status` part: the
 * address (`Final-Recipient`, else `Original-Recipient`), `Action`, `Status`, `Remote-MTA` and the reply
 * (`Diagnostic-Code` unfolded, its `smtp;` type dropped), in report order; at most `limit` plus a count of the rest.
 */
export function readDeliveryStatus(content: string, limit: number): DeliveryStatus {
  const recipients: ReportedRecipient[] = [];
  const notes = new Map<ReportedRecipient, string>();
  const seen = new Set<string>();
  let omitted = 0;
  for (const group of fieldGroups(content)) {
    // A field given twice in a recipient's group: its first value counts
    const fields = { get: (name: string) => group.get(name)?.[0], has: (name: string) => group.has(name) };
    // A gateway's non-mail Final-Recipient (`x400; /S=user/...`) is no address: the rfc822 Original-Recipient is
    const original = fields.get('original-recipient');
    const typed = fields.get('final-recipient');
    const final =
      typed !== undefined && original !== undefined && !isMailAddress(typed) && isMailAddress(original)
        ? undefined
        : typed;
    const address = final ?? original;
    if (address === undefined && !fields.has('action')) continue;
    if (recipients.length >= limit) {
      omitted += 1;
      continue;
    }
    const recipient: ReportedRecipient = {
      recipient: address === undefined ? '' : bareAddress(decodeAddress(untyped(unfold(address)), final === undefined)),
    };
    const sources: NonNullable<ReportedRecipient['sources']> = {};
    if (address !== undefined)
      sources.recipient = final === undefined ? 'dsn:Original-Recipient' : 'dsn:Final-Recipient';
    const statusField = unfold(fields.get('status') ?? '');
    const status = /\d\.\d{1,3}\.\d{1,3}/.exec(statusField)?.[0];
    // A report without `Action` (it is required, yet some MTAs omit it) says it through the status class; some
    // write the noun (`failure`, `delay`)
    const action = fields.get('action')?.trim().toLowerCase().split(/[\s(]/)[0];
    recipient.action = (action && (ACTIONS[action] ?? action)) || actionOf(status, 'failed');
    sources.action = action ? 'dsn:Action' : 'inferred';
    if (status) {
      recipient.status = status;
      sources.status = 'dsn:Status';
    }
    const diagnostic = fields.get('diagnostic-code');
    // Domino folds its `X-Notes` reason at a fixed width, inside a word, and adds the fold's space: take it out
    const domino = diagnostic !== undefined && /^x-notes\s*;/i.test(diagnostic);
    let reply =
      diagnostic === undefined ? '' : untyped(unfold(domino ? diagnostic.replace(/\n[ \t]/g, '') : diagnostic));
    // An X.400 gateway's reason code (`Reason 1 (Unable-To-Transfer)`) yields to the SMTP reply it quotes in its
    // supplementary information; an MTA that writes the SMTP reply into `Status` (`553 Too big`) gave one there
    const supplement = unfold(fields.get('x400-supplementary-info') ?? '').replace(/^"|"$/g, '');
    let from = 'dsn:Diagnostic-Code';
    if (/^Reason \d+ \(/.test(reply) && statusIn(supplement))
      [reply, from] = [supplement, 'dsn:X400-Supplementary-Info'];
    // Exchange gives the remote's reply in `X-Supplementary-Info` (`<mx #5.1.1 smtp;550 5.1.1 ...>`) when it writes no
    // `Diagnostic-Code`
    const exchange = reply === '' && /\bsmtp;\s*(.+?)>?$/i.exec(unfold(fields.get('x-supplementary-info') ?? ''))?.[1];
    if (exchange) [reply, from] = [exchange, 'dsn:X-Supplementary-Info'];
    if (reply === '' && /^[245]\d\d[ -]\S/.test(statusField)) [reply, from] = [statusField, 'dsn:Status'];
    // Some MTAs write their own wrapper into the field (`host mx[ip] said: 550 ... (in reply to RCPT TO command)`;
    // NetEase's `SMTP error, RCPT TO: Host mx(ip) RCPT TO said 550 ...`), or their own note after it (`... 'no valid
    // ip addresses' (delivery attempts: 0)`)
    reply = replyOrText(reply);
    // A success reply given for a recipient that failed or waits (an old sendmail wrote its last hop's `250 Message
    // accepted for delivery` there) tells nothing of why: the notice's prose may
    if (/^2\d\d\b/.test(reply) && (recipient.action === 'failed' || recipient.action === 'delayed')) reply = '';
    if (reply !== '') {
      recipient.reply = reply;
      sources.reply = from;
    } else if (status) {
      // The words after the code (`5.0.0 (recipient reached disk quota)`): a reason when the report has no better
      const words = statusField.slice(statusField.indexOf(status) + status.length).replace(/^[\s(]+|[\s)]+$/g, '');
      if (/[a-z]{3,}/i.test(words)) notes.set(recipient, words);
    }
    const remote = fields.get('remote-mta');
    // Without the comment some MTAs add (`(2001:db8::1, the server for the domain ...)`) and the root's dot
    let host = remote === undefined ? '' : untyped(unfold(remote));
    const comment = host.indexOf(' (');
    if (comment > 0 && host.endsWith(')')) host = host.slice(0, comment);
    if (host.endsWith('.')) host = host.slice(0, -1);
    if (host !== '') {
      recipient.remote_mta = host;
      sources.remote_mta = 'dsn:Remote-MTA';
    }
    recipient.sources = sources;
    // The same recipient reported again with the same outcome (one block per attempt or per alias) is one recipient
    const key = [recipient.recipient.toLowerCase(), recipient.action, recipient.status, recipient.reply].join('\n');
    if (seen.has(key)) continue;
    seen.add(key);
    recipients.push(recipient);
  }
  return { recipients, omitted, notes };
}
