/**
 * Each log format's parser on real lines. Sources (addresses' local parts replaced where a person's were public):
 * - Postfix: mlandauer/cuttlefish spec/models/postfix_log_line_spec.rb (commit
 * fce9906c00ec1b3fa376834af09a5a019913e444);
 * https://ynotes.cn/blog/article_detail/146 (a Gmail delivery, 2018);
 * http://www.zygmund.net/postfix-mail-log-life-outgoing-email
 * - Exim: Exim/exim test/log/0230 (commit 1d800d5183b9b009b6a1ecb4290b2b48f47cf420) and test/log/0498
 *   (https://github.com/Exim/exim/blob/076b11e243d3bfe69a9dd123f45c422104ae3057/test/log/0498);
 *   https://pastebin.com/mbF9Wh9E, https://pastebin.com/bBhvj37U, https://pastebin.com/036fJfDK (exim_mainlog excerpts)
 * - KumoMTA: the record shape and example values of https://docs.kumomta.com/reference/log_record/
 * - Halon: `$arguments`/`$message` of the post-delivery hook, example values of
 * https://docs.halon.io/hsl/postdelivery.html
 * - PowerMTA: accounting record fields of the PowerMTA 5.0 User's Guide, 12.2
 * (https://serverok.in/doc/pmta/UsersGuide.html)
 */
import { test } from '../../../../test/_deadline.ts';
import * as assert from 'uvu/assert';
import type { Attempt, LogFormat } from '../attempt.ts';
import { detectFormat, FORMATS } from './mod.ts';

const read = (format: LogFormat, lines: string[]): Array<Attempt | undefined> => {
  const reader = format.reader();
  return lines.map(reader);
};

test('postfix: deferred, bounced and sent lines of the smtp agent, the reply without "host … said:" and "(in reply to …)"', () => {
  const [deferred, bounced, sent, qmgr] = read(FORMATS.postfix, [
    'Apr  5 16:41:54 kedumba postfix/smtp[18733]: 39D9336AFA81: to=<foo@bar.com>, relay=foo.bar.com[1.2.3.4]:25, ' +
      'delay=92780, delays=92777/0.03/1.6/0.91, dsn=4.3.0, status=deferred (host foo.bar.com[1.2.3.4] said: 451 ' +
      '4.3.0 <bounces@planningalerts.org.au>: Temporary lookup failure (in reply to RCPT TO command))',
    'Apr  5 14:21:51 kedumba postfix/smtp[2500]: 39D9336AFA81: to=<anincorrectemailaddress@openaustralia.org>, ' +
      'relay=aspmx.l.google.com[173.194.79.27]:25, delay=1, delays=0.08/0/0.58/0.34, dsn=5.1.1, status=bounced ' +
      '(host aspmx.l.google.com[173.194.79.27] said: 550-5.1.1 The email account that you tried to reach does ' +
      'not exist. zb4si15321910pbb.132 - gsmtp (in reply to RCPT TO command))',
    'Aug 19 05:49:45 mail postfix/smtp[10065]: EA8FF222F6: to=<recipient@gmail.com>, ' +
      'relay=gmail-smtp-in.l.google.com[74.125.197.26]:25, delay=1.8, delays=0.74/0.03/0.19/0.82, ' +
      'dsn=2.0.0, status=sent (250 2.0.0 OK 1534672190 g10-v6si7304311pfd.86 - gsmtp)',
    'Apr  5 18:41:58 kedumba postfix/qmgr[2638]: E69DB36D4A2B: removed',
  ]);
  const year = new Date().getUTCFullYear();
  const april5 = Date.UTC(year, 3, 5, 16, 41, 54);
  assert.equal(deferred, {
    time: april5 > Date.now() + 86_400_000 ? Date.UTC(year - 1, 3, 5, 16, 41, 54) : april5,
    localIp: 'kedumba/postfix',
    recipientDomain: 'bar.com',
    remoteMx: 'foo.bar.com',
    remoteIp: '1.2.3.4',
    outcome: 'deferred',
    reply: '451 4.3.0 <bounces@planningalerts.org.au>: Temporary lookup failure',
  });
  assert.is(bounced!.outcome, 'bounced');
  assert.is(
    bounced!.reply,
    '550-5.1.1 The email account that you tried to reach does not exist. zb4si15321910pbb.132 - gsmtp',
  );
  assert.equal(
    [sent!.outcome, sent!.remoteMx, sent!.recipientDomain, sent!.reply],
    ['sent', 'gmail-smtp-in.l.google.com', 'gmail.com', '250 2.0.0 OK 1534672190 g10-v6si7304311pfd.86 - gsmtp'],
  );
  assert.is(qmgr, undefined);
});

