import {
  ADDRESS,
  COPY_START,
  NOT_RECIPIENT,
  NOT_RECIPIENT_LINE,
  noticeLines,
  ownAddresses,
  paragraphs,
  QUOTED_HEADER_LINE,
  replyOrText,
  statusIn,
  unfold,
} from '../reply.ts';
import type { BounceForm, Email, ReportedRecipient } from '../types.ts';
import { DELAYED_WORDS, FINAL_WORDS, NOTICE_RULES } from '../families.ts';
import { isVacationReply } from '../kind.ts';
import { BOUNCE_SUBJECT } from './text.ts';

/**
 * Any plain-text notice no specific form knows (old Sendmail and SMTP32 variants, Microsoft generations, list
 * managers, webmail providers, notices in other languages): the addresses the notice names, less the ones that are
 * the sender's, a postmaster's or the returned message's own headers, each with the text that follows it as its
 * reply. Asked last, only for an email that is a bounce by its sender or subject. The wording of headings, reason
 * leads and delay words is data, one file per mail-system family in `families/`; the other patterns are below.
 */

/** Senders of bounces: the daemon mailboxes, by local part */
const DAEMON_FROM =
  /^(?:mailer-daemon|mail-daemon|mailerdaemon|postmaster|mdaemon|mail\.delivery\.system|bounces?|nobody|root|[\w.-]*smtp[\w.-]*|[\w.-]*mail[-_.]?(?:service|system|admin)[\w.-]*)@/i;

/** Subjects of bounces beyond the common ones of `BOUNCE_SUBJECT` */
const NOTICE_SUBJECT = new RegExp(
  String.raw`\b(?:non[- ]?delivery|could not be delivered|not delivered|` +
    String.raw`mail (?:error|failure|system error|delivery (?:problem|warning))|` +
    String.raw`processing error|failed mail|mail failed|returned mail|error report|user unknown|` +
    String.raw`delivery (?:problem|warning|report)|warning: message)\b`,
  'i',
);

/** Words of a notice saying the message was not delivered at all, whatever its subject */
const NOT_DELIVERED =
  /\b(?:has|have|was|were|could|can)\s+not\s+(?:been\s+|be\s+)?delivered\b|\bno\s+(?:attempt\s+at\s+)?delivery\s+(?:could\s+be\s+attempted|was\s+possible)/i;

/**
 * A reason saying the address as written is no full address (Exim's `unqualified recipient address not allowed`): its
 * local part stays as written, since completing it would name a mailbox the message was never sent to
 */
const MALFORMED = /\bunqualified\b|\bmalformed\b|\bdomain missing\b/i;

/** Every address of a text (`matchAll` copies it, so its state is never shared) */
const ADDRESSES = new RegExp(ADDRESS.source, 'gi');

/** Words that tell of a failure */
const FAILURE_TERMS = new RegExp(
  "unknown|exceed|did ?n[o']t|not (?:found|exist|known|listed|deliver|available|allowed|valid)|no longer|no such|" +
    "does ?n[o']t exist|invalid|undeliver|could not|couldn't|can ?not|unable|fail|reject|refus|denied|quota|full|" +
    'disabled|inactive|suspend|expired|error|reason|unavailable|bad |unrouteable|' +
    'inexistant|inconnu|unbekannt|desconocido|no existe|non recens|utilisateur|following (?:recipient|address)',
  'i',
);
/** Words that mark a line as telling about a failed address, or a line that introduces what follows */
const FAILURE_WORDS = new RegExp(`${FAILURE_TERMS.source}|:\\s*$`, 'i');

/** A notice by its subject or its media type */
function isReportByHeader(email: Email): boolean {
  return (
    BOUNCE_SUBJECT.test(email.subject) || NOTICE_SUBJECT.test(email.subject) || email.mediaType === 'multipart/report'
  );
}

