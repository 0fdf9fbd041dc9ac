import { replyOrText, statusIn } from '../reply.ts';
import type { BounceForm } from '../types.ts';
import { addressBlocks } from './_blocks.ts';

/** Yahoo's text: `Sorry, we were unable to deliver your message...`, then `<rcpt>:` and `Remote host said: <reply>` */
export const yahoo: BounceForm = {
  name: 'yahoo',
  detect: (email) => /Sorry, we were unable to deliver your message to the following address/i.test(email.text),
  read(email) {
    const recipients = addressBlocks(email.text).map(({ address, lines }) => {
      const reply = replyOrText(lines.join('\n'));
      const status = statusIn(reply);
      return { recipient: address, action: 'failed', ...(status && { status }), reply };
    });
    return { recipients };
  },
};
