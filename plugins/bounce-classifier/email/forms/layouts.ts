import { ADDRESS, bareAddress, paragraphs, replyIn, replyOrText, statusIn, unfold } from '../reply.ts';
import type { ReportedRecipient } from '../types.ts';
import { addressBlocks } from './_blocks.ts';

/**
 * The shapes a mail system's notice takes, each read by one function here. What is particular to a system (its
 * marker lines, labels, where it names the remote host) is data in its family file (`families/*.json`), compiled into
 * `Rules`; the readers know only the shape.
 */
export type Layout = 'address-blocks' | 'indented-list' | 'sections' | 'labelled' | 'returned-line' | 'single';

/** A family's patterns, compiled (case-insensitive, `^`/`$` at line ends); each list is tried in order */
export interface Rules {
  /** A line opening a recipient's block: group 1 the address, group 2 the rest of the line */
  opener?: RegExp;
  /** Lines of a block that are the sending MTA's own words, left out of the reply */
  skip_lines?: RegExp;
  /** The sending MTA's own words after the reply on its line (qmail's `I'm not going to try again; ...`), cut off */
  trailer?: RegExp;
  /** The prefix of the remote's lines in a transcript (`<<< `) */
  answer_prefix?: string;
  /** A transcript line naming the recipient a following answer is for: group 1 the address */
  asked?: RegExp;
  /** The MTA's own verdict on a recipient in a transcript (`<x>... Deferred: ...`): group 1 address, group 2 verdict */
  verdict?: RegExp;
  /**
   * The MTA's line saying it gave up after its queue time (sendmail's `Message could not be delivered for 5 days`):
   * the reason of recipients whose verdict names no cause (a bare `Deferred`)
   */
  expiry?: RegExp;
  /** A status code the MTA writes beside its own reason (qmail's `(#5.1.1)`): group 1 */
  status?: RegExp[];
  /** Where the text names the remote host: group 1 */
  remote_mta?: RegExp[];
  /** Where the text names a recipient: group 1 */
  recipient?: RegExp[];
  /** The line before an indented address that is the sender's, not a recipient's (Exim's `A message sent by`) */
  sender_lead?: RegExp;
  /** The text lists failed addresses (an indented list reads its hidden recipients only then) */
  lists_failures?: RegExp;
  /** Section headings: the failed addresses, and the session transcript */
  addresses_section?: RegExp;
  transcript_section?: RegExp;
  /** The MTA's reason under an address (`(reason: ...)`): group 1 */
  reason?: RegExp;
  /** The line before a recipient's address, and the label before its reason */
  lead?: RegExp;
  label?: RegExp;
  /** The line carrying a recipient's reply, and lines near it that name an address but no recipient */
  reply_line?: RegExp;
  not_address?: RegExp;
  /** The words after which the reply follows: group 1 the rest of the text */
  reply_lead?: RegExp;
}

/**
 * Layouts that list each recipient's reason under its address (Exim indents it beneath, and writes none when it has
 * none): the prose after the list is the MTA's own words, no recipient's reply
 */
export const LISTS_REASONS: ReadonlySet<Layout> = new Set(['indented-list']);

/** What a reader answers: recipients in order, and whether the notice says the server still retries */
export type Reader = (text: string, rules: Rules, delayed: boolean) => ReportedRecipient[];

/** Group 1 of the first pattern that matches */
function first(patterns: readonly RegExp[] | undefined, text: string): string | undefined {
  for (const pattern of patterns ?? []) {
    const found = pattern.exec(text)?.[1];
    if (found) return found;
  }
  return undefined;
}

/** A recipient with the fields that are known */
function recipientOf(address: string, delayed: boolean, reply: string, remote?: string, status?: string) {
  const found = status ?? statusIn(reply);
  return {
    recipient: address,
    action: delayed ? 'delayed' : 'failed',
    ...(found && { status: found }),
    ...(reply !== '' && { reply }),
    ...(remote && { remote_mta: remote }),
  };
}

/**
 * `<address>:` lines, each opening a block of the lines below it (qmail, Postfix, Courier, Yahoo): the reply is the
 * remote's transcript lines when there are, else the reply the block holds, else its text
 */
function addressBlocksReader(text: string, rules: Rules, delayed: boolean): ReportedRecipient[] {
  return addressBlocks(text, rules.opener).map(({ address, lines }) => {
    const body = rules.skip_lines ? lines.filter((l) => !rules.skip_lines!.test(l)) : lines;
    const joined = body.join('\n');
    const prefix = rules.answer_prefix;
    const answers = prefix ? body.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length)) : [];
    const whole = answers.length > 0 ? unfold(answers.join('\n')) : replyOrText(joined);
    const reply = rules.trailer ? whole.replace(rules.trailer, '') : whole;
    const status = statusIn(reply) ?? first(rules.status, joined);
    return recipientOf(address, delayed, reply, first(rules.remote_mta, joined), status);
  });
}

