import { bareAddress, statusIn, unfold } from '../reply.ts';
import type { BounceForm, ReportedRecipient } from '../types.ts';

/**
 * sendmail's notice: `----- The following addresses had permanent fatal errors -----`, each address with an optional
 * `(reason: ...)`, then `----- Transcript of session follows -----` whose `<<<` lines are the remote's replies.
 */
export const sendmail: BounceForm = {
  name: 'sendmail',
  detect: (email) => /-{3,} ?(?:The following addresses had|Transcript of session follows)/i.test(email.text),
  read(email) {
    const delayed = /transient non-fatal errors|Warning: could not send message for past/i.test(email.text);
    const lines = email.text.split(/\r?\n/);
    const recipients: ReportedRecipient[] = [];
    let section = '';
    let named = 0;
    let answered = 0;
    // The first recipient of each address, for the `<<<` lines that name theirs
    const byAddress = new Map<string, ReportedRecipient>();
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const trimmed = line.trim();
      if (trimmed.startsWith('---') && trimmed.endsWith('---')) {
        section = /following addresses/i.test(trimmed) ? 'addresses' : /Transcript/i.test(trimmed) ? 'transcript' : '';
        continue;
      }
      if (section === 'addresses') {
        const reason = /^\(reason:\s*(.*)$/i.exec(trimmed);
        if (reason && recipients.length > 0) recipients.at(-1)!.reply = reason[1]!.replace(/\)$/, '').trim();
        else if (/^<?[^\s<>@]{1,64}@[^\s<>@]{1,255}>?$/.test(trimmed)) {
          const recipient: ReportedRecipient = { recipient: bareAddress(line), action: delayed ? 'delayed' : 'failed' };
          recipients.push(recipient);
          if (!byAddress.has(recipient.recipient.toLowerCase()))
            byAddress.set(recipient.recipient.toLowerCase(), recipient);
        }
      } else if (section === 'transcript') {
        const remote = /while talking to ([^\s:]+?)\.?:/i.exec(line)?.[1];
        // Each recipient takes the first host named: past `named`, all have one (a loop per line is quadratic)
        if (remote) for (; named < recipients.length; named++) recipients[named]!.remote_mta ??= remote;
        // `<<<` marks the remote's lines; sendmail's own verdict (`554 Too many hops`) is a bare reply line
        const bare = /^[45]\d\d[ -]\S/.test(line);
        if (!line.startsWith('<<< ') && !bare) continue;
        const answer = bare ? line : line.slice(4);
        // The `<<<` line after `>>> RCPT To:<address>` answers that address
        const asked = /^>>> RCPT To:\s*<([^>]+)>/i.exec(lines[i - 1] ?? '')?.[1];
        const target = asked ? byAddress.get(asked.toLowerCase()) : undefined;
        if (target && !bare) target.reply = unfold(answer);
        // Any other `<<<` line answers those without a reply: once it has, all have one
        else for (; answered < recipients.length; answered++) recipients[answered]!.reply ??= unfold(answer);
      }
    }
    for (const recipient of recipients) {
      const status = statusIn(recipient.reply ?? '');
      if (status) recipient.status = status;
    }
    return { recipients, delayed };
  },
};