test("postfix: RFC 3339 timestamps, an instance's syslog name, lmtp, and relay=none", () => {
  const [iso, none, local] = read(FORMATS.postfix, [
    '2025-03-10T12:00:01.123456+01:00 mx1 postfix-out2/smtp[4242]: 3F2A81C0123: ' +
      'to=<a@Example.COM>, orig_to=<b@example.net>, relay=mx.example.com[192.0.2.7]:25, ' +
      'delay=1.2, delays=0.1/0/0.5/0.6, dsn=4.7.0, status=deferred (host ' +
      'mx.example.com[192.0.2.7] said: 421 4.7.0 Try again later (in reply to MAIL FROM command))',
    '2025-03-10T12:00:02Z mx1 postfix/smtp[4242]: 3F2A81C0124: to=<a@example.com>, relay=none, delay=30, ' +
      'delays=0/0/30/0, dsn=4.4.1, status=deferred (connect to mx.example.com[192.0.2.7]:25: Connection timed out)',
    'Jun 18 07:24:19 servername postfix/local[28949]: 1DBB4A7FD: to=<name@tld.com>, relay=local, delay=1.8, delays=0.2/0.03/0.72/0.81, dsn=2.0.0, status=sent (delivered to mailbox)',
  ]);
  assert.equal(
    [iso!.time, iso!.localIp, iso!.recipientDomain, iso!.reply],
    [Date.parse('2025-03-10T11:00:01.123Z'), 'mx1/postfix-out2', 'example.com', '421 4.7.0 Try again later'],
  );
  assert.equal(
    [none!.remoteMx, none!.remoteIp, none!.reply],
    ['', '', 'connect to mx.example.com[192.0.2.7]:25: Connection timed out'],
  );
  assert.is(local, undefined, 'local delivery is no attempt against a remote MX');
});