/**
 * Each failed address on a line indented by two spaces, its details indented further (Exim); a hidden recipient
 * (`an undisclosed address`) names the address it was generated from on its next line
 */
function indentedListReader(text: string, rules: Rules, delayed: boolean): ReportedRecipient[] {
  const recipients: ReportedRecipient[] = [];
  let details: string[] | undefined;
  const close = () => {
    const last = recipients.at(-1);
    if (!last || !details) return;
    const joined = unfold(details.join('\n'));
    const reply = replyOrText(joined);
    const status = statusIn(reply);
    const remote = first(rules.remote_mta, joined);
    if (reply !== '') last.reply = reply;
    if (status) last.status = status;
    if (remote) last.remote_mta = remote;
  };
  let hidden = false;
  // Asked once: per line it would scan the whole text again
  const listsFailures = rules.lists_failures?.test(text) ?? false;
  // The last line that is not blank, for the sender's lead
  let lastWords = '';
  for (const line of text.split(/\r?\n/)) {
    const lead = lastWords;
    if (line.trim() !== '') lastWords = line;
    const generated = /^ {4,}\(generated from <?([^\s<>()@]+@[^\s<>()]+?)>?\)\s*$/.exec(line);
    if (generated && hidden) {
      recipients.push({ recipient: generated[1]!, action: delayed ? 'delayed' : 'failed' });
      details = [];
      hidden = false;
      continue;
    }
    // A line at the addresses' indent naming none (`an undisclosed address`, `pipe to |...`) ends the reason above it
    const unnamed = /^ {2}\S[^@]*$/.test(line) && !/^ {2}(?:host|SMTP|-)/i.test(line);
    if (unnamed) {
      close();
      details = undefined;
    }
    hidden = listsFailures && unnamed;
    const address = /^ {2}(<?[^\s<>@]+@[^\s<>]+?>?)(?:\s*$|\s+\S)/.exec(line);
    if (address && !/^ {3}/.test(line)) {
      close();
      // The sender, listed when the bounce goes to an errors address other than the sender's: no recipient
      if (rules.sender_lead?.test(lead)) {
        details = undefined;
        continue;
      }
      recipients.push({ recipient: bareAddress(address[1]!), action: delayed ? 'delayed' : 'failed' });
      details = [];
      const rest = line.slice(2 + address[1]!.length).trim();
      if (rest !== '') details.push(rest);
    } else if (details && /^ {4,}\S|^\t/.test(line)) {
      details.push(line);
    } else if (details && (line.trim() === '' || /^-{3,}/.test(line))) {
      close();
      details = undefined;
    }
  }
  close();
  return recipients;
}

/**
 * Sections under `--- heading ---` lines (sendmail): the failed addresses, each with an optional reason, then the
 * session transcript whose answer lines are the remote's replies, each for the recipient the line before asked for
 */
function sectionsReader(text: string, rules: Rules, delayed: boolean): ReportedRecipient[] {
  const lines = text.split(/\r?\n/);
  const recipients: ReportedRecipient[] = [];
  const prefix = rules.answer_prefix ?? '<<< ';
  let section = '';
  let named = 0;
  let answered = 0;
  // The first recipient of each address, for the answer lines that name theirs
  const byAddress = new Map<string, ReportedRecipient>();
  // Recipients whose reply is a verdict that names no cause, until an expiry line gives them one
  const causeless = new Set<ReportedRecipient>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    if (trimmed.startsWith('---') && trimmed.endsWith('---')) {
      section = rules.addresses_section?.test(trimmed)
        ? 'addresses'
        : rules.transcript_section?.test(trimmed)
          ? 'transcript'
          : '';
      continue;
    }
    if (section === 'addresses') {
      const reason = rules.reason?.exec(trimmed);
      if (reason && recipients.length > 0) recipients.at(-1)!.reply = reason[1]!.replace(/\)$/, '').trim();
      // An address alone on its line, or with the MTA's comment (`(unrecoverable error)`), which is no reply
      else if (/^<?[^\s<>@]{1,64}@[^\s<>@]{1,255}>?(?:\s+\([^()]{0,200}\))?$/.test(trimmed)) {
        const recipient: ReportedRecipient = {
          recipient: bareAddress(trimmed),
          action: delayed ? 'delayed' : 'failed',
        };
        recipients.push(recipient);
        if (!byAddress.has(recipient.recipient.toLowerCase()))
          byAddress.set(recipient.recipient.toLowerCase(), recipient);
      }
    } else if (section === 'transcript') {
      const remote = first(rules.remote_mta, line);
      // Each recipient takes the first host named: past `named`, all have one (a loop per line is quadratic)
      if (remote) for (; named < recipients.length; named++) recipients[named]!.remote_mta ??= remote;
      // The MTA's own verdict on a listed recipient that has no answer yet (`<x>... Deferred: Connection timed out`)
      const verdict = rules.verdict?.exec(trimmed);
      const judged = verdict ? byAddress.get(bareAddress(verdict[1]!).toLowerCase()) : undefined;
      if (judged) {
        if (judged.reply === undefined) {
          judged.reply = unfold(verdict![2]!);
          if (!judged.reply.includes(':')) causeless.add(judged);
        }
        continue;
      }
      if (rules.expiry?.test(trimmed)) {
        for (const recipient of causeless) recipient.reply = trimmed;
        causeless.clear();
        continue;
      }
      // The MTA's own verdict (`554 Too many hops`) is a bare reply line
      const bare = /^[45]\d\d[ -]\S/.test(line);
      if (!line.startsWith(prefix) && !bare) continue;
      const answer = bare ? line : line.slice(prefix.length);
      const asked = rules.asked?.exec(lines[i - 1] ?? '')?.[1];
      const target = asked ? byAddress.get(asked.toLowerCase()) : undefined;
      if (target && !bare) target.reply = unfold(answer);
      // Any other answer line answers those without a reply: once it has, all have one
      else for (; answered < recipients.length; answered++) recipients[answered]!.reply ??= unfold(answer);
    }
  }
  for (const recipient of recipients) {
    const status = statusIn(recipient.reply ?? '');
    if (status) recipient.status = status;
  }
  return recipients;
}

