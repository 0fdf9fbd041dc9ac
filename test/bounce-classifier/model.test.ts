import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startService } from './_host.ts';

test('service classifies with the built-in model when config names no classifier', async () => {
  const service = await startService();
  try {
    const single = await (
      await service.post('/v2/bnac/single', { message: '451 4.7.1 Greylisting in effect, please come back later' })
    ).json();
    assert.is(single.class, 'GRAYLISTING');
    assert.ok(single.probability > 0.5 && single.probability <= 1);
    // Large enough to be split across pool tasks, while singles run inline; bypassing the cache keeps both honest
    const messages = Array.from(
      { length: 1_500 },
      (_, i) => `${i % 2 ? '552 5.2.2 Mailbox full' : '421 Too many connections'} (ref ${i})`,
    );
    const batch = await (await service.post('/v1/backoff?bypass_cache=true', { messages })).json();
    assert.is(batch.length, messages.length);
    for (const i of [0, 1, 255, 256, 257, 1_499]) {
      const [single] = await (await service.post('/v1/backoff?bypass_cache=true', { message: messages[i] })).json();
      assert.equal(batch[i], single, `message ${i}`);
    }
    const backoff = await (
      await service.post('/v1/backoff', { message: '552 5.2.2 Mailbox full, quota exceeded' })
    ).json();
    assert.equal(backoff, [{ class: 'MAILBOX_FULL', fields: [], actions: [] }]);
  } finally {
    await service.close();
  }
});

test('service cuts the reply out of its wrapper when normalising and classifying with the built-in model', async () => {
  const service = await startService();
  try {
    const wrapped =
      'host mx.example.org[192.0.2.1] said: 550-5.1.1 <a@example.org>: unknown\n550 5.1.1 user (in reply to RCPT TO command)';
    const body = await (await service.post('/normalise', { message: wrapped })).json();
    assert.equal(body, { normalised: '550 5_1_1 __email__ unknown user' });
    const plain = await (
      await service.post('/v2/bnac/single', { message: '550 5.1.1 <a@example.org>: unknown user' })
    ).json();
    assert.equal(await (await service.post('/v2/bnac/single', { message: wrapped })).json(), plain);
    assert.is(plain.class, 'RECIPIENT_NOT_FOUND');
  } finally {
    await service.close();
  }
});

test('a reply that is only a code is classified on its status with the description its standard gives it', async () => {
  const service = await startService();
  try {
    const bnac = async (message: string) => (await (await service.post('/v2/bnac/single', { message })).json()).class;
    const backoff = async (message: string) => (await (await service.post('/v1/backoff', { message })).json())[0].class;
    assert.is(await bnac('550 5.1.1'), 'RECIPIENT_NOT_FOUND');
    assert.is(
      await bnac('host mx.example.org[192.0.2.1] said: 5.1.1 (in reply to RCPT TO command)'),
      'RECIPIENT_NOT_FOUND',
    );
    assert.is(await backoff('552 5.2.2'), 'MAILBOX_FULL');
    // The same text as the status and its description, so corrections and the cache see one reply
    const normalised = async (message: string) =>
      (await (await service.post('/normalise', { message })).json()).normalised;
    assert.is(await normalised('550 5.1.1'), await normalised('550 5.1.1 Bad destination mailbox address'));
    // A reply with words of its own is read as it is
    assert.is.not(await normalised('550 5.1.1 Gone'), await normalised('550 5.1.1 Bad destination mailbox address'));
    // ... also when its words come before a status it repeats with a link
    assert.not.match(await normalised('550 5.7.1 Refused by policy, see 5.7.1 https://help.example/x'), 'authorized');
    // The last line of Gmail's reply, as some logs keep it: nothing to read but a help link and an id
    const gmail = (status: string, key: string) =>
      `${status} https://support.google.com/mail/?p=${key} 41be03b00d2f7-5bd5f8c2b2fsi12a.120 - gsmtp`;
    assert.is(await bnac(gmail('550 5.1.1', 'NoSuchUser')), 'RECIPIENT_NOT_FOUND');
    assert.is(await backoff(gmail('452 4.2.2', 'OverQuotaTemp')), 'MAILBOX_FULL');
    // The link's key is Gmail's name for the cause: 4.7.0's description alone reads as the receiver's own block
    assert.is(
      await normalised(gmail('421 4.7.0', 'UnsolicitedIPError')),
      await normalised(gmail('421 4.7.0 Other or undefined security status unsolicited ip', 'UnsolicitedIPError')),
    );
    assert.is(await bnac(gmail('421 4.7.0', 'UnsolicitedIPError')), 'IP_REPUTATION');
    // A key's closing `Error` names no cause: read as a word, it pulled spam towards a protocol error
    assert.is(await bnac(gmail('550 5.7.1', 'UnsolicitedMessageError')), 'MESSAGE_CONTENT');
    // The keys that rules decide (rules.json's Gmail rows hold these replies as served): content judged a security risk,
    // and a recipient receiving too fast, whose 4.2.1 description alone would read as a disabled mailbox
    assert.is(await bnac(gmail('552 5.7.0', 'BlockedMessage')), 'MESSAGE_CONTENT');
    assert.is(await backoff(gmail('452 4.2.1', 'ReceivingRate')), 'RATE_LIMIT__GENERAL');
  } finally {
    await service.close();
  }
});

test.run();