test("exim: => with C= and I=, == and ** with the remote server's words, with H= or with the host in the message", () => {
  const [delivered, failed, failedTls, deferredOld, failedOld, local, arrival] = read(FORMATS.exim, [
    '1999-03-02 09:44:33 10HmbB-000000005vi-0000 => x@test.ex R=to_server T=remote H=127.0.0.1 [127.0.0.1] I=[127.0.0.1] C="250 OK id=10HmbC-000000005vi-0000"',
    '2015-10-19 09:47:35 1Zo722-001wKm-7T ** recipient@goloffshore.com R=lookuphost ' +
      'T=remote_smtp H=mail1.goloffshore.com [61.8.149.12]: SMTP error from remote mail ' +
      'server after RCPT TO:<recipient@goloffshore.com>: 550 #5.1.0 Address rejected.',
    '2019-06-11 14:26:40 1haaEv-000EiQ-0m ** recipient@flexitank.net.cn R=dkim_lookuphost ' +
      'T=dkim_remote_smtp H=mxbiz1.qq.com [203.205.147.218] X=TLSv1.2:AES128-SHA256:128 CV=yes: ' +
      'SMTP error from remote mail server after RCPT TO:<recipient@flexitank.net.cn>: 550 Mailbox ' +
      'not found. http://service.exmail.qq.com/cgi-bin/help?subtype=1&&id=20022&&no=1000728',
    '1999-03-02 09:44:33 10HmaX-0005vi-00 == userx@x.y R=r1 T=t1 defer (-45): SMTP error from remote mail server after MAIL FROM:<CALLER@myhost.test.ex>: host 127.0.0.1 [127.0.0.1]: 450 DELAY',
    '2009-03-01 01:24:41 1LdZU1-0003hZ-0e ** recipient@hotmial.de R=dnslookup T=remote_smtp: ' +
      'SMTP error from remote mail server after RCPT TO:<recipient@hotmial.de>: host ' +
      'mail.hotmial.de [85.17.10.131]: 554 <recipient@hotmial.de>: Relay access denied',
    '1999-03-02 09:44:33 10HmaY-000000005vi-0000 => x <x@test.ex> R=server T=local_delivery',
    '1999-03-02 09:44:33 10HmbB-000000005vi-0000 <= x@y.x H=(test) [V4NET.9.8.7]:10002 U=root Ci=p1236 P=smtp S=sss',
  ]);
  assert.equal(delivered, {
    time: Date.parse('1999-03-02T09:44:33Z'),
    localIp: '127.0.0.1',
    recipientDomain: 'test.ex',
    remoteMx: '127.0.0.1',
    remoteIp: '127.0.0.1',
    outcome: 'sent',
    reply: '250 OK id=10HmbC-000000005vi-0000',
  });
  assert.equal(
    [failed!.outcome, failed!.remoteMx, failed!.remoteIp, failed!.reply],
    ['bounced', 'mail1.goloffshore.com', '61.8.149.12', '550 #5.1.0 Address rejected.'],
  );
  assert.is(
    failedTls!.reply,
    '550 Mailbox not found. http://service.exmail.qq.com/cgi-bin/help?subtype=1&&id=20022&&no=1000728',
  );
  assert.equal(
    [deferredOld!.outcome, deferredOld!.remoteMx, deferredOld!.reply],
    ['deferred', '127.0.0.1', '450 DELAY'],
  );
  assert.equal(
    [failedOld!.remoteMx, failedOld!.remoteIp, failedOld!.reply],
    ['mail.hotmial.de', '85.17.10.131', '554 <recipient@hotmial.de>: Relay access denied'],
  );
  assert.is(local, undefined);
  assert.is(arrival, undefined);
});

test('exim: a timestamp with a zone (log_timezone) and milliseconds', () => {
  const [line] = read(FORMATS.exim, [
    '2025-03-10 12:00:01.250 +0100 [4242] 1tXyZa-00000AbCdE-1234 == a@example.com ' +
      'R=dnslookup T=remote_smtp defer (-44) H=mx.example.com [192.0.2.7]: SMTP error ' +
      'from remote mail server after RCPT TO:<a@example.com>: 451 4.7.1 Try later',
  ]);
  assert.equal([line!.time, line!.reply], [Date.parse('2025-03-10T11:00:01.250Z'), '451 4.7.1 Try later']);
});

const kumo = (type: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    type,
    id: '1d98076abbbc11ed940250ebf67f93bd',
    sender: 'user@sender.example.com',
    recipient: 'user@recipient.example.com',
    queue: 'campaign:tenant@domain',
    site: 'source2->(alt1|alt2|alt3|alt4)?.gmail-smtp-in.l.google.com.',
    size: 1047,
    response: {
      code: 250,
      enhanced_code: { class: 2, subject: 0, detail: 0 },
      content: 'OK ids=8a5475ccbbc611eda12250ebf67f93bd',
      command: '.',
    },
    peer_address: { name: 'gmail-smtp-in.l.google.com.', addr: '142.251.2.27' },
    timestamp: 1678069691,
    created: 1678069691,
    num_attempts: 0,
    egress_pool: 'pool0',
    egress_source: 'source2',
    source_address: { address: '10.0.0.1:0', server_name: 'mx.example.com' },
    tenant: 'tenant',
    campaign: 'campaign',
    ...extra,
  });