/** A notice by its sender, its subject or its media type: a person's message that quotes one is none */
export function isNotice(email: Email): boolean {
  return DAEMON_FROM.test(email.from) || isReportByHeader(email);
}

/**
 * A date after an address (Exchange's `; on Tue, 3 Nov 2026`), its wrapped time, and Exchange's MTS-ID lines: no
 * reply; nor the lines the families name (`not_reply`)
 */
const NOT_REPLY = new RegExp(
  [
    String.raw`^(?:;?\s*on \w{3},? \d.*|\d{1,2}:\d\d(?::\d\d)?\s*[-+]\d{4}|.*\bMTS-ID\b.*|;?p=.*)$`,
    ...NOTICE_RULES.not_reply,
  ].join('|'),
  'i',
);
/** A family's words after a reply on its line, cut off (`trailers`) */
const TRAILER = NOTICE_RULES.trailers.length > 0 ? new RegExp(NOTICE_RULES.trailers.join('|'), 'i') : undefined;

/** A line that introduces the failed recipients listed under it (`The following addresses failed:`) */
const HEADING = new RegExp(`(?:${NOTICE_RULES.headings.join('|')})\\b.{0,160}?(?::|-{3,})\\s*$`, 'i');
/**
 * A bare local part listed under a heading (`screenname`, `user   No such user`, GroupWise's `user (user not found)`):
 * an address without its domain, and its reason
 */
const LOCAL_PART =
  /^\s*(?:[-*•]\s*)?<?([a-z0-9][a-z0-9._%+=-]{0,63}[a-z0-9_])>?(?:\s{2,}(\S.*)|\s+\(([^()]{1,200})\))?$/i;
/** A line that states the reason for the failure on the lines after it (`Last attempt failed because:`) */
const REASON_LEAD = new RegExp(`(?:${NOTICE_RULES.reason_leads.join('|')})\\s*[:：]\\s*$`, 'i');

/** A label before a reason (`Reason: ...`, `退信原因:`): the notice's word, not the reply */
const LABEL = /^(?:reason|error|problem|diagnostic|details?|cause|退信原因|错误原因)\s*[:：]\s*/i;

/** Text that is no reply: a lone mark, a label or heading (`...:`), a separator, a date; a reason may be Chinese */
function isReplyText(text: string): boolean {
  return (
    /[a-z]{2,}\W+[a-z]{2,}|^[45]\d\d\b|\p{Script=Han}{4}/iu.test(text) &&
    !/[:：]\s*$/.test(text) &&
    !/^[-=_*]{2,}/.test(text) &&
    !NOT_REPLY.test(text)
  );
}

/** The most lines a paragraph read as a reply holds */
const PARAGRAPH_LINES = 8;

/**
 * A paragraph starting at line `from` (leading list marks and quoted header lines dropped), up to a blank line, the
 * returned message, 8 lines or, given the `address` it is about, a line naming another
 */
function paragraphAt(lines: readonly string[], from: number, address?: string): string {
  const out: string[] = [];
  for (let j = from; j < lines.length && j < from + PARAGRAPH_LINES; j++) {
    const line = lines[j]!.trim();
    const other = address === undefined ? undefined : ADDRESS.exec(line)?.[1];
    if (line === '' || (other && other.toLowerCase() !== address!.toLowerCase()) || COPY_START.test(lines[j]!)) break;
    if (!NOT_REPLY.test(line) && !QUOTED_HEADER_LINE.test(line)) out.push(line.replace(/^[-*•]{1,3}\s+/, ''));
  }
  return out.join('\n');
}

/** The reply a text holds: its SMTP reply, else the text itself, without the sending MTA's tail */
function asReply(text: string): string | undefined {
  const whole = replyOrText(text).replace(LABEL, '');
  const reply = TRAILER ? whole.replace(TRAILER, '') : whole;
  return reply !== '' && reply.length <= 1000 && isReplyText(reply) ? reply : undefined;
}

