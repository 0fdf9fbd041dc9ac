import { bareAddress, statusIn, unfold } from '../reply.ts';
import type { BounceForm } from '../types.ts';

/** Lotus (HCL) Domino's notice: `was not delivered to:` the address, `because:` the reason (`DELIVERY FAILURE:` subject) */
export const domino: BounceForm = {
  name: 'domino',
  detect: (email) => /^DELIVERY (?:FAILURE|REPORT)\b/i.test(email.subject) || /was not delivered to:\s*\n[\s\S]*?because:/i.test(email.text),
  read(email) {
    const recipients = [];
    const pattern = /was not delivered to:\s*\n\s*\n?\s*([^\n]+)\s*\n\s*\n?\s*because:\s*\n?\s*\n?([\s\S]*?)(?:\n\s*\n|$)/gi;
    for (const match of email.text.matchAll(pattern)) {
      const reply = unfold(match[2]!);
      const status = statusIn(reply);
      recipients.push({ recipient: bareAddress(match[1]!), action: 'failed', ...(status && { status }), reply });
    }
    return { recipients };
  },
};
