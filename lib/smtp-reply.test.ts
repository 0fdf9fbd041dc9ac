import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseReply, readReply, type Reply } from './smtp-reply.ts';

// [given, code, status, text]; hand-written in the formats these MTAs use.
type Row = readonly [string, string, string, string];

const PLAIN: Row[] = [
  [
    '550 5.1.1 <a@b.example>: Recipient address rejected: User unknown',
    '550',
    '5.1.1',
    '<a@b.example>: Recipient address rejected: User unknown',
  ],
  ['550-5.1.1 <a@b.example>: Recipient address rejected', '550', '5.1.1', '<a@b.example>: Recipient address rejected'],
  ['550 #5.1.0 Address rejected.', '550', '5.1.0', 'Address rejected.'],
  ['550 User unknown', '550', '', 'User unknown'],
  ['5.1.1 user unknown', '', '5.1.1', 'user unknown'],
  [
    '451 4.7.1 Greylisting in effect, please come back later',
    '451',
    '4.7.1',
    'Greylisting in effect, please come back later',
  ],
  [
    '550 5.7.511 Access denied, banned sender[192.0.2.1].',
    '550',
    '5.7.511',
    'Access denied, banned sender[192.0.2.1].',
  ],
  [
    '452 4.2.122 Recipient has exceeded their limit for receiving messages',
    '452',
    '4.2.122',
    'Recipient has exceeded their limit for receiving messages',
  ],
  [
    '550 5.7.1 Message rejected: more than 550 recipients',
    '550',
    '5.7.1',
    'Message rejected: more than 550 recipients',
  ],
  // Loose markers inside a reply need a code after them to start a new one.
  ['550 5.1.1 Error: 5.1.1 user unknown', '550', '5.1.1', 'Error: 5.1.1 user unknown'],
  ['550 5.7.1 Our filter said: looks like spam', '550', '5.7.1', 'Our filter said: looks like spam'],
  ['Sorry, no mailbox here by that name. (#5.1.1)', '', '5.1.1', 'Sorry, no mailbox here by that name.'],
  [
    "Sorry, I couldn't find any host named y.example. (#5.1.2)",
    '',
    '5.1.2',
    "Sorry, I couldn't find any host named y.example.",
  ],
  [
    "The recipient's mailbox is full and can't accept messages now. [SMTP Error Code 552]",
    '552',
    '',
    "The recipient's mailbox is full and can't accept messages now.",
  ],
  // Numbers in IPs, dates and host names are no codes.
  ['203.0.113.9 does not like recipient.', '', '', '203.0.113.9 does not like recipient.'],
  ['2024-01-15 10:22:33 delivery failed', '', '', '2024-01-15 10:22:33 delivery failed'],
  ['250.mail.example.net refused the connection', '', '', '250.mail.example.net refused the connection'],
  ['Unrouteable address', '', '', 'Unrouteable address'],
  ['  Host   not\tfound \n', '', '', 'Host not found'],
];

const CONTINUATIONS: Row[] = [
  [
    '550-5.1.1 The email account that you tried to reach does not exist. Please try\n' +
      "550-5.1.1 double-checking the recipient's email address for typos or\n" +
      '550-5.1.1 unnecessary spaces. Learn more at\n' +
      '550 5.1.1  https://support.google.com/mail/?p=NoSuchUser d2e1a72fcca58-6b0c1bd6a2csi1234.412 - gsmtp',
    '550',
    '5.1.1',
    'The email account that you tried to reach does not exist. Please try double-checking the ' +
      "recipient's email address for typos or unnecessary spaces. Learn more at " +
      'https://support.google.com/mail/?p=NoSuchUser d2e1a72fcca58-6b0c1bd6a2csi1234.412 - gsmtp',
  ],
  [
    '550-5.7.1 This message does not have authentication information or fails to 550-5.7.1 pass ' +
      'authentication checks. To best protect our users from spam, the 550-5.7.1 message has been blocked. ' +
      'Please visit 550 5.7.1 https://support.google.com/mail/answer/81126 a1si2345678qkd.100 - gsmtp',
    '550',
    '5.7.1',
    'This message does not have authentication information or fails to pass authentication ' +
      'checks. To best protect our users from spam, the message has been blocked. Please ' +
      'visit https://support.google.com/mail/answer/81126 a1si2345678qkd.100 - gsmtp',
  ],
  [
    '554-Transaction failed 554-Reject due to policy restrictions. 554 For explanation visit http://postmaster.example.net/errors',
    '554',
    '',
    'Transaction failed Reject due to policy restrictions. For explanation visit http://postmaster.example.net/errors',
  ],
  [
    'SMTP error from remote mail server after end of data:\n' +
      '    host mx.y.example [192.0.2.1]: 550-5.7.1 [198.51.100.7] Our system has detected an unusual rate of\n' +
      '    550-5.7.1 unsolicited mail originating from your IP address.\n' +
      '    550 5.7.1 Please visit https://support.google.com/mail/?p=UnsolicitedRateLimitError - gsmtp',
    '550',
    '5.7.1',
    '[198.51.100.7] Our system has detected an unusual rate of unsolicited mail originating from your IP address. Please visit https://support.google.com/mail/?p=UnsolicitedRateLimitError - gsmtp',
  ],
];

