/**
 * The hostile bounce emails of issue 20 for `test/bounce-classifier/email-hostile.test.ts` and
 * `bench/bounce-email-hostile.bench.ts`, each under the default 8 MiB body limit, CRLF line ends as SMTP delivers
 * them. `expect` is the answer the server must give: a status, and for a 200 the recipients it must still read.
 */

/** A delivery-status part for `count` recipients of `@example.net`, one reply for all: the figures are the reading's */
function statusPart(count: number): string {
  const groups = Array.from(
    { length: count },
    (_, i) =>
      `Final-Recipient: rfc822; user${i}@example.net\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 User unknown\r\n`,
  );
  return `--b\r\nContent-Type: message/delivery-status\r\n\r\nReporting-MTA: dns; mx.example.org\r\n\r\n${groups.join('\r\n')}`;
}

const REPORT_HEADER =
  'From: MAILER-DAEMON@mx.example.org\r\n' +
  'To: sender@example.org\r\n' +
  'Subject: Undelivered Mail Returned to Sender\r\n' +
  'MIME-Version: 1.0\r\n' +
  'Content-Type: multipart/report; report-type=delivery-status; boundary="b"\r\n' +
  '\r\n';

export interface HostileEmail {
  name: string;
  build(): Buffer;
  expect: { status: number; recipients?: number };
}

export const HOSTILE_EMAILS: HostileEmail[] = [
  {
    // Each part's header search ran to the end of the email: quadratic
    name: '100,000 empty parts',
    build: () =>
      Buffer.from(`${REPORT_HEADER}${'--b\r\nContent-Type: text/plain\r\n\r\n'.repeat(100_000)}--b--\r\n`, 'latin1'),
    expect: { status: 413 },
  },
  {
    // The preamble went to the MIME library whole: a few µs and a kilobyte per line
    name: '7 MB preamble',
    build: () => Buffer.from(`${REPORT_HEADER}${'\r\n'.repeat(3_500_000)}${statusPart(1)}\r\n--b--\r\n`, 'latin1'),
    expect: { status: 200, recipients: 1 },
  },
  {
    name: '7 MB epilogue',
    build: () => Buffer.from(`${REPORT_HEADER}${statusPart(1)}\r\n--b--\r\n${'\r\n'.repeat(3_500_000)}`, 'latin1'),
    expect: { status: 200, recipients: 1 },
  },
  {
    name: 'multiparts nested 10,000 deep',
    build: () => {
      const open = Array.from(
        { length: 10_000 },
        (_, i) => `Content-Type: multipart/mixed; boundary="n${i}"\r\n\r\n--n${i}\r\n`,
      ).join('');
      return Buffer.from(
        `From: MAILER-DAEMON@mx.example.org\r\nSubject: Undelivered Mail\r\n${open}Content-Type: text/plain\r\n\r\n550 5.1.1 <a@example.net> unknown\r\n`,
        'latin1',
      );
    },
    expect: { status: 413 },
  },
  {
    name: '7 MB header line',
    build: () =>
      Buffer.from(
        `From: MAILER-DAEMON@mx.example.org\r\nX-Long: ${'a'.repeat(7_000_000)}\r\nSubject: Undelivered Mail\r\n\r\n550 5.1.1 <a@example.net> unknown\r\n`,
        'latin1',
      ),
    expect: { status: 413 },
  },
  {
    name: '1,000,000 header fields',
    build: () =>
      Buffer.from(
        `From: MAILER-DAEMON@mx.example.org\r\n${'X-H: v\r\n'.repeat(1_000_000)}Subject: Undelivered Mail\r\n\r\n550 5.1.1 <a@example.net> unknown\r\n`,
        'latin1',
      ),
    expect: { status: 413 },
  },
  {
    // Within every limit, at the kept lines' cap: the most the readers are given
    name: '5,000-recipient delivery status',
    build: () => Buffer.from(`${REPORT_HEADER}${statusPart(5_000)}\r\n--b--\r\n`, 'latin1'),
    expect: { status: 200, recipients: 1_000 },
  },
  {
    // A plain-text notice, each recipient's reason on the line after it: telling the notice's own words from the replies
    // it quotes compared every line with every reply, quadratic (6 s)
    name: '5,000-recipient plain-text notice',
    build: () =>
      Buffer.from(
        `From: MAILER-DAEMON@mx.example.org\r\nSubject: Mail delivery failed\r\n\r\nYour message could not be delivered to the following recipients.\r\n\r\n${Array.from(
          { length: 5_000 },
          (_, i) => `<user${i}@example.net>:\r\nMailbox is over quota, you can try again later (${i})\r\n`,
        ).join('\r\n')}`,
        'latin1',
      ),
    expect: { status: 200, recipients: 1_000 },
  },
  {
    // An HTML-only notice of `<` without `>`: a tag pattern retried at each `<` is quadratic
    name: '1 MB of "<" in an HTML notice',
    build: () =>
      Buffer.from(
        `From: MAILER-DAEMON@mx.example.org\r\nSubject: Undeliverable\r\nContent-Type: text/html\r\n\r\n${'<'.repeat(1_000_000)}\r\n`,
        'latin1',
      ),
    expect: { status: 200, recipients: 0 },
  },
];