test('kumomta: Delivery, TransientFailure and Bounce records; Reception skipped', () => {
  const [delivery, transient, bounce, reception] = read(FORMATS.kumomta, [
    kumo('Delivery'),
    kumo('TransientFailure', {
      response: {
        code: 421,
        enhanced_code: { class: 4, subject: 7, detail: 28 },
        content: 'Try again later',
        command: 'RCPT TO',
      },
      timestamp: '2025-03-10T12:00:00Z',
    }),
    kumo('Bounce', {
      response: { code: 550, enhanced_code: null, content: 'No such user', command: 'RCPT TO' },
      source_address: null,
    }),
    kumo('Reception'),
  ]);
  assert.equal(delivery, {
    time: 1678069691000,
    localIp: '10.0.0.1',
    recipientDomain: 'recipient.example.com',
    remoteMx: 'gmail-smtp-in.l.google.com',
    remoteIp: '142.251.2.27',
    outcome: 'sent',
    reply: '250 2.0.0 OK ids=8a5475ccbbc611eda12250ebf67f93bd',
    tenantId: 'tenant',
    jobId: 'campaign',
  });
  assert.equal(
    [transient!.outcome, transient!.time, transient!.reply],
    ['deferred', Date.parse('2025-03-10T12:00:00Z'), '421 4.7.28 Try again later'],
  );
  assert.equal(
    [bounce!.outcome, bounce!.reply, bounce!.localIp],
    ['bounced', '550 No such user', 'source2'],
    'without a source address, the egress source names the sender',
  );
  assert.is(reception, undefined);
});

test("halon: post-delivery $arguments and $message, nested or flat; an attempt's outcome from action, else from its code", () => {
  const message = {
    id: { transaction: '18c190a3-93f-47d7-bd' },
    ts: 1575558785.1234,
    serverid: 'outbound',
    recipient: 'test@example.org',
    recipientaddress: { localpart: 'test', domain: 'example.org' },
    transportid: 'mx',
    jobid: 'customidentifier1',
  };
  const connection = { localip: '1.2.3.4', remoteip: '192.0.2.7', remotemx: 'mx.example.org.' };
  const [sent, queued, bounced, flat, deleted] = read(FORMATS.halon, [
    JSON.stringify({
      time: '2019-12-05T15:13:06Z',
      arguments: {
        retry: 0,
        grouping: '&exampledomains',
        attempt: {
          result: { code: 250, enhanced: [2, 0, 0], reason: ['Ok: queued as 18c19'], state: 'EOD' },
          connection,
          duration: 1.012,
        },
      },
      message,
    }),
    JSON.stringify({
      time: '2019-12-05T15:13:07Z',
      arguments: {
        retry: 3,
        action: 'QUEUE',
        attempt: {
          result: { code: 421, enhanced: [4, 7, 0], reason: ['Too many connections', 'try later'] },
          connection,
        },
      },
      message,
    }),
    JSON.stringify({
      time: '2019-12-05T15:13:08Z',
      arguments: {
        retry: 0,
        action: 'BOUNCE',
        attempt: { result: { code: 550, enhanced: [5, 1, 1], reason: ['No such user'] }, connection },
      },
      message,
    }),
    JSON.stringify({
      ts: 1575558790,
      action: 'QUEUE',
      attempt: { error: { temporary: true, reason: 'Connection timed out' }, connection: { localip: '1.2.3.4' } },
      recipient: 'a@example.com',
    }),
    JSON.stringify({ time: '2019-12-05T15:13:09Z', arguments: { retry: 0, action: 'DELETE' }, message }),
  ]);
  assert.equal(sent, {
    time: Date.parse('2019-12-05T15:13:06Z'),
    localIp: '1.2.3.4',
    recipientDomain: 'example.org',
    remoteMx: 'mx.example.org',
    remoteIp: '192.0.2.7',
    outcome: 'sent',
    reply: '250 2.0.0 Ok: queued as 18c19',
    jobId: 'customidentifier1',
  });
  assert.equal([queued!.outcome, queued!.reply], ['deferred', '421 4.7.0 Too many connections try later']);
  assert.is(bounced!.outcome, 'bounced');
  assert.equal(
    [flat!.time, flat!.outcome, flat!.reply, flat!.recipientDomain],
    [1575558790000, 'deferred', 'Connection timed out', 'example.com'],
  );
  assert.is(deleted, undefined, 'deleted from the queue: no attempt');
});

