import { replyOrText, statusIn, unfold } from '../reply.ts';
import type { BounceForm } from '../types.ts';
import { addressBlocks } from './_blocks.ts';

/** Courier's notice: `<rcpt>:`, the remote host, then the SMTP transcript (`>>> RCPT TO`, `<<< 550 ...`) */
export const courier: BounceForm = {
  name: 'courier',
  detect: (email) => /running the Courier mail server/i.test(email.text),
  read(email) {
    const delayed = /DELAYED MAIL|has not yet been delivered/i.test(email.text);
    const recipients = addressBlocks(email.text).map(({ address, lines }) => {
      const answers = lines.filter((l) => l.startsWith('<<< ')).map((l) => l.slice(4));
      const reply = answers.length > 0 ? unfold(answers.join('\n')) : replyOrText(lines.join('\n'));
      const remote = lines
        .map((l) => /^([a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){1,8}) \[[^\]]{1,100}\]:?$/i.exec(l.trim())?.[1])
        .find(Boolean);
      const status = statusIn(reply);
      return {
        recipient: address,
        action: delayed ? 'delayed' : 'failed',
        ...(status && { status }),
        reply,
        ...(remote && { remote_mta: remote }),
      };
    });
    return { recipients, delayed };
  },
};
