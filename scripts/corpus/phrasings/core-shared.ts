import { phrasings } from '../situation.ts';

// Shared phrasings: the stock vocabulary many receivers use for the same cause (stock MTA texts, filtering
// appliances and hosted gateways reuse them), one `shared` entry per situation. Every template carries the
// cue that decides its labels (see corpus/README.md): "IP"/"client host" vs "domain" vs "URL", "reputation"
// vs volume, a named third-party list vs the receiver's own list.
export default [
  phrasings('recipient-unknown', {
    shared: [
      '550 5.1.1 <{rcpt}>: {Recipient address rejected|Address rejected}: {User unknown|Unknown user|No such user}',
      '550 5.1.1 {The email account does not exist|Mailbox does not exist|No such mailbox|Recipient does not exist}',
      '550 {User unknown|Unknown recipient|Invalid recipient} <{rcpt}>',
      '550 5.1.1 Requested action not taken: {mailbox unavailable|mailbox not found}, {user|recipient} does not exist',
      '550 5.1.1 <{rcpt}>: {no such user here|unknown or invalid recipient|bad destination mailbox address}',
      '550 5.1.10 Recipient {rcpt} not found',
      '553 5.1.1 {rcpt}: address does not exist',
      '550 5.1.1 Sorry, no mailbox here by that name',
    ],
  }),
  phrasings('mailbox-disabled', {
    shared: [
      '550 5.2.1 <{rcpt}>: {Account disabled|Mailbox disabled|Account suspended|Account inactive}',
      '550 5.2.1 {The mailbox is disabled|This account has been disabled|The account is suspended} and does not accept mail',
      '550 5.2.1 Mailbox {frozen|locked|inactive}, {contact the recipient by other means|not accepting messages}',
      '554 5.2.1 {rcpt}: {account expired|user account has been closed|mailbox is inactive}',
      '550 5.2.1 Recipient account is {disabled|deactivated|blocked by its owner}',
    ],
  }),
  phrasings('mailbox-full', {
    shared: [
      '552 5.2.2 <{rcpt}>: {Mailbox full|Mailbox is full|Over quota|Quota exceeded}',
      '452 4.2.2 {The recipient mailbox is full|Mailbox full|User over quota}, try again later',
      "552 5.2.2 {Mailbox size limit exceeded|Storage quota exceeded|The recipient's inbox is out of storage space}",
      '452 4.2.2 <{rcpt}>: {insufficient storage|mailbox over quota|disk quota exceeded} for this user',
      '552 Requested mail action aborted: exceeded storage allocation',
    ],
  }),
  phrasings('recipient-rate', {
    shared: [
      '450 4.2.1 <{rcpt}>: {Recipient is receiving mail too fast|The recipient is receiving too many messages}, try again later',
      '451 4.2.1 Per-recipient rate limit exceeded for <{rcpt}>',
      '450 4.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages',
    ],
  }),
  phrasings('too-many-recipients', {
    shared: [
      '452 4.5.3 {Too many recipients|Error: too many recipients|Too many recipients for this message}',
      '452 4.5.3 {Maximum number of recipients exceeded|Recipient limit reached}, send the rest later',
    ],
  }),
  phrasings('recipient-domain-not-found', {
    shared: [
      'Host or domain name not found. Name service error for name={domain} type={MX|A}: Host not found',
      '{Domain {domain} has no MX records|No MX record for {domain}|DNS lookup for {domain} failed: NXDOMAIN}',
      '550 5.1.2 {domain}: {Host not found|Domain does not exist}',
    ],
  }),
  phrasings('relay-denied', {
    shared: ['550 5.7.1 <{rcpt}>: {Relay access denied|Relaying denied|Unable to relay}'],
  }),
  phrasings('connection-failure', {
    shared: ['{Could not connect to|Connection to} {mx}: {connection refused|timed out}'],
  }),
  phrasings('server-busy', {
    shared: [
      '421 4.3.2 {Service currently unavailable|Service temporarily unavailable}, {server busy|system busy|server overloaded}',
      '421 4.3.2 {Server busy|System busy|Server too busy}, try again later',
      '451 4.3.2 {Service temporarily unavailable|Server temporarily unavailable}, load too high',
      '452 4.3.1 Insufficient system storage, {try again later|server busy}',
    ],
  }),
  phrasings('temporary-failure', {
    shared: [
      '451 4.3.0 {Temporary local problem|Temporary server error|Local error in processing}, {please try later|try again later}',
      '451 4.3.0 Requested action aborted: {local error in processing|temporary failure}',
      '451 4.3.0 {Internal error|Temporary lookup failure|Queue file write error}',
      '450 4.3.0 {Temporary failure|Internal server error}, {retry later|message not accepted now}',
      '451 4.4.0 {Temporary system failure|Mail system temporarily failed}, try again later',
    ],
  }),
  phrasings('greylisting', {
    shared: [
      '450 4.7.1 <{rcpt}>: Recipient address rejected: {Greylisted|Greylisting in action}, please try again later',
      '451 4.7.1 {Greylisted|Greylisting}: {please retry in {n} minutes|try again later}',
      '451 4.7.1 {You are greylisted|Message greylisted|Grey listed}, {come back later|retry later}',
      '450 4.2.0 Greylisted for {n} seconds, please retry',
    ],
  }),
  phrasings('ip-rate-volume', {
    shared: [
      '421 4.7.0 {Too many messages|Too much mail} from {your IP|your IP address|IP address {ip}|client {ip}}, {slow down|try again later}',
      '450 4.7.1 {Rate limit exceeded|Sending rate exceeded|Message rate limit reached} for {IP {ip}|your IP address|client IP {ip}}',
      '451 4.7.1 {IP {ip}|Your IP address} has exceeded the {hourly|allowed} message {rate|volume}, deferring',
      '421 4.7.0 {ip}: {excessive volume|unusual volume of mail} from this IP, {temporarily deferred|rate limited}',
      '452 4.3.2 {Connection IP {ip}|Client host [{ip}]} sending too many messages per {hour|minute}',
      '421 4.7.28 Unusual rate of mail from your IP address, temporarily rate limited',
    ],
  }),
  phrasings('domain-rate-volume', {
    shared: [
      '421 4.7.0 Too many messages from {sender domain|your domain|domain} {sdomain}, {slow down|try again later}',
      '450 4.7.1 {Rate limit exceeded|Sending rate exceeded} for {sender domain|domain} {sdomain}',
      '451 4.7.1 {Sender domain|Domain} {sdomain} has exceeded the {hourly|allowed} message {rate|volume}, deferring',
      '421 4.7.0 {Excessive volume|Unusual volume of mail} from your domain {sdomain}, temporarily {deferred|rate limited}',
      '452 4.3.2 Messages from domain {sdomain} {rate limited|throttled due to volume}',
    ],
  }),
  phrasings('general-rate', {
    shared: [
      '421 4.7.0 {Rate limit exceeded|Rate limited|Ratelimit exceeded}, {try again later|slow down}',
      '450 4.7.1 {Too many messages|Message rate exceeded|Sending limit reached}, please {slow down|retry later}',
      '451 4.7.1 {Throttling in effect|Temporarily throttled|Sending too fast}, try again later',
      '452 4.3.2 {Message rate limit exceeded|Rate limit reached}',
      '421 4.7.0 {Too many messages in this session|Too many messages per hour}, slow down',
      '450 4.2.1 Rate limit exceeded, please slow down and try again later',
    ],
  }),
  phrasings('concurrency', {
    shared: [
      '421 4.7.0 Too many {concurrent|simultaneous} {connections|SMTP sessions} from {your IP|{ip}|this host}, try again later',
      '421 4.3.2 {Connection limit exceeded|Maximum number of connections exceeded}, closing connection',
      '421 {Too many connections|Too many open sessions} from {ip}',
      '421 4.7.0 {Connection rate limit exceeded|Too many connections per minute}, please reconnect later',
    ],
  }),
  phrasings('url-domain-rate', {
    shared: [
      '451 4.7.1 {Too many messages|Too much mail} containing {links to|the URL domain|URLs from} {udomain}, {try again later|deferred}',
      '450 4.7.28 {URL domain|Link domain} {udomain} in the message {has been rate limited|exceeds rate limit}',
      '421 4.7.0 Messages with URL {udomain} temporarily deferred due to {volume|rate limit}',
      '451 4.7.1 Rate limit exceeded for URL domain {udomain} in message body',
    ],
  }),
  phrasings('ip-reputation-temporary', {
    shared: [
      '421 4.7.0 [{ip}] {Temporarily deferred|Deferred|Throttled} due to {poor|low|bad} IP reputation',
      '451 4.7.1 {Your IP address|IP {ip}|Client host [{ip}]} has a {poor|low} reputation, try again later',
      '421 4.7.0 {Messages from|Mail from} {ip} temporarily deferred due to user complaints',
      '450 4.7.1 {IP|Sending IP} {ip} rate limited because of {spam complaints|unsolicited mail|poor reputation}',
      '421 4.7.28 Unusual rate of unsolicited mail from your IP address {ip}, temporarily rate limited',
      '451 4.7.1 Reputation of sending IP {ip} too low, {deferred|retry later}',
    ],
  }),
  phrasings('ip-reputation-permanent', {
    shared: [
      '550 5.7.1 [{ip}] {Rejected|Message blocked} due to {poor|low|bad} IP reputation',
      '554 5.7.1 {Your IP address|IP {ip}|Client host [{ip}]} has a {poor|low|bad} reputation{; message rejected|}',
      '550 5.7.1 Mail from {ip} refused: sending IP reputation too low',
      '554 5.7.1 Message rejected: {the sending IP|your IP address} {ip} has a poor reputation score',
      '550 5.7.1 {Very low|Poor} reputation of the sending IP address, the message has been blocked',
    ],
  }),
  phrasings('domain-reputation-temporary', {
    shared: [
      '421 4.7.0 {Temporarily deferred|Deferred|Throttled} due to {poor|low|bad} {sender|sending} domain reputation of {sdomain}',
      '451 4.7.1 {Sender domain|Domain|Your domain} {sdomain} has a {poor|low} reputation, try again later',
      '421 4.7.0 Mail from domain {sdomain} temporarily deferred due to {user complaints|domain reputation}',
      '450 4.7.1 Domain {sdomain} rate limited because of {spam complaints|unsolicited mail|poor domain reputation}',
      '451 4.7.1 Reputation of sending domain {sdomain} too low, {deferred|retry later}',
    ],
  }),
  phrasings('domain-reputation-permanent', {
    shared: [
      '550 5.7.1 {Rejected|Message blocked} due to {poor|low|bad} {sender|sending} domain reputation ({sdomain})',
      '554 5.7.1 {Sender domain|Domain|Your domain} {sdomain} has a {poor|low|bad} reputation{; message rejected|}',
      '550 5.7.1 Mail from domain {sdomain} refused: domain reputation too low',
      '554 5.7.1 Message rejected: the sending domain {sdomain} has a poor reputation score',
      '550 5.7.1 {Very low|Poor} reputation of the sending domain, the message has been blocked',
    ],
  }),
  phrasings('dnsbl-ip', {
    shared: [
      '554 5.7.1 Service unavailable; Client host [{ip}] blocked using {zen.spamhaus.org|bl.spamcop.net|b.barracudacentral.org|dnsbl.sorbs.net|bl.mailspike.net}',
      '550 5.7.1 {IP|Your IP|Client IP} {ip} is listed {in|on|at} {Spamhaus|SpamCop|Barracuda BRBL|SORBS|Mailspike|PSBL}',
      '554 5.7.1 Rejected: {ip} listed at {zen.spamhaus.org|bl.spamcop.net|b.barracudacentral.org|psbl.surriel.com}',
      '550 5.7.1 Blocked: your IP {ip} is on the {Spamhaus SBL|Spamhaus XBL|Spamhaus PBL|SpamCop} blocklist, see https://www.spamhaus.org/query/ip/{ip}',
      '553 5.7.1 Connections not accepted from IP addresses listed on {Spamhaus|SpamCop|Barracuda}',
    ],
  }),
  phrasings('dnsbl-domain', {
    shared: [
      '554 5.7.1 <{sender}>: Sender address rejected: {sdomain} listed {in|at} {dbl.spamhaus.org|multi.surbl.org|multi.uribl.com}',
      '550 5.7.1 Sender domain {sdomain} is listed {in|on} {Spamhaus DBL|SURBL|URIBL}',
      '554 5.7.1 Rejected: sending domain {sdomain} {listed at|found on} dbl.spamhaus.org',
      '550 5.7.1 Your domain {sdomain} is on the {Spamhaus DBL|URIBL} blocklist',
    ],
  }),
  phrasings('uribl-content', {
    shared: [
      '554 5.7.1 Message rejected: {body contains|contains} a URL {listed in|found on} {multi.surbl.org|multi.uribl.com|Spamhaus DBL} ({udomain})',
      '550 5.7.1 URL {udomain} in {message body|the message} is listed {in|on} {SURBL|URIBL|Spamhaus DBL}',
      '554 5.7.1 Blocked: message contains a link to {udomain} listed at {black.uribl.com|multi.surbl.org}',
    ],
  }),
  phrasings('own-ip-block', {
    shared: [
      '554 5.7.1 {Your IP|IP address|Client host} {ip} is {blocked|banned} {by our policy|on this server|by local block list}',
      '550 5.7.1 {Access denied|Connection refused}, {sending IP|your IP} [{ip}] is on our {block list|blocklist|blacklist}',
      '554 5.7.1 Client host [{ip}] blocked by {local policy|local IP block list|our internal blocklist}',
      '550 5.7.606 Access denied, banned sending IP [{ip}]',
      '554 Connections from {ip} are not accepted, IP blocked',
    ],
  }),
  phrasings('policy-block', {
    shared: [
      '550 5.7.1 {Message rejected by policy|Rejected by local policy|Access denied by policy}',
      '554 5.7.1 {Delivery not authorized|Message refused}, {access denied|policy violation}',
      '550 {Administrative prohibition|Access denied|Delivery not authorized}',
    ],
  }),
  phrasings('sender-blocked', {
    shared: [
      '550 5.7.1 <{sender}>: Sender address rejected: {Access denied|blocked|blacklisted}',
      '550 5.7.1 Sender {sender} {is blocked by the recipient|is on the blocked senders list|blocked by recipient preference}',
      "554 5.7.1 {Messages from|Mail from} {sender} {aren't accepted|are blocked} by this recipient",
      '550 5.7.1 Sender address {sender} is {blocked|blacklisted|denied}',
    ],
  }),
  phrasings('sender-domain-blocked', {
    shared: [
      '550 5.7.1 {Sender domain|Sending domain|Mail from domain} {sdomain} {is banned|is blocked|has been blacklisted|is not allowed} here',
      '554 5.7.1 <{sender}>: Sender address rejected: domain {sdomain} is {blocked|banned} by {local policy|the administrator}',
      '550 {Mail|Email|Messages} from {the domain |}{sdomain} {is|are} not accepted {here|by this server}',
      '553 5.7.1 {sdomain}: sender domain {refused|denied} by policy',
      '550 5.7.1 Your domain {sdomain} {is on our block list|has been blocked by our administrator}',
      '550 Outbound mail from {sdomain} {has been suspended|is paused|is disabled} {for abuse|by the provider|}',
      'Domain {sdomain} is not verified for sending. {Verify the domain|Add and verify the domain} before sending',
    ],
  }),
  phrasings('spam-content', {
    shared: [
      '550 5.7.1 Message rejected {as spam|because it looks like spam|due to spam content}',
      '554 5.7.1 {Spam message rejected|Message identified as spam|Message detected as spam}',
      '550 5.7.1 Message {scored too high|spam score {n}.{n} exceeds threshold} on spam scale',
      '554 5.7.1 This message is likely unsolicited mail (spam), rejected',
      '550 5.7.1 Message content rejected{, UBE|} (spam)',
    ],
  }),
  phrasings('other-content', {
    shared: [
      '552 5.3.4 {Message size exceeds fixed maximum message size|Message too large|Message too big|Message size exceeds limit}',
      '550 5.7.1 Message rejected: {attachment type not allowed|banned attachment|blocked attachment type ({.exe|.js|.scr})}',
      '554 5.6.0 Message rejected by content policy',
      '552 {Message size exceeds maximum permitted|Requested mail action aborted: message too large}',
      '550 5.7.0 Message contains {a disallowed attachment|forbidden content}, rejected by content policy',
      '550 5.6.0 {Message headers fail syntax check|Malformed message header}',
      '554 5.6.0 {Invalid MIME format|Message is not RFC 5322 compliant|Corrupt message content}',
    ],
  }),
  phrasings('virus', {
    shared: [
      '554 5.7.1 {Virus found|Virus detected|Message contains a virus}: {virus}',
      '550 5.7.1 Message rejected: {infected|malware detected} ({virus})',
      '554 5.7.0 {Reject|Rejected}, {virus|malware} {virus} found in {message|attachment}',
      '550 {Malware detected|Virus detected} in attachment, message rejected',
    ],
  }),
  phrasings('dkim', {
    shared: [
      '550 5.7.1 DKIM {signature verification failed|signature invalid|check failed}',
      '550 5.7.30 {Message does not have a valid DKIM signature|Missing DKIM signature}',
      '554 5.7.1 Message rejected: {invalid|bad|missing} DKIM signature for {sdomain}',
      '550 5.7.1 DKIM=fail: {body hash did not verify|signature did not verify}',
    ],
  }),
  phrasings('spf', {
    shared: [
      '550 5.7.23 {SPF check failed|SPF fail|SPF hardfail} for {sdomain}',
      '550 5.7.1 {ip} is not allowed to send mail from {sdomain} (SPF fail)',
      '550 5.7.1 Rejected: {sdomain} SPF record does not designate {ip} as permitted sender',
      '550 5.7.27 Message rejected: Sender Policy Framework (SPF) {failure|violation}',
    ],
  }),
  phrasings('dmarc', {
    shared: [
      '550 5.7.1 {Rejected|Message rejected} {by|due to} DMARC policy {of|for} {sdomain}',
      "550 5.7.26 {Unauthenticated email|Unauthenticated mail} from {sdomain} is not accepted due to the domain's DMARC policy",
      '550 5.7.1 DMARC {policy reject|verification failed, policy is reject} ({sdomain})',
      '550 5.7.509 Sending domain {sdomain} does not pass DMARC and has a DMARC policy of reject',
    ],
  }),
  phrasings('ptr', {
    shared: [
      '550 5.7.25 {The IP address|Client IP} {ip} {has no PTR record|does not have a PTR record}',
      '450 4.7.1 Client host rejected: cannot find your {reverse hostname|hostname}, [{ip}]',
      '550 5.7.1 {No reverse DNS|Reverse DNS lookup failed|rDNS mismatch} for {ip}',
      '550 5.7.1 Connection refused: {ip} {has no PTR|PTR record does not match the forward DNS}',
    ],
  }),
  phrasings('helo', {
    shared: [
      '504 5.5.2 <{helo}>: Helo command rejected: {need fully-qualified hostname|Host not found}',
      '550 5.7.1 {Invalid HELO name|HELO/EHLO {helo} is not a valid hostname|Bad HELO {helo}}',
      '501 5.5.2 {Invalid|Malformed} domain name in {HELO|EHLO} {helo}',
      '550 {EHLO|HELO} {helo} rejected, use a fully qualified domain name',
    ],
  }),
  phrasings('auth', {
    shared: [
      '535 5.7.8 {Authentication failed|Authentication credentials invalid|Error: authentication failed}',
      '530 5.7.0 {Authentication required|Client not authenticated|Must authenticate first}',
      '535 5.7.3 {Authentication unsuccessful|Incorrect username or password}',
      '535 {Incorrect authentication data|Invalid user or password}',
    ],
  }),
  phrasings('auth-needs-tls', {
    shared: [
      '538 5.7.11 Encryption required for requested authentication mechanism',
      '538 {AUTH|authentication} not available without {TLS|STARTTLS|an encrypted connection}',
      '535 5.7.0 {Plaintext authentication disallowed on non-secure connections|Must issue STARTTLS before AUTH}',
      '504 5.7.4 {Insecure authentication mechanism|Plain-text login} {requires TLS|not allowed without TLS}',
    ],
  }),
  phrasings('tls-required', {
    shared: [
      '530 5.7.0 {Must issue a STARTTLS command first|STARTTLS required|TLS required}',
      '454 4.7.0 TLS {not available|currently unavailable} {due to local problem|}',
      '530 5.7.0 {Encryption required|Encrypted connection required}, issue STARTTLS first',
      '451 5.7.3 STARTTLS is required to send mail',
    ],
  }),
  phrasings('tls-handshake', {
    shared: [
      'Cannot start TLS: handshake failure',
      'TLS is required, but could not be negotiated with host {mx}[{ip}]',
      'TLS session failure: wrong version number',
    ],
  }),
  phrasings('tls-certificate', {
    shared: [
      'TLS {handshake|negotiation} {failed|failure} with {mx}[{ip}]: certificate verify failed',
      'Cannot start TLS: {certificate has expired|certificate name mismatch}',
      'TLS session failure: {certificate verification failed|unknown CA}',
    ],
  }),
  phrasings('protocol-syntax', {
    shared: [
      '501 5.5.4 {Syntax error in parameters|Invalid command arguments|Syntax error}',
      '500 5.5.1 {Command unrecognized|Command not recognized|Unrecognized command}',
      '503 5.5.1 {Bad sequence of commands|Error: need MAIL command|Sender already specified}',
      '550 5.6.0 Message contains bare LF line endings',
    ],
  }),
];