/**
 * A reason the MTA wraps whole in parentheses after the address (`<x> (connection to 'mx' failed: Connection
 * refused)`, McAfee's `<x>   (User unknown)`): the words inside, when the parentheses are the outer pair
 */
function unwrapped(text: string): string {
  const inner = /^\s*\((.*)\)\s*$/.exec(text)?.[1];
  if (inner === undefined) return text;
  let depth = 0;
  for (const char of inner) {
    if (char === '(') depth++;
    else if (char === ')' && --depth < 0) return text;
  }
  return depth === 0 ? inner : text;
}

/**
 * The reply for an address mentioned on line `i`: the rest of its line, else the lines after it up to a blank line
 * or the next address, else the paragraph after a blank line, else the words before it on its line when they tell
 * of a failure (`User mailbox exceeds allowed size: user@host`)
 */
function replyAfter(lines: readonly string[], i: number, address: string): string | undefined {
  const line = lines[i]!;
  // A line that starts with a reply code is the reply, the address inside it (`553 5.3.0 <user@host>... No such user`)
  if (/^\s*(?:<<<\s*)?[45]\d\d[ -]/.test(line)) {
    const coded = asReply(line.trim());
    if (coded) return coded;
  }
  const at = line.toLowerCase().indexOf(address.toLowerCase());
  // A reply code just before the address starts the reply the address is part of (sendmail's `553 5.3.0
  // <user@host>... No such user` after a wrapper's words)
  const lead = /(?:^|\s)([45]\d\d(?: [245]\.\d{1,3}\.\d{1,3})? <?)$/.exec(line.slice(0, at))?.[1];
  if (lead) {
    const sent = asReply(line.slice(at - lead.length).trim());
    if (sent) return sent;
  }
  const before = line.slice(0, at).replace(/^[\s*•-]+|[\s<"]+$/g, '');
  // An address inside a sentence (`The address to which ..., user@host, did not match`): the sentence is the reason
  // Its last words only: the pattern backtracks over a long run of letters
  if (/[a-z]{2,}\W+[a-z]{2,}\W*$/i.test(before.slice(-120)) && !/[:=]$/.test(before)) {
    const sentence = sentenceAt(lines, i, at);
    if (sentence && FAILURE_WORDS.test(sentence)) return asReply(sentence);
  }
  let rest = unwrapped(line.slice(at + address.length).replace(/^[>)"'\s:.,;-]+/, ''));
  if (NOT_REPLY.test(rest.trim())) rest = '';
  const block = [rest];
  if (rest.trim() === '' || /^\s/.test(lines[i + 1] ?? '')) block.push(paragraphAt(lines, i + 1, address));
  // The reason then the address closing its line (`User mailbox is full: <user@host>`): the reason is the reply, not
  // the notice's own words on the lines right after it, unless those hold a reply code
  const words = before.replace(/[\s:]+$/, '').replace(/^.*\bSMTP=$/i, '');
  const reason = rest.trim() === '' && /:$/.test(before) && FAILURE_WORDS.test(words);
  const own = asReply(block.join('\n').trim());
  if (own) return reason && !/^[45]\d\d\b/.test(own) && !statusIn(own) ? (asReply(words) ?? own) : own;
  let next = i + 1;
  while (next < lines.length && lines[next]!.trim() !== '') next++;
  const after = asReply(paragraphAt(lines, next + 1, address));
  if (after) return after;
  return FAILURE_WORDS.test(words) ? asReply(words) : undefined;
}

/**
 * The sentence holding the address at column `at` of line `i`, read across the lines of its paragraph (at most 4
 * either side): from the end of the sentence before it to the first full stop after it
 */
function sentenceAt(lines: readonly string[], i: number, at: number): string | undefined {
  let first = i;
  while (first > 0 && first > i - 4 && lines[first - 1]!.trim() !== '' && !COPY_START.test(lines[first - 1]!)) first--;
  let last = i;
  while (
    last + 1 < lines.length &&
    last < i + 4 &&
    lines[last + 1]!.trim() !== '' &&
    !COPY_START.test(lines[last + 1]!)
  )
    last++;
  const head = lines.slice(first, i).concat(lines[i]!.slice(0, at)).join(' ');
  const tail = [lines[i]!.slice(at), ...lines.slice(i + 1, last + 1)].join(' ');
  const start = Math.max(head.lastIndexOf('. '), head.lastIndexOf('! '), head.lastIndexOf('? '));
  const end = /[.!?](?=\s|$)/.exec(tail.replace(/@[^\s<>]+/, (host) => host.replace(/\./g, '_')));
  if (!end) return undefined;
  // The head ends where the tail starts on the address's line: joined as written (`<user@host>`, not `< user@host>`)
  return unfold(head.slice(start + 1) + tail.slice(0, end.index + 1));
}

/** The reasons the notice states after a lead line (`Last attempt failed because:`), those with a reply code first */
function statedReasons(lines: readonly string[]): string[] {
  const reasons: string[] = [];
  lines.forEach((line, i) => {
    if (!REASON_LEAD.test(line)) return;
    const start = lines[i + 1]?.trim() === '' ? i + 2 : i + 1;
    const reason = asReply(paragraphAt(lines, start));
    if (reason) reasons.push(reason);
  });
  return reasons.sort(
    (a, b) =>
      Number(/^[45]\d\d\b|\b[45]\.\d{1,3}\.\d{1,3}\b/.test(b)) -
      Number(/^[45]\d\d\b|\b[45]\.\d{1,3}\.\d{1,3}\b/.test(a)),
  );
}

/** The pattern ids of a mention's tiers, as `sources` names them */
const TIERS = ['listed', 'failure-line', 'mention'] as const;

/**
 * A recipient's reply and the pattern that gave it: a reply with a code among those after its mentions, else the
 * reason on its listed line, else the reason the notice states, else the first text after a mention
 */
function chooseReply(
  afterMentions: readonly string[],
  listedReason: string | undefined,
  stated: string | undefined,
): [string | undefined, string] {
  const coded = afterMentions.find((r) => /^[45]\d\d\b/.test(r) || statusIn(r));
  if (coded) return [coded, 'reply-code'];
  if (listedReason) return [listedReason, 'listed-reason'];
  if (stated) return [stated, 'stated-reason'];
  return [afterMentions[0], 'after-address'];
}

/** A mention of a recipient: its address (or bare local part) and the lines naming it */
interface Mention {
  address: string;
  lines: number[];
  /** 0 listed under a heading, 1 on a line telling of a failure, 2 anywhere else */
  tier: number;
  /** The words after a bare local part on its line */
  reason?: string;
  /** How it was found, where no line names it (`domain`) */
  how?: string;
}

/** The addresses (and bare local parts) listed under the notice's headings, in order */
function listed(lines: readonly string[], own: ReadonlySet<string>): Mention[] {
  const found: Mention[] = [];
  const locals: Mention[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!HEADING.test(lines[i]!)) continue;
    for (
      let j = lines[i + 1]?.trim() === '' ? i + 2 : i + 1;
      j < lines.length && j < i + 60 && lines[j]!.trim() !== '';
      j++
    ) {
      const line = lines[j]!;
      if (HEADING.test(line) || COPY_START.test(line)) break;
      const address = ADDRESS.exec(line)?.[1]
        ?.replace(/\.$/, '')
        .replace(/^(?:smtp|rfc-?822)=/i, '');
      if (address) {
        if (own.has(address.toLowerCase()) || NOT_RECIPIENT.test(address) || NOT_RECIPIENT_LINE.test(line)) continue;
        // The same address again (`(Was addressed to user@host)` under its rewritten form) is the same recipient
        const again = found.find((m) => m.address.toLowerCase() === address.toLowerCase());
        if (again) again.lines.push(j);
        else found.push({ address, lines: [j], tier: 0 });
        continue;
      }
      const local = LOCAL_PART.exec(line);
      const reason = local?.[2] ?? local?.[3];
      if (local) locals.push({ address: local[1]!, lines: [j], tier: 0, ...(reason && { reason }) });
    }
  }
  return found.length > 0 ? found : locals;
}

/**
 * A bare local part made an address: as the notice or the returned message's trace names it (`for <user@host>`),
 * else at the reporting system's domain (it reports its own users so); alone when neither is known
 */
function completed(local: string, email: Email): string {
  const escaped = local.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const named = new RegExp(
    `(?<![^\\s<>"'(:;,])${escaped}@([a-z0-9-]{1,63}(?:\\.[a-z0-9-]{1,63}){0,8}\\.[a-z]{2,63})`,
    'i',
  ).exec(email.text);
  if (named) return `${local}@${named[1]}`;
  const domain = /@([a-z0-9.-]+\.[a-z]{2,63})$/i.exec(email.from)?.[1];
  return domain && DAEMON_FROM.test(email.from) ? `${local}@${domain}` : local;
}

/** A notice that names the recipient's domain only (MailEnable's `Message is waiting at host for delivery to x.org.`) */
const DELIVERY_TO_DOMAIN = /\bfor delivery to ([a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,8})\.?\s*$/im;
const RETURNED_TO = /^(?:to|cc):.*$/gim;
const REASON_LINE = /^\s*reason\s*:\s*\S.*$/im;

/**
 * The recipients of a notice that names their domain only: the returned message's `To` and `Cc` addresses there, each
 * with the notice's `Reason:` line. The notice's own addressee counts too: spam sent from a list's address to itself
 * comes back to it
 */
function byDomain(notice: string, text: string): Mention[] {
  const domain = DELIVERY_TO_DOMAIN.exec(notice)?.[1]?.toLowerCase();
  if (!domain) return [];
  const reason = REASON_LINE.exec(notice)?.[0].trim();
  const found = new Map<string, Mention>();
  for (const [line] of text.matchAll(RETURNED_TO)) {
    for (const m of line.matchAll(ADDRESSES)) {
      const address = m[1]!.toLowerCase();
      if (address.endsWith(`@${domain}`) && !found.has(address))
        found.set(address, { address: m[1]!, lines: [], tier: 2, how: 'domain', ...(reason && { reason }) });
    }
  }
  return [...found.values()];
}

/** The failed message's headers as a notice echoes them above its copy (`Subject: ...` then `To: x`, either order) */
const ECHOED_SUBJECT = /^\s*subject\s*:/i;
const ECHOED_TO = /^\s*to\s*:/i;

/**
 * The recipient of a notice that names none but echoes the failed message's `Subject:` and `To:` lines (Yahoo's
 * `Failure Notice` of 2021: `I'm afraid I wasn't able to deliver the following message`, no address block): the one
 * address of that `To:` line. A line of several addresses names no one recipient, and is left
 */
function echoedTo(lines: readonly string[], own: ReadonlySet<string>): Mention[] {
  for (let i = 0; i < lines.length; i++) {
    if (!ECHOED_TO.test(lines[i]!)) continue;
    if (!ECHOED_SUBJECT.test(lines[i - 1] ?? '') && !ECHOED_SUBJECT.test(lines[i + 1] ?? '')) continue;
    const addresses = [...lines[i]!.matchAll(ADDRESSES)].map((m) => m[1]!);
    const [address] = addresses;
    if (addresses.length !== 1 || own.has(address!.toLowerCase()) || NOT_RECIPIENT.test(address!)) return [];
    return [{ address: address!, lines: [], tier: 2, how: 'echoed-to' }];
  }
  return [];
}

/** A letter of another script than Latin */
const OTHER_SCRIPT = /(?=\p{L})\P{Script=Latin}/u;

/**
 * A notice by its subject or media type, or one whose own lines tell of a failure or a delay: a daemon's address alone
 * makes none, as spam is sent as `postmaster@` too, and the contact address it names is no failed recipient. The
 * words are Latin-script ones: a text in another script is not judged by them
 */
function tellsOfFailure(email: Email, lines: readonly string[], whole: string): boolean {
  if (isReportByHeader(email)) return true;
  return (
    OTHER_SCRIPT.test(whole) ||
    FAILURE_TERMS.test(whole) ||
    /\bbounc|\breturned\b|\bnon-?delivery\b/i.test(whole) ||
    NOT_DELIVERED.test(whole) ||
    DELAYED_WORDS.test(whole) ||
    /^\s*[45]\d\d\b/m.test(whole) ||
    lines.some((line) => HEADING.test(line) || REASON_LEAD.test(line))
  );
}

/**
 * How far after an address's line `replyAfter` reads its reply: the line, the paragraph after it, a blank line and the
 * paragraph after that
 */
const REPLY_REACH = 2 + 2 * PARAGRAPH_LINES;

/**
 * The lines a recipient's reply was read from: the rest of a line naming it, or a line near one, that the reply holds.
 * Only the lines near each mention are compared, so a notice of many recipients costs as many comparisons
 */
function quotedLines(
  lines: readonly string[],
  recipients: readonly { address: string; named: ReadonlySet<number>; reply?: string }[],
): Set<number> {
  const quoted = new Set<number>();
  for (const { address, named, reply } of recipients) {
    if (!reply) continue;
    for (const n of named) {
      for (let j = n; j < Math.min(lines.length, n + REPLY_REACH); j++) {
        const line = lines[j]!;
        const at = j === n ? line.toLowerCase().indexOf(address.toLowerCase()) : -1;
        const words = (at < 0 ? line : line.slice(at + address.length)).replace(/^[>)"'\s:.,;-]+/, '');
        const folded = words.trim().replace(/\s+/g, ' ');
        if (folded !== '' && reply.includes(folded)) quoted.add(j);
      }
    }
  }
  return quoted;
}

export const notice: BounceForm = {
  name: 'notice',
  detect: isNotice,
  read(email) {
    const own = ownAddresses(email);
    const lines = noticeLines(email.text);
    const whole = lines.join('\n');
    if (!tellsOfFailure(email, lines, whole)) return { recipients: [], delayed: false };
    const mentions = new Map<string, Mention>();
    lines.forEach((line, i) => {
      if (!line.includes('@') || NOT_RECIPIENT_LINE.test(line)) return;
      for (const m of line.matchAll(ADDRESSES)) {
        // An X.400 gateway's `SMTP=user@host` names the address after the `=`; an address after `from` is the sender
        const address = m[1]!.replace(/\.$/, '').replace(/^(?:smtp|rfc-?822)=/i, '');
        if (/\bfrom\s*<?$/i.test(line.slice(0, m.index))) continue;
        const key = address.toLowerCase();
        if (own.has(key) || NOT_RECIPIENT.test(address)) continue;
        const known = mentions.get(key);
        if (known) {
          if (known.lines.at(-1) !== i) known.lines.push(i);
          continue;
        }
        const alone = /^\s*(?:[-*•]\s*)?<?[^\s<>@]+@[^\s<>]+>?\s*(?::|\.\.\.|$)/.test(line);
        mentions.set(key, {
          address,
          lines: [i],
          tier: alone || FAILURE_WORDS.test(line) || FAILURE_WORDS.test(lines[i - 1] ?? '') ? 1 : 2,
        });
      }
    });
    // Addresses listed under a heading are the recipients; else those on failure lines; else any the notice names
    const heading = listed(lines, own);
    const all = [...mentions.values()];
    let found: Mention[] =
      heading.length > 0 ? heading : all.some((m) => m.tier === 1) ? all.filter((m) => m.tier === 1) : all;
    // The subject names the recipient when the text names none (`Warning: user@host - User unknown!`)
    if (found.length === 0) {
      const address = ADDRESS.exec(email.subject)?.[1];
      if (address && !own.has(address.toLowerCase()) && !NOT_RECIPIENT.test(address))
        found = [{ address, lines: [], tier: 2 }];
    }
    if (found.length === 0) found = byDomain(whole, email.text);
    if (found.length === 0) found = echoedTo(lines, own);
    // A reason the notice states on its own applies when it reports one recipient
    const stated = found.length === 1 ? statedReasons(lines)[0] : undefined;
    const recipients = found.map((mention) => {
      const written = mention.address.includes('@') || MALFORMED.test(mention.reason ?? '');
      const address = written ? mention.address : completed(mention.address, email);
      // Every line naming the address may hold its reply (a list, then the details)
      const named = new Set([...mention.lines, ...(mentions.get(address.toLowerCase())?.lines ?? [])]);
      const [reply, pattern] = chooseReply(
        [...named].sort((a, b) => a - b).flatMap((line) => replyAfter(lines, line, mention.address) ?? []),
        mention.reason && asReply(mention.reason),
        stated,
      );
      const status = reply ? statusIn(reply) : undefined;
      const how =
        mention.how ??
        (mention.lines.length === 0
          ? 'subject'
          : !mention.address.includes('@')
            ? address.includes('@')
              ? 'local-part-completed'
              : 'local-part'
            : TIERS[mention.tier]);
      return { address, how, pattern, named, ...(status && { status }), ...(reply && { reply }) };
    });
    // The notice's own words say whether it still retries: a remote's reply it quotes (`You can try again later`) does
    // not, nor does the rest of a line the reply was read from
    const quoted = quotedLines(lines, recipients);
    const delayed = DELAYED_WORDS.test(lines.filter((_, j) => !quoted.has(j)).join('\n')) && !FINAL_WORDS.test(whole);
    const action = delayed ? 'delayed' : 'failed';
    return {
      recipients: recipients.map(({ address, how, pattern, status, reply }): ReportedRecipient => ({
        recipient: address,
        action,
        ...(status && { status }),
        ...(reply && { reply }),
        sources: {
          recipient: `text:notice.${how}`,
          action: `text:notice.${action}-words`,
          ...(status && { status: 'inferred' }),
          ...(reply && { reply: `text:notice.${pattern}` }),
        },
      })),
      delayed,
    };
  },
};

/**
 * The reason a notice gives without naming the recipient, for the one recipient its header names (a Google Group's
 * `the group you tried to contact (x) may not exist, or you may not have permission to post`): the reason it states
 * after a lead line, else its first sentence that tells of a failure
 */
export function noticeReason(email: Email): string | undefined {
  const lines = noticeLines(email.text);
  const stated = statedReasons(lines)[0];
  if (stated) return stated;
  for (const paragraph of paragraphs(lines.join('\n'))) {
    const sentence = unfold(paragraph)
      .split(/(?<=[.!?])\s+/)
      .find((s) => FAILURE_WORDS.test(s) && !/:$/.test(s));
    const reply = sentence && asReply(sentence);
    if (reply) return reply;
  }
  return undefined;
}

/**
 * A notice that names no address but is a bounce by its sender and its subject, or by its sender and its words that
 * the message was not delivered: such a notice stays a bounce whatever `Auto-Submitted` says, as some MTAs label
 * their bounces `auto-replied`
 */
export function isBareNotice(email: Email): boolean {
  if (!DAEMON_FROM.test(email.from)) return false;
  if (BOUNCE_SUBJECT.test(email.subject) || NOTICE_SUBJECT.test(email.subject)) return true;
  return !isVacationReply(email) && NOT_DELIVERED.test(noticeLines(email.text).join('\n'));
}
