import { ADDRESS, bareAddress, replyIn, statusIn, unfold, withoutTail } from '../reply.ts';
import type { BounceForm, Email, ReportedRecipient } from '../types.ts';
import { BOUNCE_SUBJECT } from './text.ts';

/**
 * Any plain-text notice no specific form knows (old Sendmail and SMTP32 variants, Microsoft generations, list
 * managers, webmail providers, notices in other languages): the addresses the notice names, less the ones that are
 * the sender's, a postmaster's or the returned message's own headers, each with the text that follows it as its
 * reply. Asked last, only for an email that is a bounce by its sender or subject. The patterns are data below.
 */

/** Senders of bounces: the daemon mailboxes, by local part */
const DAEMON_FROM = /^(?:mailer-daemon|mail-daemon|mailerdaemon|postmaster|mdaemon|mail\.delivery\.system|bounces?|nobody|root|[\w.-]*smtp[\w.-]*|[\w.-]*mail[-_.]?(?:service|system|admin)[\w.-]*)@/i;

/** Subjects of bounces beyond the common ones of `BOUNCE_SUBJECT` */
const NOTICE_SUBJECT = /\b(?:non[- ]?delivery|could not be delivered|not delivered|mail (?:error|system error|delivery (?:problem|warning))|processing error|failed mail|mail failed|returned mail|error report|user unknown|delivery (?:problem|warning|report)|warning: message)\b/i;

/** Where the notice ends and its copy of the returned message begins */
const COPY_START =
  /^\s*(?:[-=_*>]{2,}.{0,20}(?:original|copy of|unsent|returned|undelivered|message follows|headers? (?:of|follow))|(?:original|returned|unsent) message\b|message headers?(?: follows)?\s*:?\s*$|the (?:original|returned) message (?:was|headers|follows))|^>?\s?(?:return-path|received|message-id|x-[\w-]+|dkim-signature|mime-version)\s*:/i;

/** Lines whose addresses are no recipient: header lines of a quoted message, and the notice's contact advice */
const NOT_RECIPIENT_LINE =
  /^\s*>?\s*(?:from|to|sender|reply-to|return-path|errors-to|cc|message-id|in-reply-to|references|envelope-from)\s*:|\b(?:contact|please (?:send|write|e-?mail|reply)|sent by|originally from|your message from)\b|\be\.g\.|,\s*try /i;

/** Mailboxes that report, relay or run lists, never a failed recipient */
const NOT_RECIPIENT = /^(?:postmaster|mailer-daemon|mail-daemon|mdaemon|hostmaster|webmaster|abuse|root|no-?reply|noreply|help|support)@|^owner-|-(?:bounces|admin|owner|request)(?:\+[^@]*)?@/i;

/** Words that mark a line as telling about a failed address */
const FAILURE_WORDS =
  /unknown|did ?n[o']t|not (?:found|exist|known|listed|deliver|available|allowed|valid)|no such|does ?n[o']t exist|invalid|undeliver|could not|couldn't|can ?not|unable|fail|reject|refus|denied|quota|full|disabled|inactive|suspend|expired|error|reason|unavailable|bad |unrouteable|inexistant|inconnu|unbekannt|desconocido|no existe|non recens|utilisateur|following (?:recipient|address)|:\s*$/i;

/** The notice says the server still retries: a delay warning, not a failure */
const DELAYED =
  /has not yet been delivered|not been delivered yet|will (?:continue|keep) (?:to )?(?:try|retry|trying|attempt)|will be retried|(?:retry|try again) (?:for|until|later)|delivery (?:has been |is )?delayed|still (?:being )?retr|could not send message for past|delivery attempts will continue/i;
const FINAL = /permanent|giving up|not going to try again|will not (?:be )?(?:retr|deliver)|won't be retried|no further attempts|(?:have|has) been (?:returned|bounced)/i;

function isNotice(email: Email): boolean {
  return DAEMON_FROM.test(email.from) || BOUNCE_SUBJECT.test(email.subject) || NOTICE_SUBJECT.test(email.subject) || email.mediaType === 'multipart/report';
}

/** The notice's own lines: up to the copy of the returned message */
function noticeLines(text: string): string[] {
  const lines = text.split('\n');
  const end = lines.findIndex((line) => COPY_START.test(line));
  return end < 0 ? lines : lines.slice(0, end);
}

