import { bareAddress, replyOrText, statusIn, unfold } from '../reply.ts';
import type { BounceForm, ReportedRecipient } from '../types.ts';

/**
 * Exim's notice (`This message was created automatically by mail delivery software`): each failed address on a line
 * indented by two spaces, its details indented further (`host ... [ip]`, `SMTP error from remote mail server after
 * RCPT TO:<...>:`, the reply). `has not yet been delivered` marks a delay warning.
 */
export const exim: BounceForm = {
  name: 'exim',
  detect: (email) => /This message was created automatically by mail delivery software/i.test(email.text),
  read(email) {
    const delayed = /has not yet been delivered/i.test(email.text);
    const recipients: ReportedRecipient[] = [];
    let details: string[] | undefined;
    const close = () => {
      const last = recipients.at(-1);
      if (!last || !details) return;
      const text = unfold(details.join('\n'));
      const remote = /\bhost (\S{1,255}) \[/i.exec(text)?.[1];
      const reply = replyOrText(text);
      const status = statusIn(reply);
      if (reply !== '') last.reply = reply;
      if (status) last.status = status;
      last.action = delayed ? 'delayed' : 'failed';
      if (remote) last.remote_mta = remote;
    };
    let hidden = false;
    // Asked once: per line it would scan the whole text again
    const listsFailures = /following address(?:es|\(es\))? failed|could not be delivered/i.test(email.text);
    for (const line of email.text.split(/\r?\n/)) {
      // A hidden recipient (`an undisclosed address`) names the address it was generated from on its next line
      const generated = /^ {4,}\(generated from <?([^\s<>()@]+@[^\s<>()]+?)>?\)\s*$/.exec(line);
      if (generated && hidden) {
        recipients.push({ recipient: generated[1]!, action: delayed ? 'delayed' : 'failed' });
        details = [];
        hidden = false;
        continue;
      }
      hidden = listsFailures && /^ {2}\S[^@]*$/.test(line) && !/^ {2}(?:host|SMTP|-)/i.test(line);
      const address = /^ {2}(<?[^\s<>@]+@[^\s<>]+?>?)(?:\s*$|\s+\S)/.exec(line);
      if (address && !/^ {3}/.test(line)) {
        close();
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
    return { recipients, delayed };
  },
};