/** A lead line, the address on the next line, a label line, then the reason up to a blank line (Domino) */
function labelledReader(text: string, rules: Rules, delayed: boolean): ReportedRecipient[] {
  const lines = text.split('\n').map((l) => l.trim());
  const recipients: ReportedRecipient[] = [];
  const skipBlank = (j: number) => {
    while (j < lines.length && lines[j] === '') j++;
    return j;
  };
  for (let i = 0; i < lines.length; i++) {
    if (!rules.lead?.test(lines[i]!)) continue;
    let j = skipBlank(i + 1);
    const address = lines[j] ?? '';
    j = skipBlank(j + 1);
    if (!rules.label?.test(lines[j] ?? '')) continue;
    j = skipBlank(j + 1);
    const reason: string[] = [];
    for (; j < lines.length && lines[j] !== ''; j++) reason.push(lines[j]!);
    recipients.push(recipientOf(bareAddress(address), delayed, unfold(reason.join('\n'))));
    i = j;
  }
  return recipients;
}

/**
 * A line carrying each recipient's reply, its address on one of the three lines before it (Exchange); without such
 * lines, the recipient the text names and the enhanced code it gives
 */
function returnedLineReader(text: string, rules: Rules, delayed: boolean): ReportedRecipient[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const recipients: ReportedRecipient[] = [];
  const remote = first(rules.remote_mta, text);
  const seen = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    if (!rules.reply_line?.test(lines[i]!)) continue;
    let address = '';
    for (let j = i - 1; j >= 0 && j >= i - 3; j--) {
      if (ADDRESS.test(lines[j]!) && !rules.not_address?.test(lines[j]!)) {
        address = bareAddress(lines[j]!);
        break;
      }
    }
    const reply = replyOrText(lines[i]!);
    // Exchange 2013 and later repeat the reply under its date (`10/14/2025 10:12:49 AM - Remote Server at ...`)
    if (seen.has(`${address}\n${reply}`)) continue;
    seen.add(`${address}\n${reply}`);
    // and name the server on the reply's own line (`Remote Server at mx.example.net (192.0.2.25) returned '550 ...'`),
    // so each recipient gets the one that answered it
    recipients.push(recipientOf(address, delayed, reply, first(rules.remote_mta, lines[i]!) ?? remote));
  }
  if (recipients.length > 0) return recipients;
  const address = first(rules.recipient, text);
  const status = statusIn(text);
  return address ? [{ recipient: address, action: delayed ? 'delayed' : 'failed', ...(status && { status }) }] : [];
}

/** One recipient the text names, its reply after a lead (Gmail) */
function singleReader(text: string, rules: Rules, delayed: boolean): ReportedRecipient[] {
  const address = first(rules.recipient, text);
  if (!address) return [];
  const after = rules.reply_lead?.exec(text)?.[1] ?? text;
  const reply = replyIn(after) ?? paragraphs(after)[0]?.trim() ?? '';
  return [recipientOf(bareAddress(address), delayed, reply)];
}

export const READERS: Record<Layout, Reader> = {
  'address-blocks': addressBlocksReader,
  'indented-list': indentedListReader,
  sections: sectionsReader,
  labelled: labelledReader,
  'returned-line': returnedLineReader,
  single: singleReader,
};