test('powermta: the header names the columns; d, b, t records are attempts, quoted fields with commas read whole', () => {
  const [header, delivered, bounced, transient, received] = read(FORMATS.powermta, [
    'type,timeLogged,timeQueued,orig,rcpt,orcpt,dsnAction,dsnStatus,dsnDiag,dsnMta,bounceCat,srcType,srcMta,dlvType,dlvSourceIp,dlvDestinationIp,dlvEsmtpAvailable,dlvSize,vmta,jobId',
    'd,2025-03-10 12:00:01-0000,2025-03-10 11:59:58-0000,bounce@news.example.net,a@gmail.com,,relayed,' +
      '2.0.0 (success),smtp;250 2.0.0 OK 1741608001 x1si - gsmtp,gmail-smtp-in.l.google.com (142.250.102.27),' +
      ',smtp,api.example.net,smtp,198.51.100.10,142.250.102.27,PIPELINING,2048,vmta-1,spring-sale',
    'b,2025-03-10 12:00:02+0100,2025-03-10 11:59:58+0100,bounce@news.example.net,b@example.org,,failed,' +
      '5.1.1 (bad destination mailbox address),' +
      '"smtp;550 5.1.1 <b@example.org>: Recipient address rejected: User unknown, sorry",' +
      'mx.example.org (192.0.2.25),bad-mailbox,smtp,api.example.net,smtp,198.51.100.11,192.0.2.25,,2048,vmta-2,',
    't,2025-03-10 12:00:03-0000,2025-03-10 11:59:58-0000,bounce@news.example.net,c@yahoo.com,,delayed,' +
      '4.7.0 (delivery not authorized),smtp;421 4.7.0 [TSS04] Messages from 198.51.100.10 temporarily deferred,' +
      'mta7.am0.yahoodns.net (67.195.204.72),,smtp,api.example.net,smtp,198.51.100.10,67.195.204.72,,2048,' +
      'vmta-1,spring-sale',
    'r,2025-03-10 12:00:04-0000,2025-03-10 12:00:04-0000,bounce@news.example.net,d@example.org,,,,,,,smtp,api.example.net,,,,,,,',
  ]);
  assert.is(header, undefined);
  assert.equal(delivered, {
    time: Date.parse('2025-03-10T12:00:01Z'),
    localIp: '198.51.100.10',
    recipientDomain: 'gmail.com',
    remoteMx: 'gmail-smtp-in.l.google.com',
    remoteIp: '142.250.102.27',
    outcome: 'sent',
    reply: '250 2.0.0 OK 1741608001 x1si - gsmtp',
    jobId: 'spring-sale',
  });
  assert.equal(
    [bounced!.time, bounced!.outcome, bounced!.reply],
    [
      Date.parse('2025-03-10T11:00:02Z'),
      'bounced',
      '550 5.1.1 <b@example.org>: Recipient address rejected: User unknown, sorry',
    ],
  );
  assert.equal([transient!.outcome, transient!.remoteMx], ['deferred', 'mta7.am0.yahoodns.net']);
  assert.is(received, undefined);
});

test('detectFormat tells each format from its first lines, and none from text of no log', () => {
  assert.is(detectFormat(['Apr  5 18:41:58 kedumba postfix/qmgr[2638]: E69DB36D4A2B: removed'])?.name, 'postfix');
  assert.is(
    detectFormat([
      '1999-03-02 09:44:33 10HmaX-000000005vi-0000 <= x@y.x H=(test) [V4NET.9.8.7]:10001 U=root P=smtp S=sss',
    ])?.name,
    'exim',
  );
  assert.is(detectFormat([kumo('Reception')])?.name, 'kumomta');
  assert.is(
    detectFormat(['{"time":1,"arguments":{"attempt":{"result":{"code":250}}},"message":{"recipient":"a@b"}}'])?.name,
    'halon',
  );
  assert.is(detectFormat(['type,timeLogged,timeQueued,orig,rcpt'])?.name, 'powermta');
  assert.is(detectFormat(['hello', 'world']), undefined);
});

test.run();
