import { phrasings } from '../situation.ts';

// Replies of the systems the other phrasing files barely cover: shared-hosting platforms and their MTAs (cPanel's
// Exim ACLs, Plesk, GoDaddy / secureserver, IONOS, OVH, Strato, Hetzner, Aruba, Register.it, Hostinger,
// Namecheap, Rackspace, Bluehost / HostGator, DreamHost, SiteGround), hosted business mail (Amazon WorkMail / SES,
// Zoho, Yandex 360, Mail.com, Fastmail, Tuta, Posteo, mailbox.org, Runbox, Proton), forwarding services
// (ImprovMX, Forward Email, Cloudflare Email Routing, Pobox), Google Workspace and Microsoft 365 routing,
// connectors and group restrictions, older and enterprise servers (Oracle / Sun Messaging Server, GroupWise,
// Domino, Exchange 2003-2019 NDR texts, Scalix, Kerio, SmarterMail, IceWarp, MDaemon, Mercury/32, ArGoSoft,
// qmail-ldap) and the security gateways (Sophos, FortiMail, WatchGuard, SonicWall, Barracuda, Cisco Secure Email,
// Kaspersky, ESET, McAfee MEG, Clearswift, Vade, Libraesva, Hornetsecurity, SpamExperts, Proofpoint Essentials,
// Mimecast, SpamTitan, MailChannels, Cloudmark-based ISP gateways).
//
// Why: these products word the same causes differently from the big receivers and stock MTAs (their own NDR
// sentences, vendor names in the text, forwarders' Node.js / .NET error strings, hosting control-panel limits), and
// a classifier trained only on the big providers misreads them. Product tags and help URLs appear only where the
// product really sends them; elsewhere the wording is plain. Replies that read two ways (cPanel "over quota and
// inactive", Exchange 2003 "larger than the current system limit or the recipient's mailbox is full", Mimecast's
// bare "Internal resource temporarily unavailable" during greylisting, M365 "4.7.500 Server busy" throttling,
// SmarterMail "Sending address not accepted due to spam filter") are left out.
export default [
  // -------------------------------------------------------------------------------------------------------------
  // Recipient side
  // -------------------------------------------------------------------------------------------------------------
  phrasings('recipient-unknown', {
    cpanel: [
      '550-The recipient cannot be verified.  Please check all recipients of this\n550 message to verify they are valid.',
    ],
    godaddy: ['550 5.1.1 <{rcpt}> Recipient not found. <http://x.co/irbounce>'],
    dreamhost: [
      '550 5.1.1 <{rcpt}>: Recipient address rejected: no mailbox or forwarding address is set up for this user',
    ],
    rackspace: ['550 5.1.1 <{rcpt}>: Recipient address rejected: The mailbox does not exist on this server'],
    strato: ['550 5.1.1 <{rcpt}>: Postfach existiert nicht / mailbox does not exist'],
    aruba: ['550 5.1.1 <{rcpt}>: Recipient address rejected: utente inesistente / user does not exist'],
    'amazon-workmail': ['550 5.1.1 Requested action not taken: mailbox {rcpt} does not exist in this organization'],
    fastmail: ['550 5.1.1 <{rcpt}>: Recipient address rejected: no such user SESSIONID=<{ref}>'],
    runbox: ['550 5.1.1 <{rcpt}>: unknown Runbox account'],
    improvmx: [
      '550 5.1.1 No alias is defined for <{rcpt}> on this domain',
      '550 5.1.1 <{rcpt}>: this address has no forwarding rule',
    ],
    'forward-email': ['550 5.1.1 <{rcpt}> is not configured to receive mail (no forwarding address found)'],
    'cloudflare-routing': ['550 5.1.1 Email Routing: no route is configured for {rcpt}'],
    pobox: ['550 5.1.1 <{rcpt}>: no such Pobox address'],
    'exchange-2007': [
      "The recipient's e-mail address was not found in the recipient's e-mail system. Microsoft Exchange will not try to redeliver this message for you. Please check the e-mail address and try resending this message, or provide the following diagnostic text to your system administrator.",
    ],
    hostinger: ['550 5.1.1 <{rcpt}>: Recipient address rejected: mailbox does not exist at {domain}'],
    'cisco-esa': [
      "5.1.0 - Unknown address error 550-'#5.1.0 Address rejected {rcpt}'",
      "5.1.0 - Unknown address error 550-'5.1.1 <{rcpt}>: Recipient address rejected: User unknown in local recipient table'",
    ],
    barracuda: ['550 permanent failure for one or more recipients ({rcpt}:550 5.1.1 Mailbox does not exist)'],
    groupwise: ['550 5.1.1 <{rcpt}>... User not found in the GroupWise directory'],
    mercury: ['550 5.1.1 <{rcpt}>: no such local user'],
    argosoft: ['550 User {rcpt} unknown, message rejected'],
    qmail: ['511 sorry, no mailbox here by that name (#5.1.1 - chkusr)'],
    icewarp: ['550 5.1.1 <{rcpt}> Mailbox not found on this server'],
    sonicwall: ['550 5.1.1 <{rcpt}>... Recipient not found in LDAP directory'],
    fortimail: ['550 5.1.1 <{rcpt}>... User unknown (recipient verification failed)'],
    'proofpoint-essentials': ['550 5.1.1 Recipient address rejected: {rcpt} is not a valid user of this organization'],
    'sophos-central': ['550 5.1.1 <{rcpt}>: Recipient address rejected: not a known mailbox'],
  }),

  phrasings('mailbox-disabled', {
    cpanel: ['550 5.2.1 The email account {rcpt} is suspended and cannot receive mail'],
    iplanet: [
      '452 4.2.1 Mailbox temporarily disabled: {rcpt}',
      '550 5.2.1 Mailbox disabled, account {user} is inactive',
    ],
    groupwise: [
      'The message could not be delivered: the account {user} has been disabled by the GroupWise administrator.',
    ],
    domino: ['Unable to deliver message: Mail delivery to {user} has been disabled'],
    'zoho-business': ['550 5.2.1 Account is suspended - <{rcpt}>'],
    'yandex-360': ['550 5.2.1 <{rcpt}>: mailbox is frozen due to inactivity, not accepting mail'],
    'mail-com': ['550 5.2.1 <{rcpt}>: mailbox has been locked due to inactivity'],
    fastmail: ['550 5.2.1 <{rcpt}> account is suspended SESSIONID=<{ref}>'],
    protonmail: ['550 5.2.1 <{rcpt}>: Recipient address rejected: Account is disabled'],
    tuta: ['550 5.2.1 <{rcpt}>: the account has been deactivated'],
    rackspace: ['550 5.2.1 <{rcpt}>: this mailbox has been disabled by the administrator'],
    smartermail: ['550 5.2.1 <{rcpt}> Account is suspended'],
    icewarp: ['550 5.2.1 <{rcpt}> Account disabled or expired'],
    'qmail-ldap': ['Sorry, this account has been deactivated. (#5.2.1)'],
    scalix: ['550 5.2.1 {user}... Mailbox is suspended'],
    mercury: ['Mailbox for {user} is locked: account disabled'],
    'microsoft-365': ["Your message to {rcpt} couldn't be delivered. The recipient's mailbox is disabled."],
  }),

  phrasings('mailbox-full', {
    cpanel: ['mailbox is full: retry timeout exceeded'],
    hostgator: ['552 5.2.2 <{rcpt}>: the email account that you tried to reach has exceeded its disk quota'],
    godaddy: ['552 5.2.2 <{rcpt}> Mailbox full. <http://x.co/irbounce>'],
    iplanet: ['452 4.2.2 Mailbox is full / Blocks limit exceeded / Inode limit exceeded'],
    groupwise: ["The message could not be delivered because the recipient's mailbox size limit has been exceeded."],
    domino: ['Unable to deliver message: mail file {user}.nsf has exceeded its quota'],
    'exchange-2007': [
      "The recipient's mailbox is full and can't accept messages now. Microsoft Exchange will not try to redeliver this message for you. Please try resending this message later, or contact the recipient directly.",
    ],
    'microsoft-365': ["Your message to {rcpt} couldn't be delivered. {user}'s mailbox is full."],
    'zoho-business': ['552 5.2.2 User mailbox storage quota reached - <{rcpt}>'],
    'mail-com': ['552 5.2.2 <{rcpt}>: the mailbox has exceeded its storage limit'],
    fastmail: ['552 5.2.2 <{rcpt}>: mailbox is over its storage quota SESSIONID=<{ref}>'],
    tuta: ['452 4.2.2 <{rcpt}>: mailbox storage full, try again later'],
    posteo: ['552 5.2.2 <{rcpt}>: Speicherplatz des Postfachs erschöpft / mailbox storage exhausted'],
    'mailbox-org': ['452 4.2.2 <{rcpt}>: Recipient address rejected: Mailbox quota exceeded'],
    rackspace: ['552 5.2.2 <{rcpt}>: Recipient address rejected: Mailbox over quota'],
    smartermail: ['452 <{rcpt}> Mailbox full'],
    icewarp: ['552 5.2.2 <{rcpt}> Account quota exceeded'],
    barracuda: ['550 permanent failure for one or more recipients ({rcpt}:552 5.2.2 Mailbox full)'],
    'cisco-esa': ["5.2.2 - Mailbox full 552-'5.2.2 <{rcpt}>: mailbox quota exceeded'"],
    mercury: ['Mailbox for {user} is full: maximum size reached'],
  }),

  phrasings('recipient-rate', {
    cpanel: ['450 4.2.1 The recipient {rcpt} has exceeded the maximum number of emails it may receive per hour'],
    'zoho-business': ['451 4.2.1 Recipient {rcpt} is receiving mail too quickly. Try after some time.'],
    hornetsecurity: ['451 4.2.1 <{rcpt}>: too many messages for this recipient, please try again later'],
    smartermail: ['450 4.2.1 Recipient {rcpt} has received too many messages in a short time'],
    icewarp: ['451 4.2.1 Mailbox {rcpt} has exceeded its incoming message limit, try again later'],
    'mail-com': ['450 4.2.1 <{rcpt}>: the recipient has received too many messages, try later'],
  }),

  phrasings('too-many-recipients', {
    'exchange-2003': [
      'The message has too many recipients. Try to send the message with fewer recipients. <{host} #5.5.3>',
    ],
    cpanel: ['550 Too many recipients for this message: limit is {n}'],
    godaddy: [
      '550 p3plibsmtp0{1|2|3}-0{1|2|3|4|5|6}.prod.phx3.secureserver.net bizsmtp Too many recipients. The maximum number of recipients per message is {n}',
    ],
    iplanet: ['452 4.5.3 Too many recipients specified'],
    smartermail: ['452 4.5.3 Too many recipients in this message'],
    icewarp: ['452 4.5.3 Recipient limit of {n} per message exceeded'],
    'amazon-ses': ['554 Transaction failed: Recipient count exceeds 50.'],
    groupwise: ['452 Too many recipients; the maximum per message is {n}'],
    'sophos-utm': ['452 4.5.3 Too many recipients for this session'],
  }),

  phrasings('recipient-domain-not-found', {
    cpanel: [
      'The mail server could not deliver mail to {rcpt}.  The account or domain may not exist, they may be blacklisted, or missing the proper dns entries.',
    ],
    domino: [
      'No route found to domain {domain} from server {host}. Check Server, Connection and Domain documents in Domino Directory.',
    ],
    'forward-email': ['queryMx ENOTFOUND {domain}', 'getaddrinfo ENOTFOUND {mx}'],
    smartermail: ['Failed to resolve MX for {domain}: Non-existent domain'],
    icewarp: ['DNS lookup of {domain} failed: no mail exchanger or address found'],
    kerio: ['Cannot deliver to {rcpt}: domain {domain} was not found in DNS'],
    groupwise: ['The destination domain {domain} could not be resolved: no MX or A record'],
    mdaemon: ['No MX or A records found for {domain}; the message cannot be delivered'],
  }),

  phrasings('relay-denied', {
    cpanel: [
      '550-Please turn on SMTP Authentication in your mail client, or login to the\n550-IMAP/POP3 server before sending your message.  {host}\n550-[{ip}]:{n} is not permitted to relay through this server without\n550 authentication.',
    ],
    hostgator: [
      '550-{host} [{ip}]:{n} is currently not permitted to relay through this server.\n550-Perhaps you have not logged into the pop/imap server in the last 30 minutes\n550 or do not have SMTP Authentication turned on in your email client.',
    ],
    'google-workspace': [
      '550 5.7.0 Mail relay denied [{ip}]. Invalid credentials for relay for one of the domains in: {sdomain} (as obtained from HELO and MAIL FROM). {gid} - gsmtp',
      "550-5.7.1 Invalid credentials for relay [{ip}]. The IP address you've\n550-5.7.1 registered in your G Suite SMTP Relay service doesn't match domain of\n550 5.7.1 the account this email is being sent from. {gid} - gsmtp",
    ],
    hetzner: ['554 5.7.1 <{rcpt}>: Relay access denied - this server only accepts mail for its own domains'],
    iplanet: ['550 5.7.1 Relaying not allowed: {rcpt}'],
    mercury: ['553 We do not relay non-local mail, sorry.'],
    argosoft: ['550 Sorry, relaying is not allowed for <{rcpt}>'],
    groupwise: ['550 5.7.1 Relaying denied: {domain} is not a local domain'],
    smartermail: ['550 <{rcpt}> Relay access denied. Authentication is required for relay'],
    icewarp: ['550 5.7.1 <{rcpt}>... Relay not allowed for this domain'],
    barracuda: ['550 5.7.1 No such domain at this location ({rcpt})'],
    'proofpoint-essentials': ['550 5.7.1 Relaying denied: domain {domain} is not hosted here'],
    spamexperts: ['550 relay not permitted: {domain} is not a configured domain'],
    improvmx: ['550 5.7.1 Domain {domain} is not configured on this forwarding service'],
    'cloudflare-routing': ['550 5.7.1 Email Routing is not enabled for {domain}'],
    rackspace: ['550 5.7.1 <{rcpt}>: Relaying denied, {domain} is not hosted on this server'],
    'sophos-utm': ['550 Relaying denied for <{rcpt}>: recipient domain is not accepted here'],
  }),

  phrasings('mail-loop', {
    'google-workspace': ['554 5.4.6 Message exceeded 50 hops, this may indicate a mail loop. {gid} - gsmtp'],
    'microsoft-365': [
      "Your message to {rcpt} couldn't be delivered because it was stuck in a mail loop between servers.",
    ],
    'mailbox-org': ['554 5.4.6 <{rcpt}>: mail forwarding loop detected, too many Delivered-To headers'],
    cpanel: ['mail forwarding loop for {rcpt}: the forwarder points back to this server'],
    improvmx: ['Loop detected: {rcpt} forwards back to itself'],
    pobox: ['554 5.4.6 Forwarding loop: the destination of {rcpt} forwards back to Pobox'],
    'cloudflare-routing': ['550 5.4.6 Forwarding loop detected for {rcpt}'],
    iplanet: ['554 5.4.6 Too many received lines; possible mail loop'],
    groupwise: ['Hop count exceeded: the message was looping between post offices'],
    smartermail: ['554 Mail loop detected: too many hops ({n})'],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Sending side, connections and temporary states
  // -------------------------------------------------------------------------------------------------------------
  phrasings('connection-failure', {
    'forward-email': [
      'connect {ECONNREFUSED|ETIMEDOUT|EHOSTUNREACH} {ip}:25',
      'Connection closed unexpectedly by {mx}',
    ],
    'microsoft-365': [
      '450 4.4.316 Connection timed out [Message=Socket error code 10060] [LastAttemptedServerName={mx}] [LastAttemptedIP={ip}:25] [{msh}]',
    ],
    smartermail: ['Failed to connect to {mx} ({ip}): Connection timed out'],
    icewarp: ['Could not connect to remote server {ip}:25 - connection refused'],
    groupwise: ['Unable to establish a connection with {mx}: the remote host did not respond'],
    kerio: ['Connection to SMTP server {mx} failed: Connection timed out'],
    domino: ['Unable to deliver message: Unable to connect to remote host {mx}'],
  }),

  phrasings('expired-retries', {
    smartermail: ['Message delivery to {rcpt} failed after {n} attempts. The message has been removed from the queue.'],
    icewarp: ['The message could not be delivered within {2|3|4|5} days and was returned to the sender'],
    groupwise: ['Message expired: delivery to {rcpt} could not be completed in the allowed time'],
    mdaemon: ['Message deleted from the remote queue after {n} failed delivery attempts'],
    'microsoft-365': [
      "Your message to {rcpt} couldn't be delivered because it expired in the queue before delivery succeeded.",
    ],
    'forward-email': ['Message expired after {n} retries over 5 days'],
    'zoho-business': ['Message delivery failed: the recipient server could not be reached for {2|3|4|5} days'],
    cpanel: ['Message has lingered on {host} for more than {4|5|7} days without successful delivery'],
  }),

  phrasings('server-busy', {
    exchange: ['432 4.3.2 STOREDRV; mailbox server is too busy'],
    iplanet: ['421 4.3.2 Too busy to accept mail now; try again later'],
    smartermail: ['421 4.3.2 The server is currently too busy to process your request'],
    icewarp: ['421 4.3.2 Server is overloaded at the moment, please retry later'],
    'cisco-esa': ['421 4.3.2 Service temporarily unavailable, system too busy'],
    fortimail: ['421 4.3.2 System is busy, please try again later'],
    'sophos-utm': ['451 4.3.2 Server load too high, please retry later'],
    barracuda: ['421 4.3.2 Service busy, system load too high, try again later'],
    kerio: ['452 4.3.1 Not enough disk space on the server, try again later'],
    domino: ['Unable to deliver message: Server is too busy to process the request'],
    hetzner: ['421 4.3.2 {mx}: system overloaded, please retry later'],
    groupwise: ['421 The GroupWise Internet Agent is too busy, try again later'],
  }),

  phrasings('temporary-failure', {
    plesk: [
      '451 4.3.0 <{rcpt}>: Temporary error while looking up the mailbox, please try again later',
      '451 4.3.0 Error: queue file write error, try again later',
    ],
    'qmail-ldap': ['Temporary error in LDAP lookup. (#4.4.3)'],
    exchange: ['421 4.3.2 System not accepting network messages'],
    iplanet: ['451 4.4.3 Temporary error looking up recipient in the directory'],
    domino: ['Unable to deliver message: Database is currently in use by another process'],
    groupwise: ['451 4.3.0 Post office is closed, try again later'],
    smartermail: ['451 4.3.0 Temporary internal error, please try again later'],
    icewarp: ['451 4.3.0 Temporary local error in processing, retry later'],
    kerio: ['451 4.3.0 Internal server error while processing the message, try again later'],
    fortimail: ['451 4.3.0 Temporary failure, antivirus engine not available'],
    'sophos-central': ['451 4.3.0 Message scanning temporarily unavailable, please try again later'],
    barracuda: ['451 4.3.0 Message temporarily rejected: internal error, please retry'],
    hornetsecurity: ['451 4.3.0 Temporary error during message processing, please try again later'],
    ovh: ['451 4.3.0 Temporary failure in mailbox delivery, retry later'],
    'cisco-esa': ['451 #4.3.0 Mail server temporarily unavailable'],
  }),

  phrasings('greylisting', {
    plesk: ['451 4.7.1 <{rcpt}>: Recipient address rejected: Greylisting in action, please come back later'],
    cpanel: ['451 Temporarily rejected: greylisted. Please try again later.'],
    'sophos-utm': ['451 4.7.1 Greylisting active, please retry in a few minutes'],
    fortimail: ['451 4.7.1 Greylisting enabled, please try again later'],
    hornetsecurity: ['451 4.7.1 Message temporarily deferred by greylisting'],
    libraesva: ['451 4.7.1 Greylisted by Libraesva ESG, retry in {60|300} seconds'],
    icewarp: ['450 4.7.1 Greylisting in progress, please try again later'],
    eset: ['451 4.7.1 Please try again later, greylisting in action'],
    spamtitan: ['450 4.7.1 <{rcpt}>: Recipient address rejected: Greylisted by SpamTitan, try again later'],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Volume
  // -------------------------------------------------------------------------------------------------------------
  phrasings('ip-rate-volume', {
    exchange: ['421 4.7.0 Too many messages from this IP in a given time frame, closing connection'],
    godaddy: [
      '421 p3plibsmtp0{1|2|3}-0{1|2|3|4|5|6}.prod.phx3.secureserver.net bizsmtp Too many messages from your IP address in a given period, please try later',
    ],
    cpanel: ['451 {ip} has exceeded the maximum messages per hour, try again later'],
    barracuda: ['421 4.7.0 [{ip}] Rate control: too many messages from this IP, try again later'],
    'cisco-esa': ['452 #4.3.0 Exceeded maximum messages per hour from host {ip}'],
    fortimail: ['421 4.7.0 Sender IP {ip} exceeded the message rate limit'],
    'sophos-utm': ['451 4.7.1 Too many messages from {ip} this hour, please slow down'],
    hornetsecurity: ['450 4.7.1 Too many mails from your IP {ip} in the last hour'],
    spamexperts: ['451 Ratelimit exceeded for {ip}: too many messages, try again later'],
    mailchannels: ['421 4.7.0 Too many messages from IP {ip}, throttled'],
    cloudmark: ['421 4.7.0 {ip}: message volume from this IP exceeds our limits, try again later'],
    'zoho-business': ['421 4.7.0 Too many messages from your IP. Try after some time.'],
    hetzner: ['450 4.7.1 <{rcpt}>: Recipient address rejected: too many messages from {ip} in the last hour'],
  }),

  phrasings('domain-rate-volume', {
    'sophos-central': ['451 4.7.1 Too many messages from sender domain {sdomain}, please retry later'],
    barracuda: ['421 4.7.0 Rate control: too many messages from sender domain {sdomain}'],
    fortimail: ['451 4.7.1 Sender domain {sdomain} exceeded the allowed message rate'],
    hornetsecurity: ['450 4.7.1 Too many messages from domain {sdomain} in the last hour, please retry later'],
    mailchannels: ['421 4.7.0 Sending domain {sdomain} is sending too fast, throttled'],
    hostinger: ['550 Domain {sdomain} has reached its daily sending limit of {n} emails'],
    spamexperts: ['451 Ratelimit exceeded for sender domain {sdomain}'],
  }),

  phrasings('general-rate', {
    plesk: [
      'Your message could not be sent. The limit on the number of allowed outgoing messages was exceeded. Try again later.',
    ],
    'amazon-ses': [
      '454 Throttling failure: Maximum sending rate exceeded.',
      '454 Throttling failure: Daily message quota exceeded.',
    ],
    'google-workspace': [
      '550-5.4.5 Daily user sending limit exceeded. For more information on Gmail\n550-5.4.5 sending limits go to\n550 5.4.5  https://support.google.com/a/answer/166852 {gid} - gsmtp',
      '550-5.4.5 Daily SMTP relay limit exceeded for user. For more information on\n550-5.4.5 SMTP relay sending limits please contact your administrator or\n550-5.4.5 visit https://support.google.com/a/answer/166852 {gid} - gsmtp',
      '550 5.7.1 Daily SMTP relay limit exceeded for customer. {gid} - gsmtp',
    ],
    'microsoft-365': [
      "550 5.1.90 Your message can't be sent because you've reached your daily limit for message recipients. For more information please go to http://go.microsoft.com/fwlink/?LinkId=526653 [{msh}]",
    ],
    hostinger: ['550 5.7.1 Daily sending limit reached for {sender}, try again tomorrow'],
    namecheap: ['451 4.7.1 Sending limit exceeded for {sender}, please try again later'],
    dreamhost: ['550 5.7.1 You have exceeded your per-hour email limit, please wait and try again'],
    fastmail: ['450 4.7.1 You have exceeded your sending limit, please try again later'],
    protonmail: ['421 4.7.0 Sending rate limit exceeded for this account, please slow down'],
    mailchannels: ['421 4.7.0 Sender {sender} is sending too fast; rate limited'],
    siteground: ['550 Sending limit of {n} messages per hour exceeded for {sender}'],
    aruba: ['550 5.7.1 Superato il limite di invio orario / hourly sending limit exceeded'],
  }),

  phrasings('concurrency', {
    'cisco-esa': ['421 Maximum concurrent connections from {ip} reached, try later'],
    godaddy: [
      '421 p3plibsmtp0{1|2|3}-0{1|2|3|4|5|6}.prod.phx3.secureserver.net bizsmtp Connection refused. Too many connections from your IP address',
    ],
    barracuda: ['421 4.7.0 [{ip}] too many concurrent connections, please reconnect later'],
    fortimail: ['421 4.3.2 Too many simultaneous sessions from {ip}'],
    'sophos-utm': ['421 4.7.0 Connection limit per host exceeded'],
    smartermail: ['421 Too many connections from your IP, please try again later'],
    icewarp: ['421 4.3.2 Maximum number of simultaneous connections from {ip} reached'],
    iplanet: ['421 4.3.2 Connection limit exceeded for {ip}'],
  }),

  phrasings('url-domain-rate', {
    vade: ['421 4.7.0 Too many messages containing the link domain {udomain}, try again later'],
    cloudmark: ['451 4.7.1 Mail with URLs pointing to {udomain} is temporarily rate limited'],
    hornetsecurity: ['450 4.7.1 Rate limit reached for messages linking to {udomain}, please retry later'],
    mailchannels: ['421 4.7.0 Too many messages with links to {udomain}; deferred'],
    spamexperts: ['451 Ratelimit exceeded for URL domain {udomain}'],
    barracuda: ['421 4.7.0 Message volume for URL domain {udomain} exceeds limit, try later'],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Reputation
  // -------------------------------------------------------------------------------------------------------------
  phrasings('ip-reputation-temporary', {
    mailchannels: ["451 4.7.1 Temporarily deferred due to the sending MTA's poor reputation ({ip})"],
    cloudmark: ['421 4.7.1 {ip} has a low reputation score, try again later'],
    barracuda: ['421 4.7.1 Deferred: poor sender IP reputation, try again later'],
    'sophos-central': ['451 4.7.1 Your IP address {ip} has a poor reputation, please try again later'],
    godaddy: [
      '421 p3plibsmtp0{1|2|3}-0{1|2|3|4|5|6}.prod.phx3.secureserver.net bizsmtp Temporarily deferred due to the reputation of {ip}',
    ],
    vade: ['421 4.7.0 Temporarily deferred: IP {ip} reputation too low'],
    'proofpoint-essentials': ['451 4.7.1 Deferred due to poor reputation of the sending IP {ip}'],
    hornetsecurity: ['450 4.7.1 Temporarily rejected: too much unsolicited mail originating from your IP {ip}'],
  }),

  phrasings('ip-reputation-permanent', {
    mailchannels: ["550 5.7.1 Rejected due to the sending MTA's poor reputation ({ip})"],
    cloudmark: ['554 5.7.1 {ip}: sender IP has a poor reputation score'],
    barracuda: ['554 5.7.1 Rejected: poor sender IP reputation'],
    sonicwall: ['554 5.7.1 Message rejected: sending IP {ip} has a bad reputation'],
    'sophos-central': ['550 5.7.1 Rejected: the reputation of {ip} is too low'],
    'proofpoint-essentials': ['550 5.7.1 Connection rejected: poor reputation of sending IP {ip}'],
    vade: ['554 5.7.1 IP {ip} rejected for bad reputation'],
    libraesva: ['554 5.7.1 Connection rejected: IP reputation of {ip} is poor'],
  }),

  phrasings('domain-reputation-temporary', {
    mailchannels: ['451 4.7.1 Sender domain {sdomain} has a poor reputation, please try again later'],
    cloudmark: ['421 4.7.0 Messages from {sdomain} temporarily deferred due to domain reputation'],
    barracuda: ['421 4.7.1 Deferred: sender domain {sdomain} has poor reputation'],
    'sophos-central': ['451 4.7.1 Temporarily rejected: low reputation of sending domain {sdomain}'],
    hornetsecurity: ['450 4.7.1 Sender domain {sdomain} reputation is too low, try again later'],
    'proofpoint-essentials': ['451 4.7.1 Deferred: the reputation of {sdomain} is poor'],
    vade: ['421 4.7.0 Domain {sdomain} temporarily deferred for reputation'],
  }),

  phrasings('domain-reputation-permanent', {
    mailchannels: ['550 5.7.1 Rejected: the sending domain {sdomain} has a poor reputation'],
    cloudmark: ['554 5.7.1 Sender domain {sdomain} has a bad reputation score'],
    barracuda: ['554 5.7.1 Message rejected: sender domain {sdomain} has a poor reputation'],
    'sophos-central': ['550 5.7.1 Rejected due to the bad reputation of sender domain {sdomain}'],
    vade: ['554 5.7.1 Domain {sdomain} rejected for bad reputation'],
    libraesva: ['550 5.7.1 Sender domain {sdomain} reputation too low, message refused'],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Blocks
  // -------------------------------------------------------------------------------------------------------------
  phrasings('dnsbl-ip', {
    cpanel: ['550 Your IP {ip} is listed in {zen.spamhaus.org|bl.spamcop.net|b.barracudacentral.org}'],
    spamexperts: ['550 The sending IP ({ip}) is listed on https://spamrl.com. Please resolve and retry'],
    cloudmark: [
      '554 5.7.1 Client host [{ip}] blocked using Cloudmark CSI; see http://csi.cloudmark.com/reset-request/?ip={ip}',
      '421 4.7.1 {ip} is on the Cloudmark CSI suspect list, try again later',
    ],
    godaddy: [
      '554 p3plibsmtp0{1|2|3}-0{1|2|3|4|5|6}.prod.phx3.secureserver.net bizsmtp Connection refused. {ip} is listed on the Spamhaus Block List',
    ],
    rackspace: ['554 5.7.1 Client host [{ip}] blocked using Spamhaus, see https://check.spamhaus.org/'],
    ovh: ['550 5.7.1 Your IP {ip} is listed on SpamCop, see https://www.spamcop.net/bl.shtml?{ip}'],
    hornetsecurity: ['554 5.7.1 {ip} is listed on UCEPROTECT Level 1, connection rejected'],
    'proofpoint-essentials': ['554 5.7.1 Service unavailable; Client host [{ip}] blocked using Spamhaus SBL-XBL'],
    'sophos-utm': ['554 5.7.1 Connection rejected: {ip} found in RBL {zen.spamhaus.org|b.barracudacentral.org}'],
    fortimail: ['550 5.7.1 Connection rejected: {ip} is listed on DNSBL {bl.spamcop.net|zen.spamhaus.org}'],
    smartermail: ['554 5.7.1 Your IP {ip} is blacklisted by {zen.spamhaus.org|bl.spamcop.net}. Message rejected'],
    icewarp: ['550 5.7.1 Access denied: IP {ip} found on DNSBL {bl.mailspike.net|dnsbl.sorbs.net}'],
    domino: ['550 Mail from {ip} denied: host is listed by {zen.spamhaus.org|bl.spamcop.net}'],
    mailchannels: ['550 5.7.1 {ip} is listed in {Spamhaus ZEN|Invaluement}'],
    sonicwall: ['554 5.7.1 Rejected: {ip} listed at {zen.spamhaus.org|psbl.surriel.com} real-time blacklist'],
  }),

  phrasings('dnsbl-domain', {
    cpanel: ['550-JunkMail rejected - sender domain {sdomain} is listed at dbl.spamhaus.org'],
    barracuda: ['554 5.7.1 Sender domain {sdomain} blocked using dbl.spamhaus.org'],
    hornetsecurity: ['554 5.7.1 MAIL FROM domain {sdomain} is listed on URIBL'],
    fortimail: ['550 5.7.1 Sender domain {sdomain} found in SURBL, message rejected'],
    'sophos-utm': ['554 5.7.1 Rejected: HELO domain {host} listed in dbl.spamhaus.org'],
    rackspace: ['550 5.7.1 Envelope sender domain {sdomain} is listed in Spamhaus DBL'],
    mailchannels: ['550 5.7.1 Sender domain {sdomain} found on Spamhaus DBL'],
  }),

  phrasings('uribl-content', {
    cpanel: ['550-JunkMail rejected - message contains a URL ({udomain}) listed at multi.uribl.com'],
    barracuda: ['554 5.7.1 Message blocked: body contains {udomain}, listed at multi.surbl.org'],
    hornetsecurity: ['554 5.7.1 Message rejected: link to {udomain} listed on Spamhaus DBL'],
    'sophos-utm': ['550 5.7.1 Message contains a link to {udomain}, which is listed on URIBL'],
    fortimail: ['550 5.7.1 Message rejected: URI {udomain} found in SURBL'],
    libraesva: ['554 5.7.1 URL {udomain} listed in {URIBL|SURBL|Spamhaus DBL}, message refused'],
  }),

  phrasings('own-ip-block', {
    'microsoft-365': [
      '550 5.7.{607|612|625|631|649} Access denied, banned sending IP [{ip}]. To request removal from this list please visit https://sender.office.com/ and follow the directions.',
      '550 5.7.513 Service unavailable, Client host [{ip}] blocked by {domain} using Customer Block list (AS16012607)',
    ],
    'google-workspace': ['421-4.7.0 IP not in whitelist for RCPT domain, closing connection. {gid} - gsmtp'],
    mimecast: ['451 IP Temporarily Blacklisted - https://community.mimecast.com/docs/DOC-1369#451'],
    mdaemon: ['421 4.7.0 Your IP address {ip} has been temporarily blocked by Dynamic Screening'],
    smartermail: ['554 Your IP address {ip} has been blocked by the administrator of this server'],
    icewarp: ['554 5.7.1 Access denied: IP address {ip} is in the local blacklist'],
    fortimail: ['554 5.7.1 Connection refused: IP {ip} is in the system block list'],
    sonicwall: ['554 5.7.1 Connection from {ip} rejected: sending IP blocked by administrator'],
    'proofpoint-essentials': ['554 5.7.1 Your IP {ip} is blocked by the recipient organization'],
    barracuda: ['550 5.7.1 Mail from {ip} refused by IP block policy'],
    kerio: ['554 5.7.1 Your IP address {ip} is blocked by the IP address group "Blacklist"'],
    iplanet: ['554 5.7.1 Connections from {ip} are blocked here'],
    cpanel: ['550 Your server ({ip}) has been blocked by the server administrator'],
  }),

  phrasings('policy-block', {
    'microsoft-365': [
      '550 5.7.134 RESOLVER.RST.SenderNotAuthenticatedForMailbox; authentication required; Delivery restriction check failed because the sender was not authenticated when sending to this recipient [{msh}]',
      '550 5.7.135 RESOLVER.RST.SenderNotAuthenticatedForPublicFolder; authentication required; Delivery restriction check failed because the sender was not authenticated when sending to this public folder [{msh}]',
      '550 5.7.136 RESOLVER.RST.SenderNotAuthenticatedForMailUser; authentication required; Delivery restriction check failed because the sender was not authenticated when sending to this mail user [{msh}]',
      '550 5.7.124 RESOLVER.RST.SenderNotAuthorizedForGroup; sender not in allowed-senders list [{msh}]',
      '550 5.7.750 Service unavailable. Client blocked from sending from unregistered domains. For more information please go to http://go.microsoft.com/fwlink/?LinkId=526653 [{msh}]',
      "Your message to {rcpt} couldn't be delivered. Your message couldn't be delivered because delivery to this address is restricted.",
    ],
    mailchannels: ['554 5.7.1 [CS01] Message rejected due to local policy.'],
    'cisco-esa': ["5.3.0 - Other mail system problem 550-'5.7.1 Delivery not authorized, message refused'"],
    'google-workspace': [
      '550 5.7.1 The user or domain that you are sending to (or from) has a policy that prohibited the mail that you sent. {gid} - gsmtp',
    ],
    'proofpoint-essentials': ["550 5.7.1 Message blocked by the recipient organization's email policy"],
    'sophos-central': ["550 5.7.1 Message rejected by the recipient's Sophos email policy"],
    watchguard: ['554 5.7.1 Message rejected by SMTP proxy policy'],
    clearswift: ['554 5.7.1 Message refused by policy rules'],
    kaspersky: ['550 5.7.1 Message rejected by the mail server security policy'],
    groupwise: ['554 5.7.1 Message not accepted for policy reasons'],
    iplanet: ['550 5.7.1 Access denied by mail policy'],
    libraesva: ['554 5.7.1 Rejected by administrative policy'],
    spamtitan: ['554 5.7.1 Message rejected by administrator-defined policy'],
  }),

  phrasings('sender-blocked', {
    cpanel: [
      '550-Verification failed for <{sender}>\n550-The mail server could not deliver mail to {sender}.  The account or domain may not exist, they may be blacklisted, or missing the proper dns entries.\n550 Sender verify failed',
      '550-Verification failed for <{sender}>\n550-No Such User Here\n550 Sender verify failed',
    ],
    'microsoft-365': [
      "Your message couldn't be delivered because you weren't recognized as a valid sender. The most common reason for this is that your email address is suspected of sending spam and it's no longer allowed to send messages outside of your organization.",
      "550 5.7.1 The sender {sender} is on the recipient's blocked senders list",
    ],
    ionos: ['550-Requested action not taken: mailbox unavailable\n550 Sender address is not allowed.'],
    'proofpoint-essentials': ['553 5.7.1 Sender {sender} has been blocked by the recipient (blocked senders list)'],
    barracuda: ['550 5.7.1 Sender {sender} blocked by recipient preferences'],
    fortimail: ["550 5.7.1 Sender {sender} is in the recipient's block list"],
    smartermail: ['550 5.7.1 The recipient has blocked messages from this sender'],
    'zoho-business': ['553 5.7.1 Sender address {sender} is blocked by the recipient'],
    hornetsecurity: ['550 5.7.1 Sender {sender} is on the blocklist of the recipient domain'],
    icewarp: ['550 5.7.1 Sender rejected: the domain {sdomain} in MAIL FROM does not exist'],
    kerio: ['550 5.1.8 <{sender}>: sender domain has no valid MX or A record'],
    iplanet: ['553 5.1.8 Sender domain {sdomain} unknown'],
    spamexperts: ['550 Sender address verification failed for <{sender}>'],
    'sophos-utm': ['550 Address verification failed for sender <{sender}>'],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Content
  // -------------------------------------------------------------------------------------------------------------
  phrasings('spam-content', {
    cpanel: ['550 The mail server detected your message as spam and has prevented delivery.'],
    godaddy: [
      '554 p3plibsmtp0{1|2|3}-0{1|2|3|4|5|6}.prod.phx3.secureserver.net bizsmtp Message rejected: content detected as spam',
    ],
    mailchannels: ['550 5.7.1 This message was flagged as spam by the MailChannels filter'],
    barracuda: ['554 5.7.1 Message blocked as spam (score {n}.{n})'],
    'sophos-central': ['550 5.7.1 Message rejected: Sophos has classified this message as spam'],
    sonicwall: ['550 5.7.1 Message rejected as junk by Email Security'],
    watchguard: ['554 5.7.1 Message rejected by spamBlocker: confirmed spam'],
    kaspersky: ['550 5.7.1 Message rejected: classified as spam by Kaspersky Anti-Spam'],
    eset: ['554 5.7.1 Message rejected by ESET antispam: spam detected'],
    'mcafee-meg': ['550 5.7.1 Message rejected by McAfee anti-spam: score {n}.{n} above threshold'],
    clearswift: ['554 5.7.1 Message rejected: identified as spam'],
    vade: ['550 5.7.1 Message rejected as spam by Vade'],
    libraesva: ['554 5.7.1 Message rejected: spam detected by Libraesva ESG'],
    hornetsecurity: ['550 5.7.1 Message rejected due to suspected spam content'],
    spamtitan: ['550 5.7.1 SpamTitan: message classified as spam and rejected'],
    'proofpoint-essentials': ['550 5.7.1 Message rejected by spam filter'],
    cloudmark: ['554 5.7.1 Message rejected: Cloudmark Authority classified the content as spam'],
    ovh: ['550 5.7.1 Message refused: considered as spam by the antispam filter'],
    zix: ['550 5.7.1 Message rejected: spam detected by ZixProtect'],
  }),

  phrasings('other-content', {
    hostinger: ['552 5.3.4 Message size exceeds {n} MB, the maximum allowed by this server'],
    'google-workspace': [
      '550-5.7.1 [{ip}] Messages missing a valid address in From: header, or\n550 5.7.1 having no From: header, are not accepted. {gid} - gsmtp',
    ],
    exchange: ['550 5.3.4 SMTPSEND.OverAdvertisedSize; message size exceeds fixed maximum size'],
    'amazon-ses': ["554 Transaction failed: Duplicate header 'Message-ID'."],
    'sophos-utm': ['550 5.7.1 Message rejected: attachment type .{exe|js|vbs} is blocked'],
    fortimail: ['552 5.3.4 Message size exceeds the configured limit of {n} KB'],
    watchguard: ['552 5.3.4 Message size exceeds limit set by SMTP proxy'],
    barracuda: ['552 5.7.1 Message blocked: attachment {invoice|document}.{exe|scr|js} is a banned file type'],
    clearswift: ['554 5.7.1 Message rejected: contains a disallowed attachment (type application/x-msdownload)'],
    'mcafee-meg': ['550 5.7.1 Message rejected: the attachment file type is not allowed'],
    kaspersky: ['550 5.7.1 Message rejected: encrypted archive attachment cannot be scanned'],
    'zoho-business': ['552 5.3.4 Message size exceeds the allowed limit of {n} MB'],
    fastmail: ['552 5.3.4 Message too big SESSIONID=<{ref}>'],
    iplanet: ['554 5.6.0 Header limit exceeded'],
    domino: ['554 Message rejected: message header is malformed'],
    groupwise: ['552 Message exceeds the maximum size allowed by the GroupWise Internet Agent'],
    'microsoft-365': [
      "Your message to {rcpt} couldn't be delivered because it's larger than the recipient's organization allows.",
    ],
  }),

  phrasings('virus', {
    cpanel: ['550 This message contains a virus ({virus}). Please scan your system.'],
    barracuda: ['554 5.7.1 Message blocked: virus found ({virus})'],
    fortimail: ['554 5.7.1 This message has been blocked because it contains a virus: {virus}'],
    'sophos-central': ['550 5.7.1 Message rejected: Sophos detected malware ({virus})'],
    watchguard: ['554 5.7.1 Message rejected by Gateway AntiVirus: {virus} detected'],
    kaspersky: ['554 5.7.1 Message rejected: object infected with {virus}'],
    eset: ['554 5.7.1 Message rejected: threat {virus} found by ESET Mail Security'],
    'mcafee-meg': ['550 5.7.1 Message rejected: virus {virus} detected in attachment'],
    clearswift: ['554 5.7.1 Message rejected: contains malware {virus}'],
    spamtitan: ['550 5.7.1 SpamTitan: message rejected, virus {virus} found'],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Authentication and infrastructure
  // -------------------------------------------------------------------------------------------------------------
  phrasings('dkim', {
    mailchannels: ['550 5.7.1 Message rejected: DKIM signature for {sdomain} failed to verify'],
    barracuda: ['550 5.7.1 DKIM check failed: signature did not verify'],
    fortimail: ['550 5.7.1 Rejected: DKIM signature missing for {sdomain}'],
    'sophos-central': ['550 5.7.1 Message rejected: DKIM verification failed (body hash did not verify)'],
    'cloudflare-routing': ['550 5.7.1 Message rejected: the DKIM signature of {sdomain} is invalid'],
    libraesva: ['554 5.7.1 DKIM signature of {sdomain} is invalid, message refused'],
  }),

  phrasings('spf', {
    mailchannels: ['550 5.7.1 SPF check failed: {ip} is not authorized to send for {sdomain}'],
    barracuda: ['550 5.7.1 Sender {sender} rejected: SPF hard fail for {ip}'],
    fortimail: ['550 5.7.1 SPF check failed for {sdomain}: {ip} not permitted'],
    'sophos-central': ['550 5.7.1 Rejected: the SPF record of {sdomain} does not authorize {ip}'],
    'cloudflare-routing': ['550 5.7.1 SPF validation failed: {ip} is not permitted to send for {sdomain}'],
    smartermail: ['550 5.7.1 SPF failure: sender {sender} not permitted from {ip}'],
    icewarp: ['550 5.7.1 Sender {sender} rejected by SPF policy'],
  }),

  phrasings('dmarc', {
    mailchannels: ['550 5.7.1 Message rejected: DMARC policy of {sdomain} is reject'],
    'cloudflare-routing': ['550 5.7.26 Email Routing rejected the message: DMARC policy of {sdomain} is reject'],
    barracuda: ['550 5.7.1 DMARC check failed for {sdomain}, policy reject'],
    'sophos-central': ['550 5.7.1 Message rejected: failed DMARC check for {sdomain} (p=reject)'],
    'forward-email': [
      '550 5.7.1 Message rejected: {sdomain} has a DMARC policy of reject and the message is not aligned',
    ],
    libraesva: ['554 5.7.1 DMARC policy reject for {sdomain}'],
    'google-workspace': [
      "550 5.7.26 Unauthenticated email from {sdomain} is not accepted due to domain's DMARC policy. {gid} - gsmtp",
    ],
  }),

  phrasings('ptr', {
    cpanel: ['550 Access denied - no reverse DNS found for {ip}'],
    godaddy: [
      '554 p3plibsmtp0{1|2|3}-0{1|2|3|4|5|6}.prod.phx3.secureserver.net bizsmtp Connection refused. {ip} has no reverse DNS',
    ],
    ionos: [
      '554-kundenserver.de ({mx}) Nemesis ESMTP Service not available\n554-No SMTP service\n554-Bad DNS PTR resource record.',
    ],
    fortimail: ['550 5.7.1 Rejected: reverse DNS lookup of {ip} failed'],
    'sophos-utm': ['550 5.7.1 Rejected: the PTR record of {ip} does not match its forward lookup'],
    barracuda: ['554 5.7.1 Client host {ip} rejected: no reverse DNS (PTR) record'],
    icewarp: ['550 5.7.1 Your IP {ip} has a generic reverse DNS name; please use your ISP relay'],
    'microsoft-365': [
      '550 5.7.25 Access denied, the sending IPv6 address [{ip}] must have a reverse DNS record. [{msh}]',
    ],
  }),

  phrasings('helo', {
    cpanel: ['550 Access denied - Invalid HELO name (See RFC2821 4.1.3)'],
    fortimail: ['501 5.5.2 HELO/EHLO argument {helo} rejected: fully qualified domain name required'],
    'sophos-utm': ['550 5.7.1 Rejected: invalid HELO/EHLO name {helo}'],
    barracuda: ['554 5.7.1 HELO name {helo} rejected: not a valid FQDN'],
    smartermail: ['550 Invalid HELO/EHLO hostname, must be a fully qualified domain name'],
    icewarp: ['501 5.5.4 Invalid EHLO argument {helo}'],
  }),

  phrasings('auth', {
    'microsoft-365': [
      "535 5.7.139 Authentication unsuccessful, user is locked by your organization's security defaults policy. Contact your administrator. [{msh}]",
      '535 5.7.139 Authentication unsuccessful, the request did not meet the criteria to be authenticated successfully. Contact your administrator. [{msh}]',
    ],
    'amazon-ses': ['535 Authentication Credentials Invalid'],
    'zoho-business': ['535 5.7.8 Authentication failed: invalid credentials for {sender}'],
    icewarp: ['535 5.7.8 Authentication credentials invalid for {user}'],
    smartermail: ['535 Authentication failed: invalid username or password'],
    fastmail: ['535 5.7.0 Incorrect username or password, an app password is required'],
    hostinger: ['530 5.7.0 Authentication required to send mail'],
  }),

  phrasings('tls-required', {
    hostinger: ['530 5.7.0 TLS is required before the MAIL command'],
    'cisco-esa': ['530 #5.7.0 TLS required for this connection, issue STARTTLS'],
    fortimail: ['530 5.7.0 TLS is required for this connection, please issue STARTTLS'],
    'sophos-utm': ['554 5.7.1 TLS encryption is required for mail to {domain}'],
    smartermail: ['530 5.7.0 This server requires TLS encryption'],
    kerio: ['530 5.7.0 Secure connection required, please use STARTTLS'],
    iplanet: ['530 5.7.0 TLS required; issue STARTTLS first'],
  }),

  phrasings('tls-handshake', {
    icewarp: ['SSL handshake with {ip} failed, message not delivered'],
    domino: ['Unable to deliver message: TLS handshake with {mx} failed'],
  }),

  phrasings('tls-certificate', {
    'forward-email': [
      "Hostname/IP does not match certificate's altnames: Host: {mx}. is not in the cert's altnames: DNS:{host}",
      '{unable to verify the first certificate|self-signed certificate in certificate chain|certificate has expired}',
    ],
    'microsoft-365': [
      '451 4.4.317 Cannot connect to remote server [Message=CertificateExpired: The remote certificate has expired] [LastAttemptedServerName={mx}] [{msh}]',
    ],
    smartermail: [
      'TLS negotiation with {mx} failed: The remote certificate is invalid according to the validation procedure.',
    ],
    kerio: ['STARTTLS negotiation with {mx} failed: certificate verification error'],
  }),

  phrasings('protocol-syntax', {
    cpanel: ['501 <{user}>: sender address must contain a domain'],
    iplanet: ['553 5.1.7 Sender address <{user}> has no domain part'],
    mercury: ['501 Invalid MAIL FROM: address must be fully qualified'],
    kerio: ['500 5.5.2 Command line too long, maximum is 512 characters'],
    barracuda: ['550 5.5.2 Bare LF received, message rejected'],
    smartermail: ['501 5.5.4 Syntax error in MAIL FROM parameters'],
    fortimail: ['503 5.5.1 Bad sequence of commands: RCPT before MAIL'],
    'google-workspace': [
      '454 4.5.0 SMTP protocol violation, no commands allowed to pipeline after STARTTLS. {gid} - gsmtp',
      '502 5.5.1 Too many unrecognized commands, goodbye. {gid} - gsmtp',
    ],
  }),
];