const POSTFIX_AND_DSN: Row[] = [
  [
    'host mx.y.example[192.0.2.1] said: 550 5.1.1 <x@y.example>: Recipient address rejected: User unknown in virtual mailbox table (in reply to RCPT TO command)',
    '550',
    '5.1.1',
    '<x@y.example>: Recipient address rejected: User unknown in virtual mailbox table',
  ],
  [
    '<x@y.example>: host mx.y.example[192.0.2.1] said: 550 5.1.1\n    <x@y.example>: Recipient address rejected: User unknown in local\n    recipient table (in reply to RCPT TO command)',
    '550',
    '5.1.1',
    '<x@y.example>: Recipient address rejected: User unknown in local recipient table',
  ],
  [
    'delivery temporarily suspended: connect to mx.y.example[192.0.2.1]:25: Connection timed out',
    '',
    '',
    'delivery temporarily suspended: connect to mx.y.example[192.0.2.1]:25: Connection timed out',
  ],
  [
    'connect to mx.y.example[192.0.2.1]:25: Connection refused',
    '',
    '',
    'connect to mx.y.example[192.0.2.1]:25: Connection refused',
  ],
  [
    'host mx.y.example[192.0.2.1] refused to talk to me: 554 5.7.1 Service unavailable; Client host [198.51.100.7] blocked using zen.spamhaus.org',
    '554',
    '5.7.1',
    'Service unavailable; Client host [198.51.100.7] blocked using zen.spamhaus.org',
  ],
  ['host mx.y.example[192.0.2.1] said: Mailbox full (in reply to RCPT TO command)', '', '', 'Mailbox full'],
  [
    'host relay.y.example[192.0.2.1] said: 550 5.7.1 host mx.z.example[203.0.113.5] said: 554 5.7.1 Message rejected as spam (in reply to end of DATA command)',
    '554',
    '5.7.1',
    'Message rejected as spam',
  ],
  [
    "host mta7.am0.yahoodns.net[192.0.2.72] said: 554 delivery error: dd This user doesn't have a yahoo.com account (x@yahoo.com) [0] - mta1234.mail.ne1.yahoo.com (in reply to end of DATA command)",
    '554',
    '',
    "delivery error: dd This user doesn't have a yahoo.com account (x@yahoo.com) [0] - mta1234.mail.ne1.yahoo.com",
  ],
  [
    'Final-Recipient: rfc822; x@y.example\n' +
      'Original-Recipient: rfc822;x@y.example\n' +
      'Action: failed\n' +
      'Status: 5.1.1\n' +
      'Remote-MTA: dns; mx.y.example\n' +
      'Diagnostic-Code: smtp; 550 5.1.1 <x@y.example>: Recipient address\n' +
      '    rejected: User unknown in virtual mailbox table\n' +
      'Last-Attempt-Date: Tue, 16 Jan 2024 09:12:44 +0100',
    '550',
    '5.1.1',
    '<x@y.example>: Recipient address rejected: User unknown in virtual mailbox table',
  ],
  [
    // A transcript without markers: the client's next command is no part of the reply
    ' RCPT To:<x@y.example>\n 552 5.2.2 Mailbox of <x@y.example> is full\n QUIT\n 221 2.0.0 Bye',
    '552',
    '5.2.2',
    'Mailbox of <x@y.example> is full',
  ],
  [
    // MDaemon's session transcript: the server's line after its arrow, up to the client's next line
    ' Thu 2026-03-05 10:14:44: --> RCPT To:<x@y.example>\n Thu 2026-03-05 10:14:44: <-- 552 5.2.2 Mailbox of <x@y.example> is full\n Thu 2026-03-05 10:14:44: --> QUIT',
    '552',
    '5.2.2',
    'Mailbox of <x@y.example> is full',
  ],
  [
    // NetEase writes its wrapper's "said" without a colon
    'SMTP error, RCPT TO: Host mx.y.example(192.0.2.1) RCPT TO said 550 5.1.1 Mailbox not found',
    '550',
    '5.1.1',
    'Mailbox not found',
  ],
  [
    // An arrow inside a reply introduces nothing: no code follows it
    '550 5.7.1 Client host [192.0.2.1 <-- y.example] blocked using a local list',
    '550',
    '5.7.1',
    'Client host [192.0.2.1 <-- y.example] blocked using a local list',
  ],
  [
    // Sun's indented field list: the next field at the reply line's indent ends it, a deeper fold carries on
    '  Reason: Remote SMTP server has rejected address\n  Diagnostic code: smtp;550 5.1.1 <x@y.example>... User\n    unknown\n  Remote system: dns;mx.y.example (TCP|192.0.2.1|41234|192.0.2.25|25)',
    '550',
    '5.1.1',
    '<x@y.example>... User unknown',
  ],
  [
    'Action: delayed\nStatus: 4.4.1\nDiagnostic-Code: X-Postfix; connect to mx.y.example[192.0.2.1]:25: Connection\n    timed out\nWill-Retry-Until: Fri, 19 Jan 2024 09:12:44 +0100',
    '',
    '',
    'connect to mx.y.example[192.0.2.1]:25: Connection timed out',
  ],
  [
    'Diagnostic-Code: X-Postfix; host mx.y.example[192.0.2.1] said: 452 4.2.2 Mailbox full',
    '452',
    '4.2.2',
    'Mailbox full',
  ],
  ['Diagnostic-Code: 452 4.2.2 Over quota', '452', '4.2.2', 'Over quota'],
  ['smtp; 550 5.1.1 user unknown', '550', '5.1.1', 'user unknown'],
  ['smtp;550 5.7.1 Rejected by policy', '550', '5.7.1', 'Rejected by policy'],
  [
    'host mx.y.example[192.0.2.1] said: 421-4.7.0 [192.0.2.9 15] Our system has detected\n' +
      '    421-4.7.0 an unusual rate of mail. 421 4.7.0 Try again later - gsmtp (in reply to end of DATA\n' +
      '    command)',
    '421',
    '4.7.0',
    '[192.0.2.9 15] Our system has detected an unusual rate of mail. Try again later - gsmtp',
  ],
];

