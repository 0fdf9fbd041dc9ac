import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_INPUT_CHARS, normalise } from './normalise.ts';

test('normalise reproduces the upstream README example when given the Gmail no-such-user reply', () => {
  const reply =
    "550 5.7.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's " +
    'email address for typos or unnecessary spaces. Learn more at https://support.google.com/mail/?p=NoSuchUser ' +
    '41be03b00d2f7-5bd5f8c2b2fsi1234567a12.120 - gsmtp';
  assert.is(
    normalise(reply),
    "550 5_7_1 the email account that you tried to reach does not exist please try double checking the recipient's " +
      'email address for typos or unnecessary spaces learn more at __url__ google __uuid__ gsmtp',
  );
});

test('normalise replaces addresses and ids when the reply names them', () => {
  assert.is(
    normalise('550 5.1.1 <John.Doe+x@Example.COM>: Recipient address rejected: User unknown in local recipient table'),
    '550 5_1_1 __email__ recipient address rejected user unknown in local recipient table',
  );
  assert.is(
    normalise('554 5.7.1 Service unavailable; Client host [192.0.2.44] blocked using zen.spamhaus.org'),
    '554 5_7_1 service unavailable client host __ip__ blocked using zen spamhaus org',
  );
  assert.is(normalise('421 4.7.0 [2001:db8::25] try later'), '421 4_7_0 __ip__ try later');
  assert.is(
    normalise('451 4.3.0 queue id 4F2A31C0E2 and 1234567 failed'),
    '451 4_3_0 queue id __uuid__ and __uuid__ failed',
  );
});

test('normalise keeps host labels when an id-like label is inside a hostname', () => {
  assert.is(
    normalise('[BN8NAM11FT012.eop-nam11.prod.protection.outlook.com]'),
    '__uuid__ eop nam11 prod protection outlook com',
  );
  assert.is(normalise('mx01.mail.ru refused'), 'mx01 mail ru refused');
});

test('normalise reads bracketed, punctuated and hyphenated addresses and host names as the rewrites do', () => {
  assert.is(
    normalise('from [192.0.2.44]: refused (198.51.100.7). and 203.0.113.9:25'),
    'from __ip__ refused __ip__ and __ip__',
  );
  assert.is(normalise('host <mx-1.in-bound.example.org>, said'), 'host mx 1 in bound example org said');
  assert.is(normalise('via a1b2c3d4.b2c3d4e5.example.net.'), 'via __uuid__ example net');
  // Not addresses: four-digit octets, five parts, a www name (a URL), a host ending in digits.
  assert.is(normalise('1.2.3.4444 and 1.2.3.4.5'), '1 2 3 4444 and __ip__ 5');
  assert.is(normalise('see www.example.com'), 'see __url__ example');
  assert.is(normalise('node abc.123'), 'node abc 123');
});

test('normalise reads seeded host names and IPv4 addresses by the documented rule, whatever punctuation wraps them', () => {
  // The rule (header of normalise.ts): an IPv4 address is __ip__; a host name keeps its labels, an id-like label
  // (6+ letters and digits with a digit, or 6+ digits) is __uuid__, repeats collapse, hyphens split a label.
  let seed = 7;
  const next = (n: number) => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % n;
  const pick = (s: string) => s[next(s.length)]!;
  const isId = (l: string) =>
    l.length >= 6 && /^[a-z0-9]+$/.test(l) && /\d/.test(l) && (/[a-z]/.test(l) || /^\d{6,}$/.test(l));
  for (let n = 0; n < 2000; n++) {
    let core: string;
    let want: string[];
    if (next(3) === 0) {
      core = Array.from({ length: 4 }, () => String(next(256))).join('.');
      want = ['__ip__'];
    } else {
      // Labels start with a letter, so no digit stands on both sides of a dot (which would read as a status or an IP)
      const labels = Array.from(
        { length: 1 + next(4) },
        () => pick('abcmxz') + Array.from({ length: next(9) }, () => pick('abcdefmx0123456789-')).join(''),
      );
      labels.push(Array.from({ length: 2 + next(4) }, () => pick('abcdeknorstuz')).join(''));
      if (labels[0]!.startsWith('www')) labels[0] = `m${labels[0]}`;
      core = labels.join('.');
      want = [];
      for (const label of labels) {
        if (isId(label)) {
          if (want.at(-1) !== '__uuid__') want.push('__uuid__');
        } else want.push(...label.split('-').filter((piece) => piece !== ''));
      }
    }
    // No ";" after the token: "x-...;" is a wrapper marker to the reply cutter (X-Postfix), not token punctuation
    const token = `${next(2) ? pick('[(<') : ''}${core}${next(2) ? pick('])>.,:') : ''}`;
    assert.is(normalise(`at ${token} x`), ['at', ...want, 'x'].join(' '), token);
  }
});

test('normalise names the main host label when a URL has a two-level suffix', () => {
  assert.is(normalise('see http://www.example.co.uk/help?id=1'), 'see __url__ example');
  assert.is(normalise('see https://192.0.2.1/x'), 'see __url__');
});

test('normalise keeps the list a lookup URL names, so a listed domain reads apart from a listed IP', () => {
  assert.is(normalise('rejected (x, https://www.spamhaus.org/query/dbl?domain=x)'), 'rejected x __url__ spamhaus dbl');
  assert.is(normalise('see https://www.spamhaus.org/sbl/query/SBLCSS'), 'see __url__ spamhaus sbl');
  assert.is(normalise('see https://www.spamhaus.org/query/ip/192.0.2.1'), 'see __url__ spamhaus');
  assert.is(normalise('see https://support.example.com/dbl-faq'), 'see __url__ example dbl');
});

test('normalise keeps in-word apostrophes and drops quotes when text is quoted', () => {
  assert.is(normalise("'Recipient’s box' isn't \"full\""), "recipient's box isn't full");
});

test('normalise keeps non-Latin words when the reply is localised', () => {
  assert.is(normalise('550 用户不存在，请检查。'), '550 用户不存在 请检查');
  assert.is(normalise('550 5.1.1 Пользователь не найден.'), '550 5_1_1 пользователь не найден');
  assert.is(
    normalise("Adresse d'au moins un destinataire invalide — OFR_416"),
    "adresse d'au moins un destinataire invalide ofr_416",
  );
});

test('normalise returns an empty string when the input holds only punctuation, NULs or blanks', () => {
  assert.is(normalise(''), '');
  assert.is(normalise(' - \u0000 \t\n ... '), '');
  assert.is(normalise('a\u0000b'), 'a b');
});

test('normalise reads only the first MAX_INPUT_CHARS chars when the input is huge', () => {
  const out = normalise('word '.repeat(200_000));
  assert.is(out.length, MAX_INPUT_CHARS);
  assert.ok(out.endsWith('word w'), 'the cut falls inside the 820th word');
  assert.type(normalise('\ud800'.repeat(5000) + 'x'.repeat(1_000_000)), 'string');
});

test('normalise is idempotent when applied to its own output', () => {
  const once = normalise(
    '451-4.7.1 Greylisted, see http://postgrey.schweikert.ch/help/example.com.html; try again at 10:22:33',
  );
  assert.is(normalise(once), once);
});

test.run();
