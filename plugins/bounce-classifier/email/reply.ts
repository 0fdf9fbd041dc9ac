/**
 * Shared readers of text in bounce emails: the forms and the DSN parser find addresses, statuses and replies with
 * these, and only these. Replies are cut by the one reply cutter, `lib/smtp-reply.ts`, which the model's normaliser
 * uses too.
 */
import { readReply } from '../../../lib/smtp-reply.ts';
import type { Email } from './types.ts';

/** What ends a local part: full-width and ideographic punctuation as its ASCII form (CJK notices write `宛先：user@host`) */
const NOT_LOCAL = String.raw`\s<>()"',;:@\uff1a\uff0c\uff1b\uff08\uff09\uff1c\uff1e\u3001\u3002\u300c-\u300f\u3010\u3011`;

/**
 * An address in text, in angle brackets or bare; bounded parts keep a scan of long tokens linear. A local part starts
 * where a token does and not with `//`, so a link holding an address (`https://host/page#user@host`) names none
 */
export const ADDRESS = new RegExp(
  String.raw`<?(?<![^${NOT_LOCAL}])(?!\/\/)([^${NOT_LOCAL}]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.[a-z]{2,63})>?`,
  'i',
);

// Not part of a dotted run either side, so `client 5.10.20.30` or `192.0.2.10` hold no status (as in parseReply)
const ENHANCED = /(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?!\.?\d)/;

/** Quoted header lines naming the sender (`From:`): their address failed nowhere */
const SENDER_FIELDS = String.raw`from|sender|reply-to|return-path|errors-to|envelope-from`;
export const SENDER_LINE = new RegExp(String.raw`^\s*>?\s*(?:${SENDER_FIELDS})\s*:`, 'i');

/** Header fields of a quoted message that name people or messages */
const ADDRESS_FIELDS = String.raw`${SENDER_FIELDS}|to|cc|message-id|in-reply-to|references`;

/** Header lines of the returned message quoted in a notice's text (`Subject: ...`): no part of a recipient's reason */
export const QUOTED_HEADER_LINE = new RegExp(String.raw`^\s*>?\s*(?:${ADDRESS_FIELDS}|subject|date)\s*:`, 'i');

/** Lines whose addresses are no recipient: header lines of a quoted message, and the notice's contact advice */
export const NOT_RECIPIENT_LINE = new RegExp(
  String.raw`^\s*>?\s*(?:${ADDRESS_FIELDS})\s*:|\b(?:contact|please (?:send|write|e-?mail|reply)|sent by|originally from|your message from)\b|\be\.g\.|,\s*try `,
  'i',
);

/** Mailboxes that report, relay or run lists, never a failed recipient */
export const NOT_RECIPIENT =
  /^(?:postmaster|mailer-daemon|mail-daemon|mdaemon|hostmaster|webmaster|abuse|root|no-?reply|noreply|help|support)@|^owner-|-(?:bounces|admin|owner|request)(?:\+[^@]*)?@/i;

/** The notice's own addresses, lower case (its sender, the sender it returns to): no recipient's */
export function ownAddresses(email: Email): Set<string> {
  return new Set(
    [email.from, ...email.headers('to'), ...email.headers('return-path')].flatMap((v) =>
      v ? [bareAddress(v).toLowerCase()] : [],
    ),
  );
}

/** Folded lines joined into one, whitespace collapsed */
export function unfold(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Paragraphs of a text: runs of lines between blank lines (a split on `\n\s*\n` is quadratic on blank runs) */
export function paragraphs(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() !== '') current.push(line);
    else if (current.length > 0) {
      out.push(current.join('\n'));
      current = [];
    }
  }
  if (current.length > 0) out.push(current.join('\n'));
  return out;
}

/** The enhanced status code a text holds (`5.1.1`), if any */
export function statusIn(text: string): string | undefined {
  const match = ENHANCED.exec(text);
  return match ? `${match[1]}.${match[2]}.${match[3]}` : undefined;
}