const EXIM_SENDMAIL_QMAIL: Row[] = [
  [
    'SMTP error from remote mail server after RCPT TO:<x@y.example>:\n    host mx.y.example [192.0.2.1]: 550 5.1.1 <x@y.example>: Recipient address rejected: User unknown',
    '550',
    '5.1.1',
    '<x@y.example>: Recipient address rejected: User unknown',
  ],
  [
    'SMTP error from remote server for RCPT TO command, host: mx.y.example (192.0.2.1) reason: 550 5.1.1 <x@y.example>: Recipient address rejected: User unknown',
    '550',
    '5.1.1',
    '<x@y.example>: Recipient address rejected: User unknown',
  ],
  [
    'SMTP error from remote mail server after MAIL FROM:<a@b.example> SIZE=12345:\n    host mx.y.example [192.0.2.1]: 552 5.3.4 Message size exceeds fixed maximum message size',
    '552',
    '5.3.4',
    'Message size exceeds fixed maximum message size',
  ],
  [
    'SMTP error from remote mail server after initial connection:\n    host mx.y.example [192.0.2.1]: 554 5.7.1 Connection refused due to poor reputation',
    '554',
    '5.7.1',
    'Connection refused due to poor reputation',
  ],
  [
    '  x@y.example\n    host mx.y.example [192.0.2.1]\n    SMTP error from remote mail server after RCPT TO:<x@y.example>:\n    550 5.1.1 <x@y.example>: Recipient address rejected: User unknown',
    '550',
    '5.1.1',
    '<x@y.example>: Recipient address rejected: User unknown',
  ],
  [
    'x@y.example host mx.y.example [192.0.2.1] SMTP error from remote mail server after RCPT TO:<x@y.example>: 550 5.1.1 User unknown',
    '550',
    '5.1.1',
    'User unknown',
  ],
  [
    'host mx.y.example [192.0.2.1] SMTP error from remote mail server after end of data: 550 5.7.1 Message rejected',
    '550',
    '5.7.1',
    'Message rejected',
  ],
  [
    '----- Transcript of session follows -----\n... while talking to mx.y.example.:\n>>> RCPT To:<x@y.example>\n<<< 550 5.1.1 <x@y.example>... User unknown\n550 5.1.1 <x@y.example>... User unknown',
    '550',
    '5.1.1',
    '<x@y.example>... User unknown',
  ],
  [
    '... while talking to mx.y.example.:\n>>> DATA\n<<< 554 5.7.1 Message rejected due to content\n554 5.0.0 Service unavailable',
    '554',
    '5.7.1',
    'Message rejected due to content',
  ],
  [
    'Sent <<< RCPT TO:<x@y.example>\nReceived >>> 550 5.1.1 <x@y.example>... user unknown\n\nUnable to deliver message to <x@y.example>.',
    '550',
    '5.1.1',
    '<x@y.example>... user unknown',
  ],
  [
    '<<< 550 5.1.1 <x@y.example>... User unknown 550 5.1.1 <x@y.example>... User unknown',
    '550',
    '5.1.1',
    '<x@y.example>... User unknown',
  ],
  [
    '<x@y.example>:\n192.0.2.7 does not like recipient.\nRemote host said: 550 5.1.1 <x@y.example>: Recipient address rejected: User unknown\nGiving up on 192.0.2.7.',
    '550',
    '5.1.1',
    '<x@y.example>: Recipient address rejected: User unknown',
  ],
];

