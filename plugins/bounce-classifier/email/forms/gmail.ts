import { bareAddress, paragraphs, replyIn, statusIn } from '../reply.ts';
import type { BounceForm } from '../types.ts';

const RECIPIENT =
  /(?:wasn't delivered to|Delivery to the following recipients? failed permanently:|problem delivering your message to)[ \t\n]{0,20}<?([^\s<>@]{1,64}@[a-z0-9.-]{0,253}[a-z0-9])/i;

/**
 * Gmail's notice (`mailer-daemon@googlemail.com`): `** Address not found **`, `Your message wasn't delivered to
 * <rcpt>`, and the remote's reply after `The response from the remote server was:` or `The response was:`. A
 * `temporary problem` that Gmail retries is a delay.
 */
export const gmail: BounceForm = {
  name: 'gmail',
  detect: (email) =>
    /@(?:googlemail|gmail)\.com$/.test(email.from) ||
    /The response (?:from the remote server )?was:|Technical details of (?:permanent|temporary) failure:/i.test(
      email.text,
    ),
  read(email) {
    const delayed = /temporary problem delivering|will retry for|Delivery incomplete/i.test(email.text);
    const address = RECIPIENT.exec(email.text)?.[1];
    const after =
      /(?:The response (?:from the remote server )?was|Technical details of (?:permanent|temporary) failure):\s*\n?([\s\S]*)/i.exec(
        email.text,
      )?.[1] ?? email.text;
    const reply = replyIn(after) ?? paragraphs(after)[0]?.trim() ?? '';
    const status = statusIn(reply);
    const recipients = address
      ? [
          {
            recipient: bareAddress(address),
            action: delayed ? 'delayed' : 'failed',
            ...(status && { status }),
            ...(reply && { reply }),
          },
        ]
      : [];
    return { recipients, delayed };
  },
};