/** A date after an address (Exchange's `; on Tue, 3 Nov 2026`), its wrapped time, and Exchange's MTS-ID lines: no reply */
const NOT_REPLY = /^(?:;?\s*on \w{3},? \d.*|\d{1,2}:\d\d(?::\d\d)?\s*[-+]\d{4}|.*\bMTS-ID\b.*|;?p=.*)$/i;

/**
 * The reply for an address: the rest of its line, else the lines after it up to a blank line or the next address,
 * else the words before it on its line (`User mailbox exceeds allowed size: user@host`)
 */
function replyAfter(lines: readonly string[], i: number, address: string): string | undefined {
  const line = lines[i]!;
  const at = line.toLowerCase().indexOf(address.toLowerCase());
  let rest = line.slice(at + address.length).replace(/^[>\s:.,;-]+/, '');
  if (NOT_REPLY.test(rest.trim())) rest = '';
  const block = [rest];
  if (rest.trim() === '' || /^\s/.test(lines[i + 1] ?? '')) {
    for (let j = i + 1; j < lines.length && j < i + 8; j++) {
      const next = lines[j]!;
      // Another address starts the next recipient's lines; the reply may name its own
      const other = ADDRESS.exec(next)?.[1];
      if (next.trim() === '' || (other && other.toLowerCase() !== address.toLowerCase())) break;
      if (!NOT_REPLY.test(next.trim())) block.push(next.trim());
    }
  }
  let text = block.join('\n').trim();
  if (text === '') text = line.slice(0, at).replace(/^[\s*•-]+|[\s:<]+$/g, '').replace(/^.*\bSMTP=$/i, '');
  const reply = replyIn(text) ?? withoutTail(unfold(text));
  return reply !== '' && reply.length <= 1000 ? reply : undefined;
}

export const notice: BounceForm = {
  name: 'notice',
  detect: isNotice,
  read(email) {
    const own = new Set([email.from, ...email.headers('to'), ...email.headers('return-path')].flatMap((v) => (v ? [bareAddress(v).toLowerCase()] : [])));
    const lines = noticeLines(email.text);
    const strong: { address: string; line: number }[] = [];
    const weak: { address: string; line: number }[] = [];
    const seen = new Set<string>();
    lines.forEach((line, i) => {
      if (!line.includes('@') || NOT_RECIPIENT_LINE.test(line)) return;
      const pattern = new RegExp(ADDRESS.source, 'gi');
      for (let m; (m = pattern.exec(line)); ) {
        // An X.400 gateway's `SMTP=user@host` names the address after the `=`; an address after `from` is the sender
        const address = m[1]!.replace(/\.$/, '').replace(/^(?:smtp|rfc-?822)=/i, '');
        if (/\bfrom\s*<?$/i.test(line.slice(0, m.index))) continue;
        const key = address.toLowerCase();
        if (seen.has(key) || own.has(key) || NOT_RECIPIENT.test(address)) continue;
        seen.add(key);
        const listed = /^\s*(?:[-*•]\s*)?<?[^\s<>@]+@[^\s<>]+>?\s*(?::|\.\.\.|$)/.test(line);
        (listed || FAILURE_WORDS.test(line) || FAILURE_WORDS.test(lines[i - 1] ?? '') ? strong : weak).push({ address, line: i });
      }
    });
    let found = strong.length > 0 ? strong : weak;
    // The subject names the recipient when the text names none (`Warning: user@host - User unknown!`)
    if (found.length === 0) {
      const address = ADDRESS.exec(email.subject)?.[1];
      if (address && !own.has(address.toLowerCase()) && !NOT_RECIPIENT.test(address)) found = [{ address, line: -1 }];
    }
    const whole = lines.join('\n');
    const delayed = DELAYED.test(whole) && !FINAL.test(whole);
    const recipients: ReportedRecipient[] = found.map(({ address, line }) => {
      const reply = line >= 0 ? replyAfter(lines, line, address) : undefined;
      const status = reply ? statusIn(reply) : undefined;
      return { recipient: address, action: delayed ? 'delayed' : 'failed', ...(status && { status }), ...(reply && { reply }) };
    });
    return { recipients, delayed };
  },
};

/** A notice that names no address but is a bounce by both its sender and its subject */
export function isBareNotice(email: Email): boolean {
  return DAEMON_FROM.test(email.from) && (BOUNCE_SUBJECT.test(email.subject) || NOTICE_SUBJECT.test(email.subject));
}