/** The action a status or reply code implies (4 delayed, 5 failed, 2 delivered), for text that does not say */
export function actionOf(status: string | undefined, fallback: string): string {
  if (!status) return fallback;
  return status[0] === '4' ? 'delayed' : status[0] === '2' ? 'delivered' : 'failed';
}

/**
 * The remote's reply in a sending MTA's text, cut by the one reply cutter (`lib/smtp-reply.ts`, as the model's
 * normaliser cuts it): code, enhanced status and text, whitespace collapsed, a multi-line reply's continuation
 * prefixes kept as sent (`550-5.1.1 ... 550 5.1.1 ...`). Undefined when the text holds no reply (neither a wrapper's
 * marker such as `said:` nor a line starting with a code or status).
 */
export function replyIn(text: string): string | undefined {
  return replyOf(readReply(text, { asSent: true }));
}

/** The remote's reply in a sending MTA's text (`replyIn`), else the whole text unfolded, less the MTA's tail */
export function replyOrText(text: string): string {
  const reply = readReply(text, { asSent: true });
  return replyOf(reply) ?? withNote(reply.text, reply);
}

function replyOf(reply: ReturnType<typeof readReply>): string | undefined {
  if (!reply.found) return undefined;
  const rest = [reply.status, reply.text].filter((part) => part !== '').join(' ');
  // A multi-line reply as sent: its first line's code joined to the rest by the dash (`550-5.1.1 ...`)
  const joined =
    reply.dash && reply.code !== '' ? `${reply.code}-${rest}` : [reply.code, rest].filter((p) => p !== '').join(' ');
  return joined === '' ? undefined : withNote(joined, reply);
}

/**
 * The reply with the code note that closed it put back (qmail's `(#5.1.1)`, `[SMTP Error Code 550]`): the reply
 * cutter takes such notes off, as the model's normaliser wants the bare reply, but they are part of the reply as the
 * server or MTA wrote it
 */
function withNote(reply: string, { text, note }: ReturnType<typeof readReply>): string {
  return note !== '' && text !== '' ? `${reply} ${note}` : reply;
}

/** sendmail's `relay=host [ip]` log field, which some servers append to their reply: it names a peer, not a cause */
const RELAY_FIELD = /,?[ \t]*\brelay=(?:[^\s,[\]]{1,255}(?:[ \t]*\[[^\]\s]{1,64}\])?|\[[^\]\s]{1,64}\])/gi;

/**
 * The text a recipient is classified on: its reply as sent, less what names a peer rather than a cause (sendmail's
 * `relay=` field, which the models read as a relaying failure)
 */
export function classifiedText(reply: string): string {
  return reply.includes('relay=') || reply.includes('RELAY=') ? reply.replace(RELAY_FIELD, '') : reply;
}

/** Strips a `type;` prefix such as `smtp;`, `rfc822;`, `dns;` (RFC 3464 typed fields) */
export function untyped(value: string): string {
  return value.replace(/^\s*[\w-]+\s*;\s*/, '').trim();
}

/** An address without angle brackets, lower case domain kept as sent */
export function bareAddress(value: string): string {
  const match = ADDRESS.exec(value);
  return match ? match[1]! : value.replace(/[<>]/g, '').trim();
}

/** Where the notice ends and its copy of the returned message begins */
export const COPY_START = new RegExp(
  String.raw`^\s*(?:` +
    String.raw`[-=_*>]{2,}.{0,20}(?:original|copy of|unsent|returned|undelivered|message follows|headers? (?:of|follow))|` +
    String.raw`(?:original|returned|unsent) message\b|message headers?(?: follows)?\s*:?\s*$|` +
    String.raw`the (?:original|returned) message (?:was|headers|follows))|` +
    String.raw`^>?\s?(?:return-path|received|message-id|x-[\w-]+|dkim-signature|mime-version)\s*:`,
  'i',
);

/** The notice's own lines: up to the copy of the returned message */
export function noticeLines(text: string): string[] {
  const lines = text.split('\n');
  const end = lines.findIndex((line) => COPY_START.test(line));
  return end < 0 ? lines : lines.slice(0, end);
}