const EXCHANGE_AND_OTHERS: Row[] = [
  [
    "Remote Server returned '550 5.1.1 RESOLVER.ADR.RecipNotFound; not found'",
    '550',
    '5.1.1',
    'RESOLVER.ADR.RecipNotFound; not found',
  ],
  [
    "Remote Server returned '<mx.y.example #5.0.0 smtp; 550 5.1.1 <x@y.example>: Recipient address rejected: User unknown>'",
    '550',
    '5.1.1',
    '<x@y.example>: Recipient address rejected: User unknown',
  ],
  [
    'x@y.example\n#550 5.1.1 RESOLVER.ADR.RecipNotFound; not found ##rfc822;x@y.example',
    '550',
    '5.1.1',
    'RESOLVER.ADR.RecipNotFound; not found',
  ],
  [
    'Delivery has failed to these recipients: x@y.example #550 5.1.1 RESOLVER.ADR.RecipNotFound; not found ##',
    '550',
    '5.1.1',
    'RESOLVER.ADR.RecipNotFound; not found',
  ],
  // A reference after "#" (smtpf's "#<id> <session>") is not Outlook's "#550 5.1.1": the reply stays whole
  [
    '550 5.7.1 Message refused by the content filter #310 7QH2KD90AB',
    '550',
    '5.7.1',
    'Message refused by the content filter #310 7QH2KD90AB',
  ],
  ['451 4.3.0 Try again later #421 7QH2KD90AB', '451', '4.3.0', 'Try again later #421 7QH2KD90AB'],
  [
    "#< #5.0.0 smtp; 5.1.0 - Unknown address error 550-'5.1.1 <x@y.example>... User unknown' (delivery attempts: 0)> #SMTP#",
    '550',
    '5.1.1',
    '<x@y.example>... User unknown',
  ],
  [
    'The following message to <x@y.example> was undeliverable.\n' +
      'The reason for the problem:\n' +
      "5.1.0 - Unknown address error 550-'5.1.1 <x@y.example>: Recipient " +
      "address rejected: User unknown in local recipient table'",
    '550',
    '5.1.1',
    '<x@y.example>: Recipient address rejected: User unknown in local recipient table',
  ],
  // IronPort's own status and words need not end in "error": the quoted reply after the remote's code is the reply,
  // with or without an enhanced status of its own
  [
    "5.3.0 - Other mail system problem 550-'Sender address has no valid SPF record [ref 7QH2]' (delivery attempts: 0)",
    '550',
    '',
    'Sender address has no valid SPF record [ref 7QH2]',
  ],
  [
    "smtp; 5.7.0 - Delivery not authorized, message refused 554-'5.7.1 Message refused by local policy' (delivery attempts: 0)",
    '554',
    '5.7.1',
    'Message refused by local policy',
  ],
  ['Remote server returned: 554 5.7.1 Relay access denied', '554', '5.7.1', 'Relay access denied'],
  [
    "Your message couldn't be delivered. Remote Server returned '550 5.7.1 Sender's domain isn't allowed'",
    '550',
    '5.7.1',
    "Sender's domain isn't allowed",
  ],
  ["Remote Server returned '550 5.1.1 User unknown' (x@y.example)", '550', '5.1.1', 'User unknown'],
  [
    'The mail server responded: 550 5.7.1 Relaying denied. Please verify your settings',
    '550',
    '5.7.1',
    'Relaying denied. Please verify your settings',
  ],
  [
    'Technical details of permanent failure:\nThe error that the other server returned was:\n550 5.1.1 <x@y.example>... No such user\n\n----- Original message -----',
    '550',
    '5.1.1',
    '<x@y.example>... No such user',
  ],
  ['Server replied: 550 5.1.1 Mailbox does not exist', '550', '5.1.1', 'Mailbox does not exist'],
  ['Error: 550 5.7.1 Message rejected by content filter', '550', '5.7.1', 'Message rejected by content filter'],
  ['recv: 421 4.7.0 Too many connections, try again later', '421', '4.7.0', 'Too many connections, try again later'],
  [
    '{"bounceType":"Permanent","bouncedRecipients":[{"emailAddress":"x@y.example","action":"failed","status":"5.1.1","diagnosticCode":"smtp; 550 5.1.1 user unknown"}]}',
    '550',
    '5.1.1',
    'user unknown',
  ],
  [
    '{"delivery-status": {"code": 550, "message": "5.1.1 The email account that you tried to reach does not exist.", "description": ""}}',
    '550',
    '5.1.1',
    'The email account that you tried to reach does not exist.',
  ],
  [
    '{"event":"bounce","reason":"550 5.1.1 The email account that you tried to reach does not exist.","status":"5.1.1"}',
    '550',
    '5.1.1',
    'The email account that you tried to reach does not exist.',
  ],
];

