import { bareAddress, statusIn, unfold } from '../reply.ts';
import type { BounceForm, ReportedRecipient } from '../types.ts';

/** Lotus (HCL) Domino's notice: `was not delivered to:` the address, `because:` the reason (`DELIVERY FAILURE:` subject) */
export const domino: BounceForm = {
  name: 'domino',
  detect: (email) =>
    /^DELIVERY (?:FAILURE|REPORT)\b/i.test(email.subject) ||
    (/was not delivered to:/i.test(email.text) && /^\s*because:\s*$/im.test(email.text)),
  read(email) {
    const lines = email.text.split('\n').map((l) => l.trim());
    const recipients: ReportedRecipient[] = [];
    for (let i = 0; i < lines.length; i++) {
      if (!/was not delivered to:$/i.test(lines[i]!)) continue;
      // The address on the next non-blank line, then `because:`, then the reason up to a blank line
      let j = i + 1;
      while (j < lines.length && lines[j] === '') j++;
      const address = lines[j] ?? '';
      j++;
      while (j < lines.length && lines[j] === '') j++;
      if (!/^because:$/i.test(lines[j] ?? '')) continue;
      j++;
      while (j < lines.length && lines[j] === '') j++;
      const reason: string[] = [];
      for (; j < lines.length && lines[j] !== ''; j++) reason.push(lines[j]!);
      const reply = unfold(reason.join('\n'));
      const status = statusIn(reply);
      recipients.push({ recipient: bareAddress(address), action: 'failed', ...(status && { status }), reply });
      i = j;
    }
    return { recipients };
  },
};
