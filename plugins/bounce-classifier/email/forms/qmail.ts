import { replyOrText, statusIn, unfold } from '../reply.ts';
import type { BounceForm } from '../types.ts';
import { addressBlocks } from './_blocks.ts';

/** qmail-send's text: `<rcpt>:` then the remote's words after `Remote host said:`, or qmail's own `(#5.1.1)` reason */
export const qmail: BounceForm = {
  name: 'qmail',
  detect: (email) => /This is the qmail-send program|qmail-send program at/i.test(email.text),
  read(email) {
    const recipients = addressBlocks(email.text).map(({ address, lines }) => {
      const body = lines.filter(
        (l) => !/^\s*(?:Giving up on|I'm not going to try again|I'll try again|Last attempt)/i.test(l),
      );
      const joined = body.join('\n');
      const text = unfold(joined);
      const reply = replyOrText(joined);
      const code = /\(#(\d\.\d{1,3}\.\d{1,3})\)/.exec(text)?.[1];
      const status = statusIn(reply) ?? code;
      const remote = /^(\S+) does not like recipient/i.exec(text)?.[1] ?? /Connected to (\S+) but/i.exec(text)?.[1];
      return {
        recipient: address,
        action: 'failed',
        ...(status && { status }),
        reply,
        ...(remote && { remote_mta: remote }),
      };
    });
    return { recipients };
  },
};
