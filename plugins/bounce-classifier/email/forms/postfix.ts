import { replyOrText, statusIn } from '../reply.ts';
import type { BounceForm } from '../types.ts';
import { addressBlocks } from './_blocks.ts';

/** Postfix's bounce text: `<rcpt>: host mx[ip] said: <reply> (in reply to RCPT TO command)`, wrapped and indented */
export const postfix: BounceForm = {
  name: 'postfix',
  detect: (email) => /This is the mail system at host|The Postfix program/i.test(email.text),
  read(email) {
    const delayed =
      /message could not be delivered for [\d.]+ (?:hour|minute|day)s?|will keep trying|Delayed Mail \(still being retried\)/i.test(
        email.text + email.subject,
      );
    const recipients = addressBlocks(
      email.text,
      /^<([^<>\s@]{1,64}@[^<>\s@]{1,255})>(?: \(expanded from <[^>]{1,320}>\))?:(.*)$/,
    ).map(({ address, lines }) => {
      const text = lines.join('\n');
      const reply = replyOrText(text);
      const remote = /\bhost\s+([^\s[]+)\[/i.exec(text)?.[1];
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
