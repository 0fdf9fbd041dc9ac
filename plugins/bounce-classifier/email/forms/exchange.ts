import { ADDRESS, bareAddress, replyOrText, statusIn } from '../reply.ts';
import type { BounceForm, ReportedRecipient } from '../types.ts';

const RETURNED = /Remote Server returned '/i;

/**
 * Microsoft Exchange and Microsoft 365 NDRs (HTML): `Diagnostic information for administrators`, each recipient's
 * address on a line of its own followed by `Remote Server returned '<reply>'`; without that line, the enhanced code
 * the friendly text names.
 */
export const exchange: BounceForm = {
  name: 'exchange',
  detect: (email) => /Diagnostic information for administrators|Remote Server returned '/i.test(email.text),
  read(email) {
    const lines = email.text.split(/\r?\n/).map((l) => l.trim());
    const recipients: ReportedRecipient[] = [];
    const remote = /Receiving server:\s*(\S+)/i.exec(email.text)?.[1] ?? undefined;
    for (let i = 0; i < lines.length; i++) {
      if (!RETURNED.test(lines[i]!)) continue;
      let address = '';
      for (let j = i - 1; j >= 0 && j >= i - 3; j--) {
        if (ADDRESS.test(lines[j]!) && !/^Generating server|^Receiving server/i.test(lines[j]!)) {
          address = bareAddress(lines[j]!);
          break;
        }
      }
      const reply = replyOrText(lines[i]!);
      const status = statusIn(reply);
      recipients.push({
        recipient: address,
        action: 'failed',
        ...(status && { status }),
        reply,
        ...(remote && { remote_mta: remote }),
      });
    }
    if (recipients.length === 0) {
      const address =
        /(?:Delivery has failed to these recipients or groups|Your message to|wasn't delivered to)[:\s]{0,20}<?([^\s<>@]{1,64}@[a-z0-9.-]{0,253}[a-z0-9])/i.exec(
          email.text,
        )?.[1];
      const status = statusIn(email.text);
      if (address) recipients.push({ recipient: address, action: 'failed', ...(status && { status }) });
    }
    return { recipients };
  },
};