const HTML: Row[] = [
  [
    'Remote Server returned &#39;550 5.1.1 &lt;x@y.example&gt;: Recipient address rejected&#39;<br><br>Original message headers:',
    '550',
    '5.1.1',
    '<x@y.example>: Recipient address rejected',
  ],
  [
    '<div>550-5.7.1 [192.0.2.1] The IP you are using has been blocked</div>\n<div>550 5.7.1 by the recipient domain. See https://postmaster.y.example</div>',
    '550',
    '5.7.1',
    '[192.0.2.1] The IP you are using has been blocked by the recipient domain. See https://postmaster.y.example',
  ],
  [
    'host mx.y.example[192.0.2.1] said:<br/>550 5.1.1 User unknown<br/>(in reply to RCPT TO command)',
    '550',
    '5.1.1',
    'User unknown',
  ],
  [
    '<p><b>Reported error:</b> 550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup</p><p><b>DSN generated by:</b> AM0PR01MB1234.eurprd01.prod.exchangelabs.com</p>',
    '550',
    '5.1.10',
    'RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
  ],
  ['<p>Delivery&nbsp;failed &amp; will not be retried</p>', '', '', 'Delivery failed & will not be retried'],
];

const ROWS = { PLAIN, CONTINUATIONS, POSTFIX_AND_DSN, EXIM_SENDMAIL_QMAIL, EXCHANGE_AND_OTHERS, HTML };
const ALL = Object.values(ROWS).flat();

