import { phrasings } from '../situation.ts';

// Replies whose words pull towards another class than their cause, the kinds of reply the model misread on real
// mail it had never seen (issue 22), written from how receivers and sending MTAs word them:
// - a receiver's own access control that names no list ("denied by IP", "not whitelisted", a sender that must
//   confirm first, "access denied" or "rejected by policy" on the connecting host): BLOCKED / GENERIC_BLOCK, not an
//   MX, recipient or content error;
// - "limit exceeded", "quota" and "full" said of the mailbox, of the sending rate, of the recipients of one
//   message or of the server's own storage: four different causes with the same words;
// - Postfix's "Recipient address rejected:" (and the like) in front of a cause that is not the recipient;
// - an incidental mention of SPF or DKIM (authentication results, a help text) in a reply whose cause is another;
// - replies that are only a code, where the code is all there is to read;
// - the delivering side's local delivery failing (a pipe or program, the mailbox store) with no SMTP code;
// - delay notices that state the cause in words and carry no reply code (with a code the reply is cut out of
//   the notice before the model reads it).
// Each template is one phrasing (the held-out unit); replies that honestly read two ways are left out.
export default [
  // -------------------------------------------------------------------------------------------------------------
  // The receiver's own access control, no list named
  // -------------------------------------------------------------------------------------------------------------
  phrasings('policy-block', {
    'access-list': [
      '550 5.7.1 {Connection|Access|Mail} denied by {IP access list|IP address filter|IP restriction rules}',
      '554 5.7.1 {Denied by IP|Denied by IP access rules|Host not in the allowed address range}',
      '553 5.7.1 Access from {host} is not permitted by the access rules of this server',
    ],
    allowlist: [
      '550 5.7.1 {Your server|The sending host|Your host} is not {whitelisted|on the whitelist|allowlisted|on the allow list} {for this domain|on this server|here}',
      '554 5.7.1 {Sender|Domain|Host} not {whitelisted|allowlisted}, {mail refused|delivery denied|message rejected}',
      '550 5.7.1 This {mailbox|domain|server} {only accepts|accepts only} mail from {approved|whitelisted|pre-approved} {senders|hosts|partners}',
    ],
    'challenge-response': [
      '550 5.7.1 {Sender|Your address} {requires|needs} confirmation: {reply to the challenge message|confirm your address} before {delivery|your mail is accepted}',
      '553 5.7.1 Message {held|refused}: unconfirmed sender, {confirmation required|verification pending}',
      'Your message to {rcpt} was not delivered: the recipient accepts mail only from senders who have confirmed their address',
    ],
    'connecting-host': [
      '550 5.7.1 {Rejected|Refused|Denied} by {local|site|administrative} policy{ for client {ip}| ({ip})|}',
      '554 5.7.1 Access denied{ for {host} [{ip}]| to {ip}|}, contact the postmaster of {domain}',
      '521 5.7.1 {domain} does not accept mail from {your host|{host}|your network}',
    ],
    'recipient-prefix': [
      '{554|550} 5.7.1 <{rcpt}>: Recipient address rejected: {Access denied|Rejected by policy|Not authorized|Sender not whitelisted|Denied by policy}',
    ],
    'authentication-mentioned': [
      '550 5.7.1 {Rejected by local policy|Message refused by policy} ({spf=pass dkim=pass|SPF pass, DKIM pass|authentication passed})',
    ],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // "limit exceeded", "quota", "full": the mailbox, the rate, the recipients, the server
  // -------------------------------------------------------------------------------------------------------------
  phrasings('mailbox-full', {
    limits: [
      '552 5.2.2 {Mailbox|Storage|Mailbox size|Mailbox quota} limit exceeded{ for {rcpt}| <{rcpt}>|}',
      '552 {Recipient storage full|User storage quota exceeded|Inbox full, cannot accept messages}',
      '{452 4.2.2|552 5.2.2|550 5.2.2} <{rcpt}>: Recipient address rejected: {Mailbox full|Over quota|Quota exceeded|Mailbox size limit exceeded|User over quota}',
      '{552|452|550} The {mailbox|inbox} of {rcpt} {has reached its size limit|has no space left|is over its storage quota}',
    ],
    'authentication-mentioned': ['552 5.2.2 <{rcpt}>: Mailbox full ({spf=pass dkim=pass|SPF pass, DKIM verified})'],
  }),
  phrasings('general-rate', {
    limits: [
      '{450 4.7.1|421 4.7.0|451 4.7.1} {Message|Sending|Hourly|Daily} rate limit exceeded{, try again later| for this sender|}',
      '{450|452} 4.7.1 <{rcpt}>: Recipient address rejected: {Rate limit exceeded|Too many messages, slow down|Message limit reached}',
      '451 4.7.1 {Sending|Message|Outbound} quota exceeded{ for {sender}|}, {try again later|retry in an hour}',
      '421 4.7.0 Too many messages {this hour|today|in a short time}, limit exceeded',
    ],
    'authentication-mentioned': [
      '421 4.7.0 Too many messages, slow down and retry in {n} minutes{; SPF and DKIM do not raise this limit|}',
    ],
  }),
  phrasings('recipient-rate', {
    limits: [
      '450 4.2.1 <{rcpt}>: {Recipient|Mailbox} {is receiving mail too fast|inbound rate limit exceeded|has exceeded its incoming message limit}, try again later',
    ],
  }),
  phrasings('too-many-recipients', {
    limits: [
      '452 4.5.3 {Recipient limit exceeded|Recipients per message limit exceeded|Too many recipients, limit is {n}}',
      '550 5.5.3 {Too many recipients (limit exceeded)|Recipient count limit exceeded for this message}',
    ],
  }),
  phrasings('server-busy', {
    limits: [
      '452 4.3.1 {Insufficient system storage|Spool full|Queue full|Server storage full}{, try again later|}',
      '451 4.3.1 {Out of disk space|Not enough free space in the spool|Mail system full}, try again later',
    ],
  }),
  phrasings('other-content', {
    limits: [
      '552 5.3.4 {Message|Attachment|Message size} limit exceeded{ ({n} MB)|}',
      '{552|554} 5.3.4 <{rcpt}>: Recipient address rejected: {Message size exceeds the limit|Message too large for this recipient}',
    ],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Incidental SPF / DKIM mentions: the cause is another
  // -------------------------------------------------------------------------------------------------------------
  phrasings('recipient-unknown', {
    'authentication-mentioned': [
      '550 5.1.1 <{rcpt}>: {User unknown|No such user|Mailbox does not exist} ({spf=pass dkim=pass|SPF pass, DKIM pass|authentication results: spf=pass})',
    ],
  }),
  phrasings('spam-content', {
    'authentication-mentioned': [
      '550 5.7.1 Message {rejected as spam|classified as spam} {despite passing|with passing} SPF and DKIM{, score {n}.{n}|}',
      '554 5.7.1 Spam detected (score {n}.{n}{; SPF=pass DKIM=pass|, dkim=pass|})',
    ],
  }),
  phrasings('own-ip-block', {
    'authentication-mentioned': [
      '554 5.7.1 {Your IP|Client} {ip} is blocked by our {policy|administrator}{. SPF and DKIM do not exempt blocked hosts|; see our sender guidelines on SPF, DKIM and DMARC}',
    ],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Only a code
  // -------------------------------------------------------------------------------------------------------------
  phrasings('recipient-unknown', { 'code-only': ['{550 5.1.1|553 5.1.1|5.1.1|#5.1.1}'] }),
  phrasings('mailbox-disabled', { 'code-only': ['{550 5.2.1|5.2.1}'] }),
  phrasings('mailbox-full', { 'code-only': ['{552 5.2.2|452 4.2.2|5.2.2|4.2.2}'] }),
  phrasings('recipient-domain-not-found', { 'code-only': ['{550 5.1.2|5.1.2|554 5.4.4}'] }),
  phrasings('connection-failure', { 'code-only': ['{421 4.4.1|4.4.1|4.4.2|421 4.4.2}'] }),
  phrasings('other-content', { 'code-only': ['{552 5.3.4|554 5.3.4|5.3.4}'] }),
  phrasings('too-many-recipients', { 'code-only': ['{452 4.5.3|5.5.3}'] }),

  // -------------------------------------------------------------------------------------------------------------
  // Local delivery failing on the delivering side, no SMTP code
  // -------------------------------------------------------------------------------------------------------------
  phrasings('temporary-failure', {
    'local-delivery': [
      'delivery to {program|pipe|command} "{/usr/local/bin/ticket-in|/opt/crm/bin/import-mail|/usr/bin/list-post}" failed: {exit code {n}|killed by signal {n}|timed out}',
      'local delivery {program|agent} {exited with status {n}|crashed|was killed after {n} seconds}',
      '{I/O error|Input/output error|Read-only file system} while writing {the mailbox|message file|to the mail store} of {user}',
      'unknown mailer error {n}',
      'mailbox store {unavailable|not mounted}: cannot write message for {user}, will retry',
      'Unable to {run the delivery program|fork the local delivery agent}. (#4.3.0)',
    ],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Delay notices that state the cause in words
  // -------------------------------------------------------------------------------------------------------------
  phrasings('connection-failure', {
    'delay-notice': [
      '{Delivery to {rcpt} has been delayed|Your message has not been delivered yet|This is a delay notice}. {Reason|Cause}: {the receiving server did not answer|connection to {mx} timed out|connection refused by {mx}}. {We will keep trying|Delivery will be retried} for {n} more {hours|days}.',
    ],
  }),
  phrasings('mailbox-full', {
    'delay-notice': [
      "{Delivery to {rcpt} has been delayed|Your message has not been delivered yet}: the recipient's mailbox is full. {We will keep trying|Delivery will be retried} for {n} more {hours|days}.",
    ],
  }),
  phrasings('greylisting', {
    'delay-notice': [
      '{Delivery to {rcpt} has been delayed|Your message has not been delivered yet}: the receiving server {greylisted it|asked us to retry later (greylisting)}. {We will keep trying|Delivery will be retried} shortly.',
    ],
  }),
  phrasings('server-busy', {
    'delay-notice': [
      '{Delivery to {rcpt} has been delayed|Your message has not been delivered yet}: the receiving server is {busy|overloaded}. {We will keep trying|Delivery will be retried} for {n} more {hours|days}.',
    ],
  }),
];
