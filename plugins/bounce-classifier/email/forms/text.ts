import {
  actionOf,
  ADDRESS,
  bareAddress,
  NOT_RECIPIENT,
  NOT_RECIPIENT_LINE,
  ownAddresses,
  paragraphs,
  replyIn,
  SENDER_LINE,
  statusIn,
} from '../reply.ts';
import { FINAL_WORDS } from '../families.ts';
import type { BounceForm, ReportedRecipient } from '../types.ts';

/** Words of bounce subjects, in the languages bounces come in most */
export const BOUNCE_SUBJECT = new RegExp(
  'undeliver|undelivered|delivery (?:status|failure|failed|has failed|notification)|returned mail|failure notice|' +
    'mail delivery (?:failed|failure|system)|non[- ]?(?:remis|recapitabile|entregado)|unzustellbar|nicht zugestellt|' +
    'non distribuita|no se pudo entregar|niet bezorgd|nie dostarczono|não entregue|配信(?:エラー|不能|失敗)|未送达|退信|전달 실패',
  'i',
);

/** A line holding an address alone (`  user@host`, `<user@host>:`), as lists of recipients open each one's lines */
const ADDRESS_LINE = /^([ \t]*)<?[^\s<>@]{1,64}@[^\s<>@]{1,255}>?:?$/;

/**
 * A paragraph cut where an address alone on its line, indented no deeper than the paragraph's first line, opens the
 * next recipient's lines: a reason listed under one recipient does not run on into the next (Exim's `  a@x` then its
 * indented reason, then `  b@x`)
 */
function blocks(paragraph: string): string[] {
  const lines = paragraph.split('\n');
  const indent = lines[0]!.length - lines[0]!.trimStart().length;
  const out: string[][] = [];
  for (const line of lines) {
    const alone = ADDRESS_LINE.exec(line);
    if (out.length === 0 || (alone && alone[1]!.length <= indent)) out.push([line]);
    else out.at(-1)!.push(line);
  }
  return out.map((block) => block.join('\n'));
}

/** The first address of a paragraph on a line that does not name the sender */
function addressIn(paragraph: string): string | undefined {
  for (const line of paragraph.split('\n')) {
    if (!line.includes('@') || SENDER_LINE.test(line)) continue;
    const match = ADDRESS.exec(line);
    if (match) return match[1];
  }
  return undefined;
}

/** The addresses of a paragraph that can be a recipient's: none from header lines, contact advice or a daemon's box */
function recipientsIn(paragraph: string): string[] {
  return paragraph
    .split('\n')
    .filter((line) => line.includes('@') && !NOT_RECIPIENT_LINE.test(line))
    .flatMap((line) => [...line.matchAll(new RegExp(ADDRESS.source, 'gi'))].map((m) => m[1]!.toLowerCase()))
    .filter((address) => !NOT_RECIPIENT.test(address));
}

/**
 * Any other form, in any language: each SMTP reply line of the text, with the address named in it or in the lines
 * just before it. Reads nothing from a text without a reply line.
 */
export const text: BounceForm = {
  name: 'text',
  detect: (email) =>
    /^(?:mailer-daemon|postmaster|mail-daemon|mdaemon|bounce)s?@/.test(email.from) ||
    BOUNCE_SUBJECT.test(email.subject) ||
    email.mediaType === 'multipart/report',
  read(email) {
    const recipients: ReportedRecipient[] = [];
    const seen = new Set<string>();
    let lastAddress = '';
    // The first reply line with an enhanced status and no address before it, and the addresses the text names after
    // it: a notice may give its reason before listing the recipient (`Could not be delivered because of` the reply,
    // then `The following recipients were affected:` and the address)
    let orphan: string | undefined;
    const after = new Set<string>();
    for (const paragraph of paragraphs(email.text).flatMap(blocks)) {
      // The address pattern scans every word: only paragraphs with an `@` can hold one
      const address = paragraph.includes('@') ? addressIn(paragraph) : undefined;
      if (orphan && address) for (const named of recipientsIn(paragraph)) after.add(named);
      const reply = replyIn(paragraph);
      // Only an SMTP reply line makes a recipient here: a wrapper's words without a code are no reply
      if (!reply || !/^[45]\d\d[ -]/.test(reply)) {
        if (address) lastAddress = address;
        continue;
      }
      // An address alone on the block's first line opens the block: it is the recipient, whatever addresses the reply
      // names (1&1's SPF reply names the sender's `identity`)
      const opener = ADDRESS_LINE.test(paragraph.split('\n', 1)[0]!) ? address : undefined;
      const recipient = bareAddress(opener ?? ADDRESS.exec(reply)?.[1] ?? address ?? lastAddress);
      // A reply line with no address before it is a phone number or a wrapper's words, not a recipient's reply,
      // unless it has an enhanced status and the one address named after it takes it (below)
      if (recipient === '') {
        if (statusIn(reply)) orphan ??= reply;
        continue;
      }
      if (seen.has(`${recipient}\n${reply}`)) continue;
      seen.add(`${recipient}\n${reply}`);
      const status = statusIn(reply);
      recipients.push({ recipient, action: actionOf(status ?? reply[0], 'failed'), ...(status && { status }), reply });
    }
    // The notice goes to the sender: the sender's address is no recipient's
    for (const own of ownAddresses(email)) after.delete(own);
    if (recipients.length === 0 && orphan && after.size === 1) {
      const status = statusIn(orphan)!;
      recipients.push({ recipient: [...after][0]!, action: actionOf(status, 'failed'), status, reply: orphan });
    }
    // A temporary reply in a notice that says the failure is final failed all the same (hMailServer's `Tried 5 time(s)`
    // after a greylisting 451). As in the families' forms, the final words overrule words of delay, which the reply
    // itself may hold (`try again later`)
    if (FINAL_WORDS.test(`${email.subject}\n${email.text}`)) {
      for (const r of recipients) if (r.action === 'delayed') r.action = 'failed';
    }
    return { recipients, delayed: recipients.length > 0 && recipients.every((r) => r.action === 'delayed') };
  },
};