for (const [group, rows] of Object.entries(ROWS)) {
  test(`parseReply cuts out code, status and text when given ${group} rows`, () => {
    for (const [given, code, status, text] of rows) assert.equal(parseReply(given), { code, status, text }, given);
  });
}

test('parseReply returns the same reply when given its own "code status text"', () => {
  for (const given of [...ALL.map((row) => row[0]), ...fuzz(3000, [' ', ' ', '\n', '\n    '])]) {
    const once = parseReply(given);
    assert.equal(parseReply(joined(once)), once, JSON.stringify(given));
  }
});

test('readReply reports the code note it cut off the reply, and no other tail', () => {
  const qmail = readReply('Sorry, no mailbox here by that name. (#5.1.1)\n');
  assert.equal([qmail.text, qmail.status, qmail.note], ['Sorry, no mailbox here by that name.', '5.1.1', '(#5.1.1)']);
  const smtp32 = readReply('User unknown [SMTP Error Code 550]');
  assert.equal([smtp32.text, smtp32.code, smtp32.note], ['User unknown', '550', '[SMTP Error Code 550]']);
  const postfix = readReply('host mx said: 550 5.1.1 No such user (in reply to RCPT TO command)');
  assert.equal([postfix.text, postfix.note], ['No such user', '']);
});

test('readReply keeps a multi-line reply as sent when asked, and drops its continuation prefixes otherwise', () => {
  const given =
    'said: 550-5.1.1 The account does not exist. Please try\n    550-5.1.1 double-checking the address.\n    550 5.1.1 See https://help.example (in reply to RCPT TO command)';
  const sent = readReply(given, { asSent: true });
  assert.equal([sent.code, sent.status, sent.dash], ['550', '5.1.1', true]);
  assert.is(
    sent.text,
    'The account does not exist. Please try 550-5.1.1 double-checking the address. 550 5.1.1 See https://help.example',
  );
  assert.is(
    readReply(given).text,
    'The account does not exist. Please try double-checking the address. See https://help.example',
  );
});

test('parseReply never throws and returns well-formed fields when given odd input', () => {
  const odd = [
    '',
    ' ',
    '\u0000\u0000550\u0000 5.1.1 \u0000',
    '\ud800 550 5.1.1 \udc00 said: \udfff',
    'said: '.repeat(20_000),
    '550-'.repeat(30_000),
    '<'.repeat(100_000),
    "'".repeat(50_000) + 'returned ',
    '&#xffffff; &#0; &#55296; &#1114112;',
    'host '.repeat(1000) + '[' + ']:'.repeat(1000),
    ...fuzz(3000, ['']),
  ];
  for (const given of odd) {
    const r = parseReply(given);
    assert.match(r.code, /^(?:[2-5]\d\d)?$/);
    assert.match(r.status, /^(?:[245]\.\d{1,3}\.\d{1,3})?$/);
    assert.type(r.text, 'string');
    assert.ok(r.text.length <= 4096);
  }
});

test('parseReply treats a non-string as empty when called from untyped code', () => {
  assert.equal(parseReply(undefined as unknown as string), { code: '', status: '', text: '' });
});

function joined(r: Reply): string {
  return [r.code, r.status, r.text].filter(Boolean).join(' ');
}

// Deterministic strings of reply, wrapper and HTML pieces, joined by one of `separators`.
function fuzz(n: number, separators: string[]): string[] {
  const pieces = [
    '550',
    '550-',
    '5.1.1',
    '#5.1.1',
    ' ',
    '\n',
    '    ',
    'said:',
    'smtp;',
    '<<<',
    '>>>',
    "'",
    '"',
    '<',
    '>',
    '(',
    ')',
    '[',
    ']',
    '#',
    '##',
    'returned',
    'error',
    'reason:',
    '(in reply to RCPT TO command)',
    '(#5.1.1)',
    '<br>',
    '&lt;',
    '&#39;',
    'user',
    'unknown',
    'x@y.example',
    '192.0.2.1',
    'host mx [192.0.2.1]:',
    '"message":',
    '\u0000',
    '\ud800',
    'Status:',
    '-',
    ':',
  ];
  let seed = 42;
  // mulberry32
  const next = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  return Array.from({ length: n }, () =>
    Array.from({ length: 1 + Math.floor(next() * 12) }, () => pick(pieces) + pick(separators)).join(''),
  );
}

test.run();
