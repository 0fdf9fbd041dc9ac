import { phrasings } from '../situation.ts';

// Stock reply texts of receiving MTA software, groupware and filtering gateways, as these products word them out
// of the box (Postfix smtpd/postscreen restrictions and its policy daemons, Exim ACLs and cPanel's Exim, Sendmail
// and its milters, qmail and its patches (chkuser, vpopmail, qmail-ldap, simscan, rblsmtpd, Plesk), Courier,
// Dovecot, Cyrus, Domino, Exchange on-premises, CommuniGate Pro, hMailServer, MailEnable, Kerio, Zimbra, James,
// Haraka, OpenSMTPD, and the gateways: Cisco IronPort, Mimecast, Barracuda, Trend Micro, Symantec MessageLabs,
// SpamExperts, amavisd-new, rspamd, SpamAssassin and ClamAV milters, greylisting daemons).
//
// The big receivers' own lines live in core-*.ts and the sending-side texts in world.ts; this file adds the
// product texts a mail operator meets on self-hosted and corporate MXs, with their codes, tags and help URLs.
// Sending-side situations (connection failures, expiry, TLS handshake) are left to world.ts.
export default [
  // -------------------------------------------------------------------------------------------------------------
  // Recipient side
  // -------------------------------------------------------------------------------------------------------------
  phrasings('recipient-unknown', {
    // A malformed recipient address can never be delivered: like an unknown one, it is removed
    'postfix-syntax': [
      '501 5.1.3 Bad recipient address syntax',
      '504 5.5.2 <{user}>: Recipient address rejected: need fully-qualified address',
    ],
    'sendmail-syntax': ['553 5.1.3 <{rcpt}>... List:; syntax illegal for recipient addresses'],
    postfix: [
      '550 5.1.1 <{rcpt}>: Recipient address rejected: User unknown',
      '550 5.1.1 <{rcpt}>: Recipient address rejected: undeliverable address: unknown user: "{user}"',
      '450 4.1.1 <{rcpt}>: Recipient address rejected: unverified address: host {mx}[{ip}] said: 550 5.1.1 <{rcpt}>: Recipient address rejected: User unknown in virtual mailbox table',
      '<{rcpt}>: unknown user: "{user}"',
      'unknown user: "{user}"',
    ],
    dovecot: [
      "550 5.1.1 <{rcpt}> User doesn't exist: {rcpt}",
      "550 5.1.1 <{rcpt}>: Recipient address rejected: User doesn't exist: {rcpt}",
    ],
    cyrus: [
      '550-Mailbox unknown. Either there is no mailbox associated with this 550-name or you do not have authorization to see it. 550 5.1.1 User unknown',
      '550 5.1.1 Mailbox unknown. Either there is no mailbox associated with this name or you do not have authorization to see it.',
    ],
    exim: [
      '550 Unknown user',
      '550-Callout verification failed: 550 550 5.1.1 <{rcpt}>: Recipient address rejected: User unknown in {virtual mailbox table|local recipient table}',
    ],
    cpanel: ['550 No Such User Here'],
    sendmail: ['550 5.1.1 <{rcpt}>... No such user here', '550 5.1.1 <{rcpt}>... Addressee unknown'],
    qmail: [
      'Sorry, no mailbox here by that name. (#5.1.1)',
      '<{rcpt}>: Sorry, no mailbox here by that name. (#5.1.1)',
      '550 Sorry, no mailbox here by that name. (#5.7.17)',
    ],
    courier: ['550 User unknown.'],
    domino: [
      'User {user} ({rcpt}) not listed in Domino Directory',
      'User {user} ({rcpt}) not listed in public Name & Address Book',
      '550 5.1.1 User {user} not listed in Domino Directory',
    ],
    exchange: [
      '#550 5.1.1 RESOLVER.ADR.RecipNotFound; not found ##',
      '#550 5.1.1 RESOLVER.ADR.ExRecipNotFound; not found ##',
      "The e-mail address you entered couldn't be found. Please check the recipient's e-mail address and try to resend the message. If the problem continues, please contact your helpdesk.",
      'The e-mail account does not exist at the organization this message was sent to. Check the e-mail address, or contact the recipient directly to find out the correct address. <{host} #5.1.1>',
      "{rcpt} The email address you entered couldn't be found. Please check the recipient's email address and try to resend the message. Remote Server returned '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup'",
    ],
    communigate: ['550 5.1.1 unknown user account', '550 <{rcpt}> unknown user account'],
    hmailserver: ['550 Unknown user'],
    smartermail: ['550 <{rcpt}> No such user here'],
    zimbra: ['550 5.1.1 <{rcpt}>: Recipient address rejected: {rcpt}'],
    opensmtpd: ['550 Invalid recipient: <{rcpt}>'],
    mdaemon: ['550 5.1.1 <{rcpt}>, Recipient unknown'],
    ironport: ['550 #5.1.0 Address rejected.', '550 #5.1.0 Address rejected {rcpt}.'],
  }),

  phrasings('mailbox-disabled', {
    sendmail: ['550 5.2.1 {user}... Mailbox disabled for this recipient'],
    cyrus: ['550 5.2.1 Mailbox disabled, not accepting messages'],
    qmail: [
      'Mailaddress is administrativly disabled. (#5.2.1)',
      '550 5.2.1 Mailaddress is administrativly disabled. (#5.2.1)',
    ],
    postfix: [
      '550 5.2.1 <{rcpt}>: Recipient address rejected: Account disabled',
      '550 5.2.1 <{rcpt}>: Recipient address rejected: mailbox is {suspended|inactive}',
    ],
    dovecot: ['550 5.2.1 <{rcpt}> Account is disabled'],
    exim: ['550 5.2.1 {rcpt}: account has been suspended', '550 The email account {rcpt} is suspended'],
    exchange: ["The recipient's mailbox is disabled and can't accept messages. <{host} #5.2.1>"],
    communigate: ['550 5.2.1 <{rcpt}> account is disabled'],
    kerio: ['550 5.2.1 Account {rcpt} is disabled'],
    smartermail: ['550 <{rcpt}> Account is disabled'],
    hmailserver: ['550 Account is not active'],
  }),

  phrasings('mailbox-full', {
    dovecot: [
      '552 5.2.2 <{rcpt}> Quota exceeded (mailbox for user is full)',
      '452 4.2.2 <{rcpt}> Quota exceeded (mailbox for user is full)',
      'Quota exceeded (mailbox for user is full)',
      '552 5.2.2 <{rcpt}> Quota exceeded',
    ],
    postfix: [
      "virtual: maildir delivery failed: Sorry, the user's maildir has overdrawn his diskspace quota, please try again later.",
      "maildir delivery failed: Sorry, the user's maildir has overdrawn his diskspace quota, please try again later.",
      'cannot update mailbox /var/mail/{user} for user {user}. error writing message: File too large',
      'cannot update mailbox /var/mail/{user} for user {user}. error writing message: Disk quota exceeded',
    ],
    courier: ['maildrop: maildir over quota.', '550 5.2.2 maildrop: maildir over quota.', 'Mail quota exceeded.'],
    cyrus: ['552 5.2.2 Over quota', '452 4.2.2 Over quota: {rcpt}'],
    exim: [
      'mailbox is full (MTA-imposed quota exceeded while writing to /home/{user}/mail/{domain}/{user}/new)',
      'mailbox is full (MTA-imposed quota exceeded while writing to file /var/mail/{user})',
      'T=virtual_userdelivery: mailbox is full (MTA-imposed quota exceeded while writing to tmp/{n}.H{ref}P{n}.{host})',
    ],
    cpanel: ['552 5.2.2 The email account that you tried to reach is over quota.'],
    sendmail: ['552 5.2.2 <{rcpt}>... Mailbox disk quota exceeded', '{user}... Mailbox disk quota exceeded'],
    qmail: [
      'The users mailfolder is over the allowed quota (size). (#5.2.2)',
      "Recipient's mailbox is full, message returned to sender. (#5.2.2)",
      '522 sorry, recipient mailbox is full (#5.2.2 - chkuser)',
      'user is over quota',
    ],
    exchange: [
      '554 5.2.2 mailbox full; STOREDRV.Deliver.Exception:QuotaExceededException.MapiExceptionShutoffQuotaExceeded; Failed to process message due to a permanent exception with message Cannot open mailbox /o={ref}/ou=Exchange Administrative Group/cn=Recipients/cn={user}.',
      "The recipient's mailbox is full and can't accept messages now. Please try resending this message later, or contact the recipient directly.",
      '#550 5.2.2 mailbox full ##',
    ],
    zimbra: ['552 5.2.2 Over quota', '452 4.2.2 Over quota (mailbox for {rcpt} is full)'],
    domino: ['Unable to deliver message: Recipient mail file is full'],
    communigate: ['452 4.2.2 <{rcpt}> mailbox is full', '552 5.2.2 account storage limit exceeded'],
    hmailserver: ['452 4.2.2 Mailbox is full'],
    kerio: ['452 4.2.2 Mailbox quota exceeded for {rcpt}'],
    mdaemon: ['552 5.2.2 Mailbox quota exceeded for {rcpt}'],
    // "Space" wordings: receivers that check the mailbox's free space rather than a named quota.
    axigen: [
      '452 4.2.2 Not enough free space in the mailbox of {rcpt}',
      '552 5.2.2 Mailbox {rcpt} has insufficient storage space',
    ],
    icewarp: ['552 5.2.2 <{rcpt}> Mailbox size limit reached, not enough space for this message'],
    merak: ['452 4.2.2 Not enough space in mailbox, try again later'],
    'kerio-space': ['452 4.2.2 The mailbox of {rcpt} has run out of space'],
    smartermail: ['552 5.2.2 User mailbox is out of disk space'],
  }),

  phrasings('recipient-rate', {
    exchange: [
      '432 4.3.2 STOREDRV.Deliver; recipient thread limit exceeded',
      '432 4.3.2 STOREDRV.Deliver; recipient thread limit exceeded [{host}]',
    ],
    postfix: [
      '450 4.2.1 <{rcpt}>: Recipient address rejected: Policy rejection; recipient message quota exceeded',
      '450 4.7.1 <{rcpt}>: Recipient address rejected: too many messages for this recipient in the last hour',
    ],
    exim: ['451 Recipient {rcpt} is receiving mail too fast, please try again later'],
    communigate: ['451 4.2.1 <{rcpt}> account is receiving too many messages, try again later'],
    mdaemon: ['450 4.2.1 <{rcpt}> has exceeded its inbound message limit, try later'],
    kerio: ['451 4.2.1 Recipient {rcpt} has exceeded the allowed number of incoming messages'],
  }),

  phrasings('too-many-recipients', {
    exchange: [
      '550 5.5.3 RESOLVER.ADR.RecipLimit; too many recipients',
      '#550 5.5.3 RESOLVER.ADR.RecipLimit; too many recipients ##',
      '452 4.5.3 Too many recipients; message truncated',
    ],
    ironport: ['452 Too many recipients received this session', '452 #4.5.3 Too many recipients received this session'],
    exim: ['550 Too many recipients for this message'],
    postfix: [
      '452 4.5.3 Error: too many recipients in this session',
      '550 5.5.3 <{rcpt}>: Recipient address rejected: too many recipients',
    ],
    domino: ['452 4.5.3 Too many recipients, maximum is {n}', '552 Too many recipients'],
    communigate: ['452 4.5.3 too many recipients'],
    haraka: ['450 4.5.3 Too many recipients'],
    mdaemon: ['552 5.5.3 Too many recipients - maximum is {n}'],
    kerio: ['452 4.5.3 Too many recipients (maximum {n})'],
  }),

  phrasings('recipient-domain-not-found', {
    postfix: [
      '450 4.1.2 <{rcpt}>: Recipient address rejected: Domain not found',
      '550 5.1.2 <{rcpt}>: Recipient address rejected: Domain not found',
      '450 4.1.2 <{rcpt}>: Recipient address rejected: Malformed DNS server reply',
    ],
    sendmail: [
      '553 5.1.2 <{rcpt}>... Domain of recipient address {rcpt} does not exist',
      '451 4.1.2 <{rcpt}>... Domain of recipient address does not resolve',
    ],
    ironport: [
      "5.1.2 - Bad destination host 'DNS Hard Error looking up {domain} (MX): NXDomain'",
      "4.1.2 - Bad destination host 'DNS Soft Error looking up {domain} (MX): Timeout'",
    ],
    exchange: ['#550 5.4.4 SMTPSEND.DNS.NonExistentDomain; nonexistent domain ##'],
    exim: ['550 Unrouteable address: unknown mail domain {domain}'],
  }),

  phrasings('relay-denied', {
    postfix: ['454 4.7.1 <{rcpt}>: Relay access denied', '554 5.7.1 <{rcpt}>: Relay access denied'],
    exim: ['550 relay not permitted', '550 5.7.1 relay not permitted', '550 Relaying denied'],
    sendmail: ['550 5.7.1 <{rcpt}>... we do not relay <{sender}>', '550 5.7.1 {rcpt}... Relaying denied'],
    qmail: ["553 sorry, that domain isn't in my list of allowed rcpthosts (#5.5.3 - chkuser)"],
    exchange: [
      '550 5.7.54 SMTP; Unable to relay recipient in non-accepted domain',
      '550 5.7.1 Unable to relay for {rcpt}',
      '#550 5.7.1 Unable to relay ##',
    ],
    domino: ['554 Relay rejected for policy reasons.', '553 5.7.1 Relaying denied'],
    courier: ['513 Relaying denied.'],
    kerio: ['550 5.7.1 Relaying to <{rcpt}> denied (authentication required)'],
    hmailserver: ['550 Delivery is not allowed to this address.'],
    mailenable: [
      '503 This mail server requires authentication when attempting to send to a non-local e-mail address. Please check your mail client settings or contact your administrator to verify that the domain or address is defined for this server.',
    ],
    james: ['550 - Requested action not taken: relaying denied'],
    haraka: ['550 I cannot deliver mail for <{rcpt}>'],
    messagelabs: [
      '553-you are trying to use me [{mx}] as a relay, but I have not been configured to let you [{ip}, {host}] do this. 553-Please visit www.symanteccloud.com/troubleshooting for more details about this error message and instructions to resolve this issue. 553 (#5.7.1)',
    ],
  }),

  phrasings('mail-loop', {
    postfix: ['554 5.4.6 mail forwarding loop for {rcpt}', '554 5.4.6 mail for {domain} loops back to myself'],
    exim: [
      '550 Too many "Received" headers - suspected mail loop',
      'R=lookuphost: lowest numbered MX record points to local host',
    ],
    courier: ['546 Routing loop detected -- too many Received: headers.'],
    exchange: [
      '554 5.4.6 Hop count exceeded - possible mail loop',
      '#554 5.4.6 Hop count exceeded - possible mail loop ##',
    ],
    sendmail: ['554 5.4.6 Too many hops'],
    opensmtpd: ['550 5.4.6 Loop detected'],
    domino: ['Unable to deliver message: Maximum hop count exceeded. Message probably in a routing loop.'],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Availability and temporary errors
  // -------------------------------------------------------------------------------------------------------------
  phrasings('server-busy', {
    postfix: ['452 4.3.1 Insufficient system storage', '421 4.3.2 All server ports are busy'],
    exim: [
      '421 Too much load; please try again later',
      '452 space shortage, please try later',
      '421 {host} Too much load; please try again later',
    ],
    sendmail: ['452 4.4.5 Insufficient disk space; try again later', '421 4.3.2 {host} too busy, try again later'],
    exchange: [
      '432 4.3.2 STOREDRV.Deliver; mailbox database thread limit exceeded',
      '432 4.3.2 STOREDRV.Deliver; dynamic mailbox database throttling limit exceeded',
    ],
    hmailserver: ['421 The server is too busy to accept the connection'],
    mdaemon: ['421 4.3.2 Server is busy, please try again later'],
    communigate: ['421 4.3.2 the server is overloaded, try again later'],
    ironport: ['452 4.3.1 Resource conservation mode, try again later'],
  }),

  phrasings('temporary-failure', {
    postfix: [
      '451 4.3.5 Server configuration error',
      '450 4.3.2 Service currently unavailable',
      '421 4.3.0 {host} Server configuration error',
    ],
    exim: ['451-Temporary local problem - please try later'],
    sendmail: [
      '451 4.3.2 Please try again later',
      '451 4.3.0 Temporary system failure. Please try again later.',
      '421 4.3.0 {host} Service not available, closing transmission channel',
    ],
    qmail: ['451 qqt failure (#4.3.0)', '451 qq write error or disk full (#4.3.0)'],
    dovecot: [
      '451 4.3.0 <{rcpt}> Temporary internal error',
      '451 4.3.0 <{rcpt}> Internal error occurred. Refer to server log for more information. [{date} 10:{n}:{n}]',
    ],
    cyrus: ['451 4.3.0 System I/O error'],
    exchange: [
      '451 4.7.0 Temporary server error. Please try again later. PRX{1|2|3|4|5|7}',
      '451 4.4.0 Message failed to be made redundant',
    ],
    amavis: ['451 4.5.0 Error in processing, id={n}-{n}, virus_scan FAILED: AV: ALL VIRUS SCANNERS FAILED'],
    rspamd: ['451 4.7.1 Try again later'],
  }),

  phrasings('greylisting', {
    postgrey: [
      '450 4.7.1 <{rcpt}>: Recipient address rejected: Greylisted for 300 seconds (see http://isg.ee.ethz.ch/tools/postgrey/help/{domain}.html)',
      '450 4.2.0 <{rcpt}>: Recipient address rejected: Greylisted, see https://postgrey.schweikert.ch/help/{domain}.html',
    ],
    'milter-greylist': ['451 4.7.1 Greylisting in action, please come back in 00:{05|10|15|30}:00'],
    sqlgrey: [
      '450 4.7.1 <{rcpt}>: Recipient address rejected: Greylisted for {5|10|15} minutes',
      '450 4.7.1 <{rcpt}>: Recipient address rejected: Greylisted for 5 minutes ({n})',
    ],
    cbpolicyd: ['451 4.7.1 <{rcpt}>: Recipient address rejected: Greylisting in effect, please come back later'],
    tumgreyspf: ['450 4.7.1 <{rcpt}>: Recipient address rejected: Service unavailable, greylisted.'],
    exim: [
      '451 Greylisted - please try again later',
      '451 4.7.1 Greylisted, please try again in {300|600|900} seconds',
    ],
    mdaemon: ['451 4.7.1 Greylisting in effect, please try again later'],
    kerio: ['451 4.7.1 Please try again later (greylisted)'],
    haraka: ['450 4.7.1 Greylisted, please try again later'],
    spamexperts: ['451 4.7.1 {ip} is greylisted, please retry later'],
    smartermail: ['450 4.7.1 Greylisted, please try again later'],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Volume
  // -------------------------------------------------------------------------------------------------------------
  phrasings('ip-rate-volume', {
    postfix: ['450 4.7.1 Error: too much mail from {ip}', '450 4.7.1 Error: too many recipients from {ip}'],
    exchange: [
      '421 4.4.2 Message submission rate for this client has exceeded the configured limit',
      '452 4.3.2 Message submission rate for this client has exceeded the configured limit',
    ],
    exim: ['451 Too many messages from {ip} in the last hour, please try later'],
    haraka: ['421 4.7.0 Rate limit exceeded for {ip}'],
    ironport: ['452 #4.3.0 Too many messages from {ip} this hour, slow down'],
  }),

  phrasings('domain-rate-volume', {
    cpanel: [
      '550 Domain {sdomain} has exceeded the max emails per hour ({n}/{n} (100%)) allowed. Message discarded.',
      '550 Domain {sdomain} has exceeded the max defers and failures per hour ({n}/{n} (100%)) allowed. Message discarded.',
      'Domain {sdomain} has exceeded the max emails per hour ({n}/{n} ({n}%)) allowed.  Message will be reattempted later',
    ],
    exim: ['451 Sender domain {sdomain} rate limit exceeded: {n} messages per hour'],
    postfix: [
      '450 4.7.1 <{sender}>: Sender address rejected: Policy rejection; domain {sdomain} message quota exceeded',
    ],
  }),

  phrasings('general-rate', {
    cpanel: ['550 Email {sender} has exceeded the max emails per hour ({n}/{n} (100%)) allowed. Message discarded.'],
    exim: ['451 Sender rate exceeds {n} messages per 1h', '450 You are sending too fast, please slow down'],
    postfix: ['450 4.7.1 <{rcpt}>: Recipient address rejected: Policy rejection; Quota exceeded'],
    haraka: ['450 4.7.0 Rate limit exceeded'],
    mdaemon: ['451 4.7.1 Too many messages, slow down'],
  }),

  phrasings('concurrency', {
    sendmail: ['421 4.3.2 Too many open connections.'],
    exchange: [
      '421 4.3.2 The maximum number of concurrent connections has exceeded a limit, closing transmission channel',
    ],
    postfix: ['421 4.7.0 {host} Error: too many connections from {ip}'],
    haraka: ['421 Too many concurrent connections from {ip}'],
    hmailserver: ['421 Too many concurrent connections from your IP address'],
    opensmtpd: ['421 4.7.0 {host} Too many connections, try again later'],
  }),

  phrasings('url-domain-rate', {
    rspamd: ['451 4.7.1 Ratelimit exceeded for URL {udomain}, try again later'],
    exim: ['451 Too many messages containing links to {udomain}, please try later'],
    postfix: ['450 4.7.1 Message deferred: rate limit for URL domain {udomain} exceeded'],
    halon: ['421 4.7.0 Too many messages with URLs to {udomain}, deferred'],
    ironport: ['452 4.7.1 Messages containing {udomain} temporarily rate limited'],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Reputation
  // -------------------------------------------------------------------------------------------------------------
  phrasings('ip-reputation-temporary', {
    ironport: [
      "452 #4.7.1 Your access to this mail system has been temporarily limited due to the sending MTA's poor reputation",
      '421 #4.7.1 Temporarily deferred due to poor SenderBase reputation of {ip}',
    ],
    halon: ['421 4.7.0 IP {ip} reputation too low, try again later'],
    fortimail: ['451 4.7.1 Sender reputation of {ip} is poor, try again later'],
    rspamd: ['451 4.7.1 IP {ip} has a bad reputation, try again later'],
  }),

  phrasings('ip-reputation-permanent', {
    ironport: [
      "554 #5.7.1 Your access to this mail system has been rejected due to the sending MTA's poor reputation. If you believe that this failure is in error, please contact the intended recipient via alternate means.",
      "550 #5.7.1 Your access to this mail system has been rejected due to the sending MTA's poor reputation. If you believe that this failure is in error, please contact the intended recipient via alternate means.",
      "554 Your access to this mail system has been rejected due to the sending MTA's poor reputation.",
    ],
    mimecast: [
      '554 Local ct IP Reputation - (reject) - https://community.mimecast.com/docs/DOC-1369#554',
      '550 Local CT IP Reputation - (reject) {ip} - https://community.mimecast.com/docs/DOC-1369#550',
    ],
    fortimail: ['550 5.7.1 Connection refused due to poor IP reputation of {ip}'],
    halon: ['554 5.7.1 Rejected due to poor IP reputation'],
    rspamd: ['554 5.7.1 Rejected: IP {ip} has a bad reputation'],
  }),

  phrasings('domain-reputation-temporary', {
    ironport: ['451 4.7.1 Temporarily deferred due to sender domain reputation of {sdomain}'],
    rspamd: ['451 4.7.1 Sender domain {sdomain} has a bad reputation, try again later'],
    halon: ['421 4.7.0 Sender domain {sdomain} reputation too low, try again later'],
    fortimail: ['451 4.7.1 Sender domain {sdomain} reputation is poor, message deferred'],
    exim: ['451 Deferred: poor reputation of sender domain {sdomain}'],
  }),

  phrasings('domain-reputation-permanent', {
    ironport: [
      '554 5.7.1 Message rejected based on sender domain reputation ({sdomain})',
      '550 #5.7.1 Rejected due to poor Sender Domain Reputation',
    ],
    rspamd: ['554 5.7.1 Rejected: sender domain {sdomain} has a bad reputation'],
    halon: ['554 5.7.1 Sender domain {sdomain} has poor reputation'],
    fortimail: ['550 5.7.1 Message rejected: sender domain {sdomain} reputation is poor'],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Blocks
  // -------------------------------------------------------------------------------------------------------------
  phrasings('dnsbl-ip', {
    postfix: [
      '554 5.7.1 Service unavailable; Client host [{ip}] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/{ip}',
      '554 5.7.1 Service unavailable; Client host [{ip}] blocked using zen.spamhaus.org; https://www.spamhaus.org/sbl/query/SBL{n}',
      '554 5.7.1 Service unavailable; Client host [{ip}] blocked using bl.spamcop.net; Blocked - see https://www.spamcop.net/bl.shtml?{ip}',
      '554 5.7.1 Service unavailable; Client host [{ip}] blocked using psbl.surriel.com; Listed in PSBL, see http://psbl.org/listing?ip={ip}',
      '554 5.7.1 Service unavailable; Client host [{ip}] blocked using dnsbl-1.uceprotect.net; IP {ip} is UCEPROTECT-Level1 listed. See http://www.uceprotect.net/rblcheck.php?ipr={ip}',
      '554 5.7.1 Service unavailable; Client host [{ip}] blocked using ix.dnsbl.manitu.net; Your e-mail service was detected by {host} (NiX Spam) as spamming. Your admin should visit http://www.dnsbl.manitu.net/lookup.php?value={ip}',
      '554 5.7.1 Service unavailable; Client host [{ip}] blocked using bl.mailspike.net',
      '450 4.7.1 Service unavailable; Client host [{ip}] blocked using {zen.spamhaus.org|bl.spamcop.net}',
    ],
    postscreen: [
      '550 5.7.1 Service unavailable; client [{ip}] blocked using {zen.spamhaus.org|bl.spamcop.net|b.barracudacentral.org}',
    ],
    exim: [
      '550-Rejected because {ip} is in a black list at zen.spamhaus.org 550 https://www.spamhaus.org/query/ip/{ip}',
      '550 {ip} is listed at bl.spamcop.net (Blocked - see https://www.spamcop.net/bl.shtml?{ip})',
      '550 rejected because {ip} is in a black list at {b.barracudacentral.org|dnsbl.sorbs.net|psbl.surriel.com}',
    ],
    cpanel: [
      '550 JunkMail rejected - {host} [{ip}]:{n} is in an RBL on zen.spamhaus.org, see https://www.spamhaus.org/query/ip/{ip}',
    ],
    sendmail: [
      '550 5.7.1 Rejected: {ip} listed at {zen.spamhaus.org|bl.spamcop.net|dnsbl.sorbs.net}',
      '554 5.7.1 Rejected {ip} found in dnsbl.sorbs.net',
    ],
    qmail: [
      '451 Blocked - see https://www.spamcop.net/bl.shtml?{ip}',
      '553 https://www.spamhaus.org/query/ip/{ip}',
      '451 {ip} is listed in zen.spamhaus.org, see https://www.spamhaus.org/query/ip/{ip}',
    ],
    'trend-micro': [
      '550 5.7.1 Service unavailable; Client host [{ip}] blocked using Trend Micro RBL+. Please see http://www.mail-abuse.com/cgi-bin/lookup?ip_address={ip}',
      '451 4.7.1 Service unavailable; Client host [{ip}] blocked using Trend Micro Email Reputation database. Please see http://www.mail-abuse.com/cgi-bin/lookup?ip_address={ip}',
      '550 5.7.1 Service unavailable; Client host [{ip}] blocked using Trend Micro Email Reputation database. Please see http://www.mail-abuse.com/cgi-bin/lookup?ip_address={ip}',
    ],
    messagelabs: ['553-mail rejected because your IP is in the PBL. See http://www.spamhaus.org/pbl 553 (#5.7.1)'],
    haraka: ['550 host [{ip}] is blacklisted by {zen.spamhaus.org|bl.spamcop.net}'],
    mdaemon: ['554 5.7.1 Message refused - {ip} is blacklisted by {zen.spamhaus.org|bl.spamcop.net}'],
    kerio: ['550 5.7.1 Your IP address {ip} is listed in the {zen.spamhaus.org|bl.spamcop.net} blacklist'],
  }),

  phrasings('dnsbl-domain', {
    postfix: [
      '554 5.7.1 Service unavailable; Sender address [{sender}] blocked using dbl.spamhaus.org; https://www.spamhaus.org/query/domain/{sdomain}',
      '554 5.7.1 Service unavailable; Sender address [{sender}] blocked using multi.uribl.com; https://lookup.uribl.com/?domain={sdomain}',
      '554 5.7.1 Service unavailable; Helo command [{host}] blocked using dbl.spamhaus.org; https://www.spamhaus.org/query/domain/{host}',
      '554 5.7.1 Service unavailable; Sender address [{sender}] blocked using rhsbl.sorbs.net',
    ],
    exim: [
      '550 rejected because {sdomain} is in a black list at dbl.spamhaus.org',
      '550 Sender domain {sdomain} is listed in dbl.spamhaus.org (https://www.spamhaus.org/query/domain/{sdomain})',
    ],
    sendmail: ['550 5.7.1 Rejected: {sdomain} listed at dbl.spamhaus.org'],
    haraka: ['550 MAIL FROM host {sdomain} is blacklisted by dbl.spamhaus.org'],
  }),

  phrasings('uribl-content', {
    spamexperts: [
      '550 A URL in this email ({udomain}) is listed on https://spamrl.com/. Please resolve and retry',
      '550 A URL in this email ({udomain}) is listed on https://spamrl.com/',
    ],
    rspamd: ['554 5.7.1 Spam message rejected: URL {udomain} is listed in DBL'],
    exim: ['550 Rejected: message contains a URL ({udomain}) listed at dbl.spamhaus.org'],
    sendmail: ['554 5.7.1 Message rejected: URI {udomain} is listed on multi.surbl.org'],
    postfix: ['554 5.7.1 Rejected: domain {udomain} in message body is listed on multi.uribl.com'],
  }),

  phrasings('own-ip-block', {
    postfix: [
      '554 5.7.1 <{host}[{ip}]>: Client host rejected: Access denied',
      '550 5.7.1 <unknown[{ip}]>: Client host rejected: blocked',
    ],
    sendmail: [
      '550 5.7.1 Rejected: {ip} is blocked by local access list',
      '554 5.7.1 Connection from {ip} rejected by access list',
    ],
    exim: ['550 Connections from {ip} are not accepted', '550 Host {ip} is blacklisted on this server'],
    qmail: ['553 sorry, your IP {ip} is blocked on this server (#5.7.1)'],
    cpanel: ['550 {ip} is blocked on this server'],
    proofpoint: [
      '554 Blocked - see https://ipcheck.proofpoint.com/?ip={ip}',
      '521 5.7.1 Blocked - see https://ipcheck.proofpoint.com/?ip={ip}',
    ],
    barracuda: ['554 5.7.1 Client host [{ip}] blocked by IP Block list'],
    haraka: ['550 {ip} is not allowed to connect'],
    hmailserver: ['550 Your IP address {ip} is blocked'],
  }),

  phrasings('policy-block', {
    sendmail: [
      '550 5.7.1 <{rcpt}>... Access denied',
      '550 5.7.1 Command rejected',
      '554 5.7.1 Message rejected by policy',
    ],
    exchange: [
      '550 5.7.1 RESOLVER.RST.NotAuthorized; not authorized',
      '#550 5.7.1 RESOLVER.RST.NotAuthorized; not authorized ##',
      '550 5.7.1 TRANSPORT.RULES.RejectMessage; the message was rejected by organization policy',
      'You do not have permission to send to this recipient. For assistance, contact your system administrator. <{host} #5.7.1>',
    ],
    qmail: ['553 sorry, your envelope recipient has been denied (#5.7.1)'],
    messagelabs: ['553 sorry, your mail was administratively denied. (#5.7.1)'],
    barracuda: ['550 permanent failure for one or more recipients ({rcpt}:blocked)'],
    mimecast: [
      '550 Anti-Spoofing policy - Inbound not allowed - https://community.mimecast.com/docs/DOC-1369#550',
      '550 Envelope rejected - https://community.mimecast.com/docs/DOC-1369#550',
    ],
    postfix: [
      '554 5.7.1 <{rcpt}>: Recipient address rejected: Only internal senders are allowed to send to this address',
    ],
    domino: ['550 Mail rejected for policy reasons.'],
    exim: ['550 Administrative prohibition - rejected by ACL'],
    ironport: ['554 5.7.1 Message refused by content filter policy'],
  }),

  phrasings('sender-domain-blocked', {
    // Postfix check_sender_access, Exim's and qmail's domain lists, and sending services refusing their own
    // customers' domain: each refuses the domain itself, not one address and not for a named list
    postfix: [
      '554 5.7.1 <{sdomain}>: Sender address rejected: Domain is blocked',
      '550 5.7.1 <{sender}>: Sender address rejected: Sending domain banned',
    ],
    exim: [
      '550 Sender domain {sdomain} is blocked on this server',
      '550 Administrative prohibition: mail from {sdomain} not accepted',
    ],
    qmail: ['553 sorry, your envelope sender domain is in my badmailfrom list (#5.7.1)'],
    sendmail: ['550 5.7.1 <{sender}>... Mail from domain {sdomain} refused'],
    ironport: ['554 #5.7.1 Sender domain {sdomain} rejected by sender group policy'],
    esp: [
      '421 Domain {sdomain} is not allowed to send: {please activate your account|the account is disabled}',
      '550 Sending from {sdomain} has been {suspended|paused} on this account',
      'The {sdomain} domain is not verified. Please add and verify your domain before sending',
    ],
  }),
  phrasings('sender-blocked', {
    postfix: [
      '450 4.1.8 <{sender}>: Sender address rejected: Domain not found',
      '550 5.1.8 <{sender}>: Sender address rejected: Domain not found',
      '450 4.1.7 <{sender}>: Sender address rejected: unverified address: host {mx}[{ip}] said: 550 5.1.1 <{sender}>: Recipient address rejected: User unknown in local recipient table',
      '550 5.1.7 <{sender}>: Sender address rejected: undeliverable address: host {mx}[{ip}] said: 550 5.1.1 User unknown',
      '450 4.1.8 <{sender}>: Sender address rejected: Malformed DNS server reply',
    ],
    exim: [
      '550-Verification failed for <{sender}> 550-Unrouteable address 550 Sender verify failed',
      '550-Verification failed for <{sender}> 550-Called: {ip} 550-Sent: RCPT TO:<{sender}> 550-Response: 550 5.1.1 <{sender}>: Recipient address rejected: User unknown in virtual mailbox table 550 Sender verify failed',
      '550 Sender verify failed',
    ],
    sendmail: [
      '553 5.1.8 <{sender}>... Domain of sender address {sender} does not exist',
      '451 4.1.8 Domain of sender address {sender} does not resolve',
      '550 5.7.1 <{sender}>... Access denied',
    ],
    qmail: [
      '553 sorry, your envelope sender is in my badmailfrom list (#5.7.1)',
      '553 sorry, your envelope sender domain must exist (#5.7.1)',
      "553 sorry, can't find a valid MX for sender domain (#5.1.1 - chkuser)",
    ],
    exchange: ['554 5.1.0 Sender denied', '#554 5.1.0 Sender denied ##'],
    ironport: [
      '553 #5.1.8 Domain of sender address <{sender}> does not exist',
      '451 #4.1.8 Domain of sender address <{sender}> does not resolve',
    ],
    mimecast: [
      '550 Envelope blocked - User Domain Entry - https://community.mimecast.com/docs/DOC-1369#550',
      '550 Rejected by header based Manually Blocked Senders - block for manual block - https://community.mimecast.com/docs/DOC-1369#550',
      '451 Message temporarily deferred due to unresolvable RFC.5321 from domain - https://community.mimecast.com/docs/DOC-1369#451',
    ],
    courier: [
      '517 Invalid domain, see <URL:ftp://ftp.isi.edu/in-notes/rfc1035.txt>',
      '517 Sender domain {sdomain} does not exist',
    ],
    domino: ['553 Mail from {sender} rejected for policy reasons.'],
    mdaemon: ['550 5.7.1 {sender} is blacklisted'],
    haraka: ['450 4.1.8 Sender domain {sdomain} has no MX or A record'],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Content
  // -------------------------------------------------------------------------------------------------------------
  phrasings('spam-content', {
    amavis: [
      '554 5.7.0 Reject, id={n}-{n} - spam',
      '554 5.7.0 Reject, id={n}-{n}-{n} - SPAM',
      '550 5.7.0 Message content rejected, id={n}-{n} - spam',
    ],
    spamassassin: ['550 5.7.1 Blocked by SpamAssassin', '550 5.7.1 Blocked by SpamAssassin (score {n}.{n})'],
    rspamd: ['550 5.7.1 Spam message rejected'],
    exim: [
      '550 Rejected: this message scored {n}.{n} spam points',
      '550 Your message has been rejected as spam (score {n}.{n})',
    ],
    qmail: [
      '554 Your email is considered spam ({n}.{n} spam-hits)',
      '553 sorry, your message has been rejected as spam (#5.7.1)',
    ],
    exchange: [
      '550 5.7.1 Message rejected due to content restrictions',
      '#550 5.7.1 Message rejected due to content restrictions ##',
    ],
    spamexperts: ['550 This message was classified as SPAM and may not be delivered'],
    barracuda: ['550 5.7.1 Message content rejected', '554 5.7.1 Message content rejected (spam)'],
    haraka: ['550 spam score exceeded threshold'],
    mdaemon: ['550 5.7.1 Message rejected as spam by Spam Filter'],
    kerio: ['550 5.7.1 Message rejected as spam (spam score {n})'],
    smartermail: ['550 Message rejected: spam content detected'],
    fortimail: ['550 5.7.1 This message has been rejected as spam'],
  }),

  phrasings('other-content', {
    postfix: [
      '550 5.7.1 Attachment type not allowed. File "{invoice|document|scan|order}.{exe|scr|bat|vbs|pif}" has the unacceptable extension "{exe|scr|bat|vbs|pif}"',
      '550 5.7.1 Message header rejected: Message-ID header missing',
    ],
    exim: [
      '550 This message contains an attachment of a type which we do not accept (.{exe|scr|pif|bat|com})',
      '550 syntax error in \'From:\' header when scanning for sender: missing or malformed local part in "<@{sdomain}>"',
      '550 Message rejected: no Message-ID header',
    ],
    sendmail: [
      '552 5.2.3 Message size exceeds maximum value',
      '552 5.3.4 Message size exceeds fixed maximum message size ({n}000000)',
      '552 5.6.0 Headers too large (32768 max)',
    ],
    qmail: ['553 Your email was rejected because it contains a bad attachment: {invoice|payment|doc}.{exe|scr|js}'],
    courier: [
      '523 Message length exceeds administrative limit.',
      '554 Message header size, or recipient list, exceeds policy limit.',
    ],
    cyrus: ['554 5.6.0 Message contains NUL characters'],
    exchange: [
      '550 5.2.3 RESOLVER.RST.RecipSizeLimit; message too large for this recipient',
      '550 5.2.3 RESOLVER.RST.SendSizeLimit.Sender; message too large for this sender',
      '552 5.3.4 Header size exceeds fixed maximum size',
      '550 5.7.1 Message rejected due to unacceptable attachments',
      '554 5.6.0 STOREDRV.Deliver.Exception:ConversionFailedException; Failed to process message due to a permanent exception with message Content conversion: Corrupt content.',
      '#550 5.3.4 ROUTING.SizeLimit; message size exceeds fixed maximum size for route ##',
    ],
    amavis: [
      '554 5.7.0 Reject, id={n}-{n} - BANNED: {invoice|document|payment}.{exe|scr|js|pif}',
      '554 5.7.0 Reject, id={n}-{n} - BANNED: P=p003,L=1,M=application/x-msdownload | .exe,.exe-ms,{invoice|setup}.exe',
    ],
    hmailserver: ['552 Message size exceeds fixed maximum message size. Size: {n} KB, Max size: {n} KB'],
    opensmtpd: [
      '550 5.7.1 Delivery not authorized, message refused: Message is not RFC 2822 compliant',
      '552 5.3.4 Message too large',
    ],
    ironport: ['552 #5.3.4 message size limit exceeded'],
    haraka: ['552 Message too big!'],
    domino: ['552 Message exceeds maximum size limit'],
    mdaemon: ['552 5.3.4 Message size exceeds fixed maximum message size ({n} KB)'],
  }),

  phrasings('virus', {
    amavis: [
      '554 5.7.0 Reject, id={n}-{n} - INFECTED: {virus}',
      '554 5.7.0 Reject, id={n}-{n} - VIRUS: {virus}',
      '550 5.7.0 Message content rejected, id={n}-{n} - VIRUS: {virus}',
    ],
    'clamav-milter': [
      '550 5.7.1 Virus {virus} detected by ClamAV - http://www.clamav.net',
      '554 5.7.1 Infected with {virus}',
    ],
    exim: [
      '550 This message contains malware ({virus})',
      '550 This message was detected as possible malware ({virus}).',
    ],
    qmail: ['552 Your email was rejected because it contains the {virus} virus'],
    rspamd: ['554 5.7.1 clamav: virus found: "{virus}"', '554 5.7.1 clamav: virus found: "{virus}" in attachment'],
    haraka: ['550 Message is infected with {virus}'],
    exchange: ['550 5.7.1 Message rejected: the message contains a virus ({virus})'],
    sophos: ['550 5.7.1 Virus infected message rejected: {virus}'],
    'trend-micro': ['550 5.7.1 Message rejected: virus {virus} found'],
    kerio: ['554 5.7.1 Message rejected: contains virus {virus}'],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Authentication and infrastructure
  // -------------------------------------------------------------------------------------------------------------
  phrasings('dkim', {
    ironport: ['550 #5.7.0 DKIM unverified', '451 #4.7.5 Unable to verify signature - key server not available'],
    opendkim: ['550 5.7.0 DKIM signature verification failed', '550 5.7.1 {sdomain}: bad DKIM signature data'],
    exim: ['550 Message from {sdomain} with invalid or missing DKIM signature'],
    rspamd: ['554 5.7.1 Rejected: DKIM signature for {sdomain} did not verify'],
    halon: ['550 5.7.1 DKIM signature is invalid'],
  }),

  phrasings('spf', {
    'policyd-spf': [
      '550 5.7.1 <{rcpt}>: Recipient address rejected: Message rejected due to: SPF fail - not authorized. Please see http://www.openspf.net/Why?s=mfrom;id={sender};ip={ip};r={rcpt}',
      '550 5.7.23 <{rcpt}>: Recipient address rejected: Message rejected due to: SPF fail - not authorized. Please see http://www.open-spf.org/Why?s=mfrom;id={sender};ip={ip};r=<UNKNOWN>',
      '550 5.7.1 <{rcpt}>: Recipient address rejected: Message rejected due to: SPF fail - not authorized. Please see http://www.openspf.net/Why?s=helo;id={host};ip={ip};r={rcpt}',
      '550 5.7.1 <{rcpt}>: Recipient address rejected: Please see http://www.openspf.org/Why?scope=mfrom;identity={sender};ip={ip}',
    ],
    exim: [
      '550 {ip} is not allowed to send mail from {sdomain}. Please see http://www.open-spf.org/Why?scope=mfrom;identity={sender};ip={ip}',
      '550 {ip} is not allowed to send mail from {sdomain}. Please see http://www.openspf.org/Why?scope=mfrom;identity={sender};ip={ip}',
    ],
    cpanel: ['550 SPF: {ip} is not allowed to send mail from {sdomain}'],
    sendmail: ['550 5.7.1 SPF policy violation. Host {ip} is not allowed to send mail as {sender}.'],
    exchange: ['550 5.7.1 Sender ID (PRA) Not Permitted', '#550 5.7.1 Sender ID (PRA) Not Permitted ##'],
    ironport: ['550 #5.7.1 SPF unauthorized mail is prohibited.'],
    mimecast: ['550 SPF Sender Invalid - envelope rejected - https://community.mimecast.com/docs/DOC-1369#550'],
    haraka: ['550 SPF Fail: {ip} is not permitted to send for {sdomain}'],
    mdaemon: ['550 5.7.1 SPF: {ip} is not authorized to send on behalf of {sdomain}'],
    rspamd: ['554 5.7.1 Rejected: SPF fail for {sdomain}'],
  }),

  phrasings('dmarc', {
    exim: ["550 Message from {sdomain} failed sender's DMARC policy, REJECT"],
    rspamd: ['554 5.7.1 Rejected due to DMARC Policy', '550 5.7.1 Rejected due to DMARC Policy'],
    ironport: [
      '550 #5.7.1 DMARC unauthenticated mail is prohibited.',
      '451 #4.7.1 Unable to perform DMARC verification.',
    ],
    halon: ['550 5.7.1 Message rejected per DMARC policy of {sdomain}'],
    fortimail: ['550 5.7.1 Rejected by DMARC: {sdomain} policy is reject'],
  }),

  phrasings('ptr', {
    postfix: [
      '450 4.7.1 Client host rejected: cannot find your hostname, [{ip}]',
      '550 5.7.1 Client host rejected: cannot find your reverse hostname, [{ip}]',
      '450 4.7.25 Client host rejected: cannot find your hostname, [{ip}]',
      '554 5.7.1 <{host}[{ip}]>: Client host rejected: Generic - Please relay via ISP ({domain})',
    ],
    sendmail: ['550 5.7.1 Fix reverse DNS for {ip}', '451 4.7.1 Fix reverse DNS for {ip}'],
    exim: ['550 The IP address {ip} has no reverse DNS (PTR) entry', '550 Access denied - no reverse DNS for {ip}'],
    qmail: ['553 sorry, your mail server {ip} has no reverse DNS (#5.7.1)'],
    mdaemon: ['550 5.7.1 Reverse DNS lookup failed for {ip}'],
    kerio: ['550 5.7.1 Connection refused, {ip} has no PTR record'],
    hmailserver: ['550 Your IP {ip} has no PTR record'],
  }),

  phrasings('helo', {
    postfix: [
      '501 5.5.2 <{helo}>: Helo command rejected: Invalid name',
      '554 5.7.1 <{helo}>: Helo command rejected: Access denied',
      '554 5.7.1 <{helo}>: Helo command rejected: You are not me',
    ],
    cpanel: [
      '550 Access denied - Invalid HELO name (See RFC2821 4.1.1.1)',
      '550 Access denied - Invalid HELO name (See RFC5321 4.1.1.1)',
    ],
    exim: [
      '501 Syntactically invalid HELO argument(s)',
      '501 Syntactically invalid EHLO argument(s)',
      '550 HELO/EHLO must contain a FQDN or IP literal',
    ],
    exchange: ['501 5.5.4 Invalid domain name'],
    haraka: ['550 HELO host must be a FQDN or address literal'],
    mdaemon: ['501 5.5.4 HELO/EHLO domain {helo} is invalid'],
    qmail: ['553 sorry, your HELO hostname is invalid (#5.7.1)'],
  }),

  phrasings('auth', {
    exchange: [
      '530 5.7.57 SMTP; Client was not authenticated to send anonymous mail during MAIL FROM',
      '504 5.7.4 Unrecognized authentication type',
      '454 4.7.0 Temporary authentication failure',
    ],
    qmail: ['535 authorization failed (#5.7.0)', '530 authentication required (#5.7.1)'],
    communigate: ['535 5.7.0 incorrect password or account name'],
    hmailserver: [
      '530 SMTP authentication is required.',
      '535 Authentication failed. Restarting authentication process.',
    ],
    mailenable: ['535 Invalid Username or Password'],
    james: ['530 Authentication Required'],
    opensmtpd: ['535 Authentication failed'],
    dovecot: ['535 5.7.8 Error: authentication failed: Invalid user or password'],
    kerio: ['535 5.7.8 Authentication failed'],
  }),

  phrasings('auth-needs-tls', {
    postfix: ['538 5.7.11 Encryption required for requested authentication mechanism'],
    dovecot: ['535 5.7.8 Error: plaintext authentication disallowed on non-secure (SSL/TLS) connections'],
    qmail: ['538 auth not available without TLS (#5.3.3)'],
    exchange: ['504 5.7.4 Unrecognized authentication type (plain-text authentication requires TLS)'],
  }),
  phrasings('tls-required', {
    opensmtpd: ['530 5.5.1 Invalid command: Must issue a STARTTLS command first'],
    ironport: ['530 Must issue a STARTTLS command first'],
    qmail: ['530 Must issue a STARTTLS command first (#5.7.0)'],
    hmailserver: ['530 A SSL/TLS-connection is required for authentication.'],
    exim: ['550 Encryption required: please use STARTTLS'],
    postfix: ['530 5.7.0 Must issue a STARTTLS command first; TLS is required to relay to {domain}'],
  }),

  phrasings('protocol-syntax', {
    postfix: [
      '503 5.5.1 Error: need RCPT command',
      '503 5.5.1 Error: nested MAIL command',
      '500 5.5.2 Error: bad UTF-8 syntax',
      '500 5.5.2 Error: bad syntax',
      '521 5.5.2 {host} Error: bare <LF> received',
    ],
    exim: [
      '501 <{sender}>: domain missing or malformed',
      '503 valid RCPT command must precede DATA',
      '554 SMTP synchronization error',
      '503 AUTH command used when not advertised',
      '501 NUL characters are not allowed in SMTP commands',
      '421 {host} too many syntax or protocol errors',
    ],
    sendmail: [
      '500 5.5.1 Command unrecognized: "{ref}"',
      '503 5.0.0 Need MAIL before RCPT',
      '503 5.0.0 Need RCPT (recipient)',
      '553 5.5.4 <{user}>... Domain name required for sender address {user}',
      '501 5.0.0 HELO requires domain address',
    ],
    qmail: ['451 See https://cr.yp.to/docs/smtplf.html.', '503 MAIL first (#5.5.1)', '503 RCPT first (#5.5.1)'],
    exchange: [
      '503 5.5.2 Need mail command',
      '503 5.5.2 Need rcpt command',
      '501 5.1.7 Invalid address',
      '550 5.6.11 SMTPSEND.BareLinefeedsAreIllegal; message contains bare linefeeds, which cannot be sent via DATA and receiving system does not support BDAT',
    ],
    cyrus: ['554 5.6.0 Message contains bare newlines'],
    domino: [
      '501 Syntax error, parameters in command "RCPT TO:<{rcpt}>" unrecognized or missing',
      '501 Syntax error, parameters in command "MAIL FROM:<{sender}>" unrecognized or missing',
    ],
    courier: ['554 Syntax error - your mail software violates RFC 821.'],
    opensmtpd: ['500 5.5.1 Invalid command: Command unrecognized', '553 5.1.0 Sender address syntax error'],
    ironport: ['500 #5.5.1 command not recognized', '503 #5.5.1 MAIL needed first'],
    haraka: ['501 Command parsing failed', '554 You talk too soon'],
    // Early talkers: the client sent commands before the server's greeting (pregreet tests of filters and MTAs)
    qpsmtpd: ['554 Connecting host started transmitting before SMTP greeting'],
    'early-talker': [
      '554 5.5.0 {Input sent|Commands sent|SMTP command sent} {before|without waiting for} the {server|SMTP|} greeting',
      '554 {Wait for the greeting before sending commands|Protocol violation: client talked before greeting}',
    ],
  }),
];
