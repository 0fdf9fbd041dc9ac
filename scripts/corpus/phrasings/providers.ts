import { phrasings } from '../situation.ts';

// Large mailbox providers and how their own MX (and, where the provider is the sender, its own NDR) words each
// cause: Gmail / Google Workspace, Microsoft (Outlook.com, Exchange Online / EOP, on-premises Exchange),
// Yahoo / AOL / Verizon / AT&T, Apple iCloud, the US cable ISPs, Zoho, Fastmail, Proton, the European ISPs
// (GMX / Web.de, T-Online, Freenet, Orange, Free, SFR, La Poste, Libero, Seznam, Onet / WP / Interia, KPN / Ziggo /
// XS4ALL, Telenet, Swisscom), Mail.ru / Yandex / Rambler, the Chinese providers (QQ / Tencent Exmail, NetEase,
// Sina, Sohu, Aliyun), Naver / Daum, the Japanese carriers, UOL / Terra, Telefonica and Rediffmail.
// Provider tags and help URLs are kept only where the real product sends them (Gmail ?p= pages, Microsoft S3150 /
// AS(...) / RESOLVER / STOREDRV, Yahoo [TSxx] / [BLxx], AOL (RTR:BL), Comcast BL000000, Orange OFR..., NetEase
// DT:SPM / MI:..., QQ help links); elsewhere the wording is the provider's plain text, often in its own language.
// Replies that honestly read two ways (Yahoo "policy reasons", EOP DBEB "Access denied", T-Online "A problem
// occurred", Gmail "unauthenticated" without saying SPF or DKIM) are deliberately left out.
export default [
  // -----------------------------------------------------------------------------------------------------------
  // Recipient side
  // -----------------------------------------------------------------------------------------------------------
  phrasings('recipient-unknown', {
    // A malformed recipient address can never be delivered: like an unknown one, it is removed
    'gmail-syntax': [
      '553-5.1.3 The recipient address <{user}> is not a valid RFC-5321\n553-5.1.3 address. Learn more at\n553 5.1.3  https://support.google.com/mail/answer/6596 {gid} - gsmtp',
    ],
    gmail: [
      "550-5.1.1 The email account that you tried to reach does not exist. Please try\n550-5.1.1 double-checking the recipient's email address for typos or\n550-5.1.1 unnecessary spaces. For more information, go to\n550 5.1.1  https://support.google.com/mail/?p=NoSuchUser {gid} - gsmtp",
      "Address not found\nYour message wasn't delivered to {rcpt} because the address couldn't be found, or is unable to receive mail.",
    ],
    outlook: [
      '550 5.5.0 Requested action not taken: mailbox unavailable (S2017062302). [{msh}]',
      '550 Requested action not taken: mailbox unavailable (-{n}{n}{n}:{n}:-2147467259)',
      '550 5.1.1 RESOLVER.ADR.ExRecipNotFound; not found [{msh}]',
    ],
    exchange: [
      "Your message to {rcpt} couldn't be delivered.\n{user} wasn't found at {domain}.",
      "The email address you entered couldn't be found. Please check the recipient's email address and try to resend the message. If the problem continues, please contact your helpdesk.",
    ],
    aol: [
      '550 MAILBOX NOT FOUND',
      "554 delivery error: dd This user doesn't have a aol.com account ({rcpt}) [0] - mta{n}.mail.{bf1|gq1|ne1}.yahoo.com",
    ],
    att: [
      "554 delivery error: dd This user doesn't have a {att.net|sbcglobal.net|bellsouth.net} account ({rcpt}) [0] - mta{n}.mail.{bf1|gq1|ne1}.yahoo.com",
    ],
    verizon: [
      "554 delivery error: dd This user doesn't have a verizon.net account ({rcpt}) [0] - mta{n}.mail.{bf1|gq1}.yahoo.com",
    ],
    cox: ['550 5.1.1 <{rcpt}> recipient does not exist here'],
    spectrum: ['550 5.1.1 - Invalid mailbox: {rcpt}'],
    zoho: ['550 5.1.1 User does not exist - <{rcpt}>'],
    fastmail: ['550 5.1.1 <{rcpt}> User does not exist'],
    protonmail: ['550 5.1.1 <{rcpt}>: Recipient address rejected: Address does not exist'],
    't-online': ['550 5.1.1 <{rcpt}> User unknown; rejecting'],
    freenet: ['550 5.1.1 <{rcpt}>: Empfaengeradresse abgelehnt: Benutzer unbekannt'],
    sfr: ['550 5.1.1 <{rcpt}>: Destinataire inconnu / Unknown recipient'],
    laposte: ["550 5.1.1 <{rcpt}>: Le destinataire n'existe pas / The recipient does not exist"],
    libero: ['550 5.1.1 <{rcpt}>: Recipient address rejected: utente inesistente'],
    tiscali: ['550 5.1.1 Utente sconosciuto / Unknown user <{rcpt}>'],
    seznam: ['550 5.1.1 Mailbox <{rcpt}> does not exist / Schránka neexistuje'],
    onet: ['550 5.1.1 <{rcpt}>: Recipient address rejected: Nie ma takiego użytkownika'],
    wp: ['550 5.1.1 Podany adres odbiorcy nie istnieje ({rcpt})'],
    interia: ['550 5.1.1 <{rcpt}>: Konto nie istnieje / Account does not exist'],
    rambler: ['550 5.1.1 <{rcpt}>: Почтовый ящик не существует / Mailbox does not exist'],
    exmail: ['550 Mailbox not found. http://service.exmail.qq.com/cgi-bin/help?subtype=1&&id=20022&&no=1000728'],
    sina: ['550 5.1.1 User unknown {rcpt}'],
    sohu: ['550 5.1.1 收件人地址不存在 {rcpt}'],
    aliyun: ['550 Mailbox not found: {rcpt}'],
    naver: ['550 5.1.1 <{rcpt}>: Recipient address rejected: 존재하지 않는 사용자입니다 (User unknown)'],
    daum: ['550 5.1.1 {rcpt}: 수신자를 찾을 수 없습니다. Recipient not found'],
    docomo: ['550 Unknown user {rcpt}'],
    au: ['550 <{rcpt}>: User unknown'],
    uol: ['550 5.1.1 <{rcpt}>: Recipient address rejected: Usuário inexistente'],
    terra: ['550 5.1.1 {rcpt}: Conta de e-mail inexistente'],
    telefonica: ['550 5.1.1 <{rcpt}>: El buzón no existe / Mailbox does not exist'],
    shaw: ['550 5.1.1 Recipient address rejected: {rcpt} not found'],
    ziggo: ['550 5.1.1 <{rcpt}>: Recipient address rejected: Gebruiker onbekend'],
    kpn: ['550 5.1.1 <{rcpt}> Onbekende ontvanger / unknown recipient'],
    telenet: ['550 5.1.1 <{rcpt}>: Destinataire inconnu / Onbekende bestemmeling'],
    bluewin: ['550 5.1.1 <{rcpt}>: Empfänger unbekannt / destinataire inconnu / destinatario sconosciuto'],
    rediffmail: ['550 Mailbox {rcpt} does not exist'],
  }),

  phrasings('mailbox-disabled', {
    gmail: [
      '550-5.2.1 The email account that you tried to reach is disabled. Learn more at\n550 5.2.1  https://support.google.com/mail/?p=DisabledUser {gid} - gsmtp',
      '550-5.2.1 The email account that you tried to reach is disabled. For more\n550-5.2.1 information, go to\n550 5.2.1  https://support.google.com/mail/?p=DisabledUser {gid} - gsmtp',
    ],
    yahoo: [
      '554 30 Sorry, your message to {rcpt} cannot be delivered. This mailbox is disabled (554.30).',
      '554 delivery error: dd Sorry, your message to {rcpt} cannot be delivered. This mailbox is disabled (554.30). - mta{n}.mail.{bf1|gq1|ne1}.yahoo.com',
      '554 delivery error: dd Sorry your message to {rcpt} cannot be delivered. This account has been disabled or discontinued [#102]. - mta{n}.mail.{bf1|gq1|ne1}.yahoo.com',
    ],
    mailru: [
      '550 Message was not accepted -- invalid mailbox.  Local mailbox {rcpt} is unavailable: account is disabled',
    ],
    qq: ['550 Mailbox is frozen.'],
    netease: ['550 5.2.1 User account is frozen: {rcpt}'],
    orange: ['550 5.2.1 <{rcpt}>: Boite du destinataire archivee. Archived recipient mailbox.'],
    yandex: ['550 5.2.1 <{rcpt}>: Mailbox is disabled / Почтовый ящик отключен'],
    rambler: ['550 5.2.1 Почтовый ящик {rcpt} заблокирован владельцем (account is disabled)'],
    gmx: ['550 5.2.1 <{rcpt}>: Postfach deaktiviert / mailbox disabled'],
    't-online': ['550 5.2.1 <{rcpt}> Mailbox disabled, not accepting messages'],
    libero: ['550 5.2.1 <{rcpt}>: casella disattivata / mailbox disabled'],
    seznam: ['550 5.2.1 Schránka {rcpt} je deaktivována / Mailbox is deactivated'],
    wp: ['550 5.2.1 Konto odbiorcy jest nieaktywne / Recipient account is inactive'],
    uol: ['550 5.2.1 <{rcpt}>: Conta desativada / Account disabled'],
    telefonica: ['550 5.2.1 <{rcpt}>: Cuenta de correo deshabilitada'],
    naver: ['550 5.2.1 <{rcpt}>: 휴면 계정입니다 (dormant account)'],
    kakao: ['550 5.2.1 {rcpt}: 사용이 정지된 계정입니다 (account suspended)'],
    sohu: ['550 5.2.1 该帐号已被冻结 (account frozen): {rcpt}'],
    comcast: ['550 5.2.1 <{rcpt}> mailbox disabled'],
    icloud: ['550 5.2.1 <{rcpt}>: mailbox is inactive'],
    zoho: ['550 5.2.1 Mailbox inactive - <{rcpt}>'],
    laposte: ['550 5.2.1 <{rcpt}>: Compte desactive / Account disabled'],
  }),

  phrasings('mailbox-full', {
    gmail: [
      '452-4.2.2 The email account that you tried to reach is over quota. Please direct\n452-4.2.2 the recipient to\n452 4.2.2  https://support.google.com/mail/?p=OverQuotaTemp {gid} - gsmtp',
      "452-4.2.2 The recipient's inbox is out of storage space. Please direct the\n452-4.2.2 recipient to\n452 4.2.2  https://support.google.com/mail/?p=OverQuotaTemp {gid} - gsmtp",
      '552-5.2.2 The email account that you tried to reach is over quota. Please direct\n552-5.2.2 the recipient to\n552 5.2.2  https://support.google.com/mail/?p=OverQuotaPerm {gid} - gsmtp',
    ],
    exchange: [
      '554 5.2.2 mailbox full; STOREDRV.Deliver.Exception:QuotaExceededException.MapiExceptionShutoffQuotaExceeded; Failed to process message due to a permanent exception with message [BeginDiagnosticData]Cannot open mailbox /o=ExchangeLabs/ou=Exchange Administrative Group (FYDIBOHF23SPDLT)/cn=Recipients/cn={ref}-{user}.[EndDiagnosticData] [Hostname={msh}]',
      "The recipient's mailbox is full and can't accept messages now. Please try resending this message later, or contact the recipient directly.",
    ],
    yahoo: [
      '554 delivery error: dd Sorry, your message to {rcpt} cannot be delivered. This account is over quota. - mta{n}.mail.{bf1|gq1|ne1}.yahoo.com',
    ],
    icloud: ['552 5.2.2 <{rcpt}>: user is over quota'],
    comcast: ['552 5.2.2 <{rcpt}>... Mailbox full'],
    fastmail: ['452 4.2.2 Over quota SESSIONID=<{ref}>'],
    protonmail: ['552 5.2.2 <{rcpt}>: Mailbox is full'],
    zoho: ["552 5.2.2 User's mailbox is full - <{rcpt}>"],
    gmx: ['552-Requested mail action aborted: exceeded storage allocation\n552 Mailbox quota exceeded'],
    webde: ['452 4.2.2 <{rcpt}> Postfach voll / mailbox full, try again later'],
    freenet: ['552 5.2.2 <{rcpt}>: Postfach voll (Speicherplatz erschöpft)'],
    orange: ['552 5.2.2 <{rcpt}>: Boite du destinataire pleine. Recipient mailbox full. OFR_417 [417]'],
    free: ['452 4.2.2 <{rcpt}>: Quota exceeded, try again later'],
    sfr: ['552 5.2.2 <{rcpt}>: Boîte aux lettres pleine / Mailbox full'],
    laposte: ['452 4.2.2 <{rcpt}>: Quota de la boite aux lettres depasse, reessayez plus tard'],
    libero: ['552 5.2.2 <{rcpt}>: casella piena / mailbox full'],
    virgilio: ["452 4.2.2 Spazio su disco esaurito per l'utente {rcpt} (over quota)"],
    seznam: ['552 5.2.2 Schránka příjemce je plná / Mailbox is full'],
    onet: ['552 5.2.2 Skrzynka odbiorcy jest pełna (mailbox full)'],
    interia: ['452 4.2.2 Przekroczony limit miejsca w skrzynce {rcpt} / quota exceeded'],
    mailru: ['452 4.2.2 Mailbox {rcpt} is full, try again later'],
    yandex: ['552 5.2.2 Mailbox size limit exceeded'],
    rambler: ['552 5.2.2 Почтовый ящик переполнен / Mailbox is full'],
    exmail: ['552 Mailbox quota exceeded'],
    netease: ['552 Requested mail action aborted: exceeded mailbox quota'],
    sina: ['552 5.2.2 收件人邮箱空间已满 Mailbox full'],
    naver: ['552 5.2.2 받는 사람의 메일함 용량이 초과되었습니다 (mailbox quota exceeded)'],
    uol: ['552 5.2.2 <{rcpt}> Quota exceeded (mailbox for user is full)'],
    bol: ['452 4.2.2 Caixa postal de {rcpt} cheia, tente mais tarde'],
    telefonica: ['552 5.2.2 <{rcpt}>: Buzón lleno / Mailbox full'],
    ziggo: ['552 5.2.2 <{rcpt}>: Mailbox vol / mailbox full'],
    bluewin: ['452 4.2.2 <{rcpt}>: Mailbox voll / boîte pleine, bitte später erneut versuchen'],
    rediffmail: ['552 5.2.2 {rcpt}: mailbox is full'],
  }),

  phrasings('recipient-rate', {
    gmail: [
      '452-4.2.1 The user you are trying to contact is receiving mail at a rate that\n452-4.2.1 prevents additional messages from being delivered. Please resend your\n452-4.2.1 message at a later point. If the user is able to receive mail at that\n452-4.2.1 time, your message will be delivered. For more information, go to\n452 4.2.1  https://support.google.com/mail/?p=ReceivingRate {gid} - gsmtp',
      '550-5.2.1 The user you are trying to contact is receiving mail at a rate that\n550-5.2.1 prevents additional messages from being delivered. For more\n550-5.2.1 information, go to\n550 5.2.1  https://support.google.com/mail/?p=ReceivingRatePerm {gid} - gsmtp',
      '450-4.2.1 The user you are trying to contact is receiving mail too quickly.\n450-4.2.1 Please resend your message at a later time. If the user is able to\n450-4.2.1 receive mail at that time, your message will be delivered. {gid} - gsmtp',
    ],
    yandex: ['450 4.2.1 The recipient has exceeded their message rate limit. Try again later.'],
    mailru: ['451 Ratelimit exceeded for mailbox {rcpt}. Try again later.'],
    outlook: [
      '550 5.2.122 The recipient has exceeded their limit for the number of messages they can receive per hour. [{msh}]',
      '550 5.2.121 The recipient has exceeded the limit on the number of messages they can receive from this sender per hour. [{msh}]',
    ],
  }),

  phrasings('too-many-recipients', {
    gmail: [
      "452-4.5.3 Your message has too many recipients. For more information regarding\n452-4.5.3 Google's sending limits, go to\n452 4.5.3  https://support.google.com/mail/?p=TooManyRecipientsError {gid} - gsmtp",
      '452 4.5.3 Domain policy size per transaction exceeded, please try this recipient in a separate transaction. {gid} - gsmtp',
    ],
    exchange: ['550 5.5.3 RESOLVER.ADR.RecipLimit; too many recipients', '452 4.5.3 Too many recipients'],
    orange: ['452 4.5.3 mwinf5{c|d}{n} ME Trop de destinataires. Too many recipients.'],
    netease: [
      '550 RP:RCL {163|126} smtp{n},{ref} {n}, please see http://mail.163.com/help/help_spam_16.htm?ip={ip}&hostid=smtp{n}&time={n}',
    ],
    mailru: ['452 4.5.3 Too many recipients in message, max {n}'],
    't-online': ['452 4.5.3 Too many recipients (max {n})'],
    seznam: ['452 4.5.3 Příliš mnoho příjemců / Too many recipients'],
  }),

  phrasings('recipient-domain-not-found', {
    gmail: [
      "553-5.1.2 We weren't able to find the recipient domain. Please check for any\n553-5.1.2 spelling errors, and make sure you didn't enter any spaces, periods,\n553 5.1.2 or other punctuation after the recipient's email address. {gid} - gsmtp",
      "DNS Error: DNS type 'mx' lookup of {domain} responded with code NXDOMAIN\nDomain name not found: {domain}",
      'DNS Error: Address resolution of {domain}. failed: Domain name not found',
    ],
    exchange: [
      '550 5.4.310 DNS domain {domain} does not exist [Message=InfoDomainNonexistent] [LastAttemptedServerName={domain}] [{msh}]',
      '451 4.4.0 DNS query failed. The error was: SMTPSEND.DNS.NonExistentDomain; nonexistent domain',
      '451 4.4.0 DNS query failed. The error was: DNS query failed with error ErrorRetry',
    ],
  }),

  phrasings('relay-denied', {
    gmail: [
      "550-5.7.0 Mail relay denied [{ip}]. Invalid credentials for relay for one of\n550-5.7.0 the domains in: {sdomain} (as obtained from HELO and MAIL FROM).\n550-5.7.0 Email is being sent from a domain or IP address which isn't registered\n550-5.7.0 in your Workspace account. Please login to your Workspace account and\n550-5.7.0 verify that your sending device is properly registered. Learn more at\n550 5.7.0  https://support.google.com/a/answer/6140680 {gid} - gsmtp",
    ],
    exchange: [
      '550 5.7.54 SMTP; Unable to relay recipient in non-accepted domain',
      '550 5.7.1 Unable to relay',
      '550 5.4.1 Relay Access Denied ATTR36 [{msh}]',
      '550 5.7.64 TenantAttribution; Relay Access Denied [{msh}]',
    ],
    free: ['554 5.7.1 <{rcpt}>: Relay access denied'],
    orange: ['550 5.7.1 <{rcpt}>: Relais interdit / Relaying denied'],
  }),

  phrasings('mail-loop', {
    exchange: [
      '554 5.4.14 Hop count exceeded - possible mail loop ATTR34 [{msh}]',
      '554 5.4.6 Hop count exceeded - possible mail loop',
    ],
    free: ['554 5.4.6 mail forwarding loop for {rcpt}'],
    fastmail: ['554 5.4.6 Message looping detected (too many Received headers)'],
    mailru: ['554 5.4.6 Mail loop detected for {rcpt}'],
  }),

  // -----------------------------------------------------------------------------------------------------------
  // Sending side, connections and temporary states
  // -----------------------------------------------------------------------------------------------------------
  phrasings('connection-failure', {
    gmail: [
      'The recipient server did not accept our requests to connect. Learn more at https://support.google.com/mail/answer/7720\n[{mx} {ip}: {timed out|socket error}]',
      'The recipient server did not accept our requests to connect. For more information, go to https://support.google.com/mail/answer/7720 [{mx}. {ip}: Connection refused]',
    ],
    exchange: [
      '451 4.4.0 Primary target IP address responded with: "421 4.2.1 Unable to connect." Attempted failover to alternate host, but that did not succeed. Either there are no alternate hosts, or delivery failed to all alternate hosts. The last endpoint attempted was {ip}:25',
      '450 4.4.316 Connection refused [Message=Socket error code 10061] [LastAttemptedServerName={mx}] [LastAttemptedIP={ip}:25] [{msh}]',
    ],
  }),

  phrasings('expired-retries', {
    exchange: [
      '550 4.4.7 QUEUE.Expired; message expired [{msh}]',
      '550 5.4.316 Message expired, connection refused(Socket error code 10061)',
      '550 5.4.300 Message expired [{msh}]',
      'Delivery has failed to these recipients or groups:\n{rcpt}\nThe server has tried to deliver this message, without success, and has stopped trying. Please try sending this message again. If the problem continues, contact your helpdesk.',
    ],
  }),

  phrasings('server-busy', {
    gmail: ['421-4.4.5 Server busy, try again later. {gid} - gsmtp'],
    yahoo: ['451 Resources temporarily unavailable. Please try again later [#4.16.1].'],
    exchange: ['432 4.3.2 STOREDRV.ClientSubmit; mailbox database thread limit exceeded'],
    mailru: ['451 4.3.2 Server is overloaded, try again later'],
    qq: ['451 Server busy, please try again later'],
    orange: [
      '421 mwinf5{c|d}{n} ME Serveur surcharge, veuillez reessayer plus tard. Server overloaded, please try later.',
    ],
    yandex: ['451 4.3.2 Server is too busy. Please try again later.'],
    gmx: ['421-Service temporarily not available\n421 System overloaded, please try again later'],
    libero: ['421 4.3.2 Sistema sovraccarico, riprovare più tardi (system overloaded)'],
  }),

  phrasings('temporary-failure', {
    gmail: [
      '451-4.3.0 Mail server temporarily rejected message. {gid} - gsmtp',
      '421-4.3.0 Temporary System Problem.  Try again later (10). {gid} - gsmtp',
      '451 4.3.0 Temporary System Problem.  Try again later. {gid} - gsmtp',
      '421-4.7.0 Try again later, closing connection. (EHLO) {gid} - gsmtp',
    ],
    exchange: [
      '451 4.7.0 Temporary server error. Please try again later. {PRX1|PRX2|PRX3|PRX4|PRX5}',
      '421 Service not available, closing transmission channel',
    ],
    mailru: ['451 4.3.0 Internal error, try again later'],
    gmx: ['421-Service temporarily not available\n421 Please try again later'],
    't-online': ['451 4.3.0 Temporary failure, please try again later'],
    orange: [
      '421 mwinf5{c|d}{n} ME Service temporairement indisponible, veuillez reessayer plus tard. Service temporarily unavailable, please try later.',
    ],
    seznam: ['451 4.3.0 Dočasná chyba, zkuste to prosím později / Temporary error, please try again later'],
    libero: ['451 4.3.0 Errore temporaneo, riprovare più tardi'],
    netease: ['451 Requested action aborted: local error in processing'],
    naver: ['451 4.3.0 일시적인 오류입니다. 잠시 후 다시 시도하세요. (temporary error)'],
    uol: ['451 4.3.0 Erro temporário, tente novamente mais tarde'],
    telefonica: ['451 4.3.0 Error temporal del servidor, inténtelo más tarde'],
  }),

  phrasings('greylisting', {
    xs4all: [
      '450 4.2.0 <{rcpt}>: Recipient address rejected: Greylisted, see http://postgrey.schweikert.ch/help/{domain}.html',
      '450 4.2.0 <{rcpt}>: Recipient address rejected: Greylisted for {n} seconds',
    ],
  }),

  // -----------------------------------------------------------------------------------------------------------
  // Volume and reputation
  // -----------------------------------------------------------------------------------------------------------
  phrasings('ip-rate-volume', {
    hotmail: [
      "421 RP-001 (SNT004-MC{n}F{n}) Unfortunately, some messages from {ip} weren't sent. Please try again. We have limits for how many messages can be sent per hour and per day. You can also refer to http://mail.live.com/mail/troubleshooting.aspx#errors.",
    ],
    qq: ['550 Ip frequency limited. http://service.mail.qq.com/cgi-bin/help?subtype=1&&id=20022&&no=1000722'],
    exmail: ['451 Ip frequency limited, please try again later'],
    mailru: ['421 4.7.0 Too many messages from your IP {ip}, try again later'],
    yandex: ['451 4.7.1 Too many messages from your IP. Try again later.'],
    gmx: ['421-Service temporarily not available\n421 Too many messages from IP {ip}, try again later'],
    't-online': ['421 4.7.0 Too many messages from {ip}, please slow down'],
    orange: [
      '421 mwinf5{c|d}{n} ME Trop de messages envoyes depuis votre adresse IP. Too many messages from your IP address, slow down.',
    ],
    seznam: ['421 4.7.0 Z vaší IP adresy {ip} přichází příliš mnoho zpráv, zkuste to později'],
  }),

  phrasings('domain-rate-volume', {
    qq: ['550 Domain frequency limited.'],
    exmail: ['451 Domain frequency limited, please try again later'],
    mailru: ['421 4.7.0 Too many messages from domain {sdomain}, try again later'],
    yandex: ['451 4.7.1 Too many messages from sender domain {sdomain}. Try again later.'],
  }),

  phrasings('general-rate', {
    gmail: [
      '550-5.4.5 Daily user sending quota exceeded. For more information, go to\n550 5.4.5  https://support.google.com/a/answer/166852 {gid} - gsmtp',
      '550 5.4.5 Daily sending quota exceeded. {gid} - gsmtp',
      '450-4.2.1 Peak SMTP relay limit exceeded for customer. This is a temporary\n450-4.2.1 error. For more information on SMTP relay limits, please contact your\n450 4.2.1 administrator or visit https://support.google.com/a/answer/6140680 {gid} - gsmtp',
    ],
    yahoo: ['421 Max message per connection reached, closing transmission channel'],
    netease: [
      '451 MI:DMC {163|126} smtp{n},{ref} {n}, please see http://mail.163.com/help/help_spam_16.htm?ip={ip}&hostid=smtp{n}&time={n}',
      '451 MI:SFQ {163|126} smtp{n},{ref} {n}, please see http://mail.163.com/help/help_spam_16.htm?ip={ip}&hostid=smtp{n}&time={n}',
    ],
    exchange: [
      '554 5.2.0 STOREDRV.Submission.Exception:SubmissionQuotaExceededException; Failed to process message due to a permanent exception with message Cannot submit message.',
    ],
    orange: ['421 mwinf5{c|d}{n} ME Trop de messages, veuillez ralentir. Too many messages, slow down.'],
  }),

  phrasings('concurrency', {
    outlook: ['451 4.7.652 The mail server [{ip}] has exceeded the maximum number of connections. (S3115) [{msh}]'],
    exchange: [
      '421 4.3.2 The maximum number of concurrent server connections has exceeded a limit, closing transmission channel',
      '421 4.3.2 The maximum number of concurrent connections has exceeded a limit, closing transmission channel',
    ],
    orange: [
      '421 mwinf5{c|d}{n} ME Trop de connexions, veuillez verifier votre configuration. Too many connections, slow down. OFR005_104 [104]',
    ],
    laposte: ['421 4.7.0 Trop de connexions simultanees depuis votre adresse IP. Too many connections.'],
    qq: ['550 Connection frequency limited.'],
    comcast: [
      '421 resimta-{po|ch2|h1p}-{n}v.sys.comcast.net comcast {ip} Too many sessions opened. Please see http://postmaster.comcast.net/smtp-error-codes.php#RL000001',
    ],
    mailru: ['421 Too many concurrent connections from your IP, try again later'],
    yandex: ['421 4.7.0 Too many connections from your IP address. Try again later.'],
    't-online': ['421 4.7.0 Too many concurrent connections from {ip}'],
    free: ['421 4.7.0 {mx} Error: too many connections from {ip}'],
  }),

  phrasings('ip-reputation-temporary', {
    gmail: [
      '421-4.7.28 [{ip}      15] Our system has detected an unusual rate of\n421-4.7.28 unsolicited mail originating from your IP address. To protect our\n421-4.7.28 users from spam, mail sent from your IP address has been temporarily\n421-4.7.28 rate limited. Please visit\n421-4.7.28  https://support.google.com/mail/?p=UnsolicitedRateLimitError to\n421 4.7.28 review our Bulk Email Senders Guidelines. {gid} - gsmtp',
      '421-4.7.28 Gmail has detected an unusual rate of unsolicited mail originating\n421-4.7.28 from your IP address {ip}. To protect our users from spam, mail sent from\n421-4.7.28 your IP address has been temporarily rate limited. For more information, go to\n421 4.7.28  https://support.google.com/mail/?p=UnsolicitedRateLimitError {gid} - gsmtp',
      '421-4.7.0 [{ip}] Our system has detected that this message is\n421-4.7.0 suspicious due to the very low reputation of the sending IP address.\n421-4.7.0 To protect our users from spam, mail sent from your IP address has\n421-4.7.0 been temporarily rate limited. For more information, go to\n421 4.7.0  https://support.google.com/mail/answer/188131 {gid} - gsmtp',
    ],
    outlook: [
      '451 4.7.650 The mail server [{ip}] has been temporarily rate limited due to IP reputation. For e-mail delivery information, see https://postmaster.live.com ({S775|S843|S844}) [{msh}]',
      '421 4.7.651 The mail server [{ip}] has been temporarily rate limited due to IP reputation. For e-mail delivery information, see https://postmaster.live.com ({S775|S843}) [{msh}]',
    ],
    yahoo: [
      '421 4.7.0 [TSS04] Messages from {ip} temporarily deferred due to unexpected volume or user complaints - 4.16.55.1; see https://postmaster.yahooinc.com/error-codes',
      '421 4.7.0 [TS01] Messages from {ip} temporarily deferred due to user complaints - 4.16.55.1; see https://help.yahoo.com/kb/postmaster/SLN3434.html',
    ],
    mailru: ['451 4.7.1 Messages from {ip} are temporarily rejected because of the IP reputation, try again later'],
    gmx: ['421-Service temporarily not available\n421 IP {ip} temporarily deferred due to poor reputation'],
    yandex: ['451 4.7.1 Too many complaints about mail from {ip}. Try again later.'],
  }),

  phrasings('ip-reputation-permanent', {
    gmail: [
      '550-5.7.1 [{ip}] Our system has detected an unusual rate of\n550-5.7.1 unsolicited mail originating from your IP address. To protect our\n550-5.7.1 users from spam, mail sent from your IP address has been blocked.\n550-5.7.1 Please visit\n550-5.7.1  https://support.google.com/mail/?p=UnsolicitedIPError to review\n550 5.7.1 our Bulk Email Senders Guidelines. {gid} - gsmtp',
      '550-5.7.1 [{ip}] Gmail has detected that this message is likely suspicious due\n550-5.7.1 to the very low reputation of the sending IP address. To best protect\n550-5.7.1 our users from spam, the message has been blocked. For more information, go to\n550 5.7.1  https://support.google.com/mail/answer/188131 {gid} - gsmtp',
    ],
    yahoo: [
      '421 4.7.0 [TS03] All messages from {ip} will be permanently deferred; Retrying will NOT succeed. See https://help.yahoo.com/kb/postmaster/SLN3434.html',
      '553 5.7.2 [TSS09] All messages from {ip} will be permanently deferred; Retrying will NOT succeed. See https://postmaster.yahooinc.com/error-codes',
    ],
    hotmail: [
      '550 SC-004 (SNT004-MC{n}F{n}) Mail rejected by Windows Live Hotmail for policy reasons. A block has been placed against your IP address because we have received complaints concerning mail coming from that IP address. We recommend enrolling in our Junk E-mail Reporting Program (JMRP), a free program intended to help senders remove unwanted recipients from their e-mail list.',
    ],
    mailru: ['550 5.7.1 Message rejected: IP {ip} has poor reputation'],
    yandex: ['554 5.7.1 Your IP {ip} has bad reputation. Message rejected.'],
    gmx: ['554-No SMTP service\n554 Reputation of IP {ip} is too low'],
  }),

  phrasings('domain-reputation-temporary', {
    gmail: [
      '421-4.7.0 [{ip}] Our system has detected that this message is\n421-4.7.0 suspicious due to the very low reputation of the sending domain. To\n421-4.7.0 best protect our users from spam, the message has been blocked.\n421-4.7.0 Please visit https://support.google.com/mail/answer/188131 for more\n421 4.7.0 information. {gid} - gsmtp',
      '421-4.7.28 [{ip}] Our system has detected an unusual rate of\n421-4.7.28 unsolicited mail originating from your {DKIM|SPF} domain [{sdomain}]. To\n421-4.7.28 protect our users from spam, mail sent from your domain has been\n421-4.7.28 temporarily rate limited. Please visit\n421 4.7.28  https://support.google.com/mail/?p=UnsolicitedRateLimitError {gid} - gsmtp',
    ],
    mailru: ['451 4.7.1 Sender domain {sdomain} has poor reputation, try again later'],
    yandex: ['451 4.7.1 Messages from domain {sdomain} are temporarily deferred due to domain reputation'],
  }),

  phrasings('domain-reputation-permanent', {
    gmail: [
      '550-5.7.1 [{ip}] Our system has detected that this message is\n550-5.7.1 likely suspicious due to the very low reputation of the sending\n550-5.7.1 domain. To best protect our users from spam, the message has been\n550-5.7.1 blocked. Please visit\n550 5.7.1  https://support.google.com/mail/answer/188131 for more information. {gid} - gsmtp',
      '550-5.7.1 [{ip}] Our system has detected an unusual rate of\n550-5.7.1 unsolicited mail originating from your {DKIM|SPF} domain [{sdomain}]. To\n550-5.7.1 protect our users from spam, mail sent from your domain has been\n550 5.7.1 blocked. {gid} - gsmtp',
    ],
    mailru: ['550 5.7.1 Sender domain {sdomain} has bad reputation, message rejected'],
    yandex: ['554 5.7.1 Messages from domain {sdomain} are rejected due to poor domain reputation'],
  }),

  // -----------------------------------------------------------------------------------------------------------
  // Blocks
  // -----------------------------------------------------------------------------------------------------------
  phrasings('dnsbl-ip', {
    yahoo: [
      "553 5.7.1 [BL21] Connections will not be accepted from {ip}, because the ip is in Spamhaus's list; see https://postmaster.yahooinc.com/error-codes",
      '553 5.7.1 [BL23] Connections not accepted from IP addresses on Spamhaus XBL; see https://postmaster.yahooinc.com/error-codes',
    ],
    eop: [
      '550 5.7.1 Service unavailable, Client host [{ip}] blocked using Spamhaus. To request removal from this list see https://www.spamhaus.org/query/ip/{ip}',
    ],
    comcast: [
      '554 resimta-{po|ch2|h1p}-{n}v.sys.comcast.net comcast {ip} found on one or more DNSBLs, see http://postmaster.comcast.net/smtp-error-codes.php#BL000001',
      '554 resimta-{po|ch2|h1p}-{n}v.sys.comcast.net comcast {ip} found on one or more RBLs ({zen.spamhaus.org|bl.spamcop.net}), see http://postmaster.comcast.net/smtp-error-codes.php#BL000001',
    ],
    orange: [
      '550 mwinf5{c|d}{n} ME Adresse IP source bloquee pour incident de spam. Client host blocked for spamming issues. OFR006_102 Ref http://csi.cloudmark.com/reset-request/?ip={ip} [102]',
    ],
    icloud: ['550 5.7.0 Blocked - see https://support.proofpoint.com/dnsbl-lookup.cgi?ip={ip}'],
    free: [
      '554 5.7.1 Service unavailable; Client host [{ip}] blocked using zen.spamhaus.org; https://www.spamhaus.org/query/ip/{ip}',
    ],
    libero: ['550 5.7.1 Client host [{ip}] blocked using {zen.spamhaus.org|bl.spamcop.net}'],
    seznam: ['554 5.7.1 IP adresa {ip} je na blacklistu Spamhaus / is listed on Spamhaus'],
    'virgin-media': [
      '550 5.7.1 Your IP {ip} is listed by Cloudmark CSI. Please visit https://csi.cloudmark.com/en/reset/',
    ],
    kpn: [
      '554 5.7.1 Service unavailable; Client host [{ip}] blocked using bl.spamcop.net; Blocked - see https://www.spamcop.net/bl.shtml?{ip}',
    ],
    laposte: ['550 5.7.1 {ip} est listee sur la liste noire Spamhaus / listed on Spamhaus'],
    wp: ['554 5.7.1 Adres IP {ip} znajduje się na liście Spamhaus (listed in Spamhaus)'],
    uol: ['554 5.7.1 IP {ip} listado na SpamCop (bl.spamcop.net)'],
    naver: ['554 5.7.1 {ip} is listed on KISA RBL (spamlist.or.kr)'],
    daum: ['554 5.7.1 KISA RBL에 등록된 IP({ip})입니다. Your IP is listed on KISA RBL'],
  }),

  phrasings('dnsbl-domain', {
    free: ['554 5.7.1 <{sender}>: Sender address rejected: domain {sdomain} is listed in dbl.spamhaus.org'],
    mailru: ['550 5.7.1 Sender domain {sdomain} is listed on Spamhaus DBL'],
    libero: ['550 5.7.1 Dominio mittente {sdomain} presente in Spamhaus DBL (sender domain blacklisted)'],
    seznam: ['554 5.7.1 Doména odesílatele {sdomain} je na seznamu dbl.spamhaus.org / sender domain listed in DBL'],
  }),

  phrasings('uribl-content', {
    mailru: ['550 5.7.1 Message rejected: body contains URL {udomain} listed on Spamhaus DBL'],
    libero: ['554 5.7.1 Messaggio rifiutato: il testo contiene il dominio {udomain} presente in SURBL'],
    free: ['554 5.7.1 Message rejected: URI {udomain} in body is listed in multi.uribl.com'],
  }),

  phrasings('own-ip-block', {
    outlook: [
      "550 5.7.1 Unfortunately, messages from [{ip}] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3150). You can also refer your provider to http://mail.live.com/mail/troubleshooting.aspx#errors. [{msh}]",
      "550 5.7.1 Unfortunately, messages from [{ip}] weren't sent. Please contact your Internet service provider since part of their network is on our block list (S3140). You can also refer your provider to http://mail.live.com/mail/troubleshooting.aspx#errors. [{msh}]",
    ],
    eop: [
      '550 5.7.606 Access denied, banned sending IP [{ip}]. To request removal from this list please visit https://sender.office.com/ and follow the directions. For more information please go to  http://go.microsoft.com/fwlink/?LinkID=526655 AS(1430) [{msh}]',
      '550 5.7.511 Access denied, banned sender[{ip}]. To request removal from this list please forward this message to delist@microsoft.com. For more information please go to  http://go.microsoft.com/fwlink/?LinkId=526653. AS(1410) [{msh}]',
      '550 5.7.708 Service unavailable. Access denied, traffic not accepted from this IP. For more information please go to http://go.microsoft.com/fwlink/?LinkId=526653 [{msh}]',
      '550 5.7.1 Service unavailable; Client host [{ip}] blocked using Blocklist 1, mail from IP banned; To request removal from this list please forward this message to delist@messaging.microsoft.com',
    ],
    hotmail: [
      "550 SC-001 (BAY004-MC{n}F{n}) Unfortunately, messages from {ip} weren't sent. Please contact your Internet service provider since part of their network is on our block list. You can also refer your provider to http://mail.live.com/mail/troubleshooting.aspx#errors.",
      "550 DY-001 (SNT004-MC{n}F{n}) Unfortunately, messages from {ip} weren't sent. Please contact your Internet service provider. You can tell them that Hotmail does not relay dynamically-assigned IP ranges. You can also refer your provider to http://mail.live.com/mail/troubleshooting.aspx#errors.",
    ],
    gmail: [
      "550-5.7.1 [{ip}] The IP you're using to send mail is not authorized to\n550-5.7.1 send email directly to our servers. Please use the SMTP relay at your\n550-5.7.1 service provider instead. For more information, go to\n550 5.7.1  https://support.google.com/mail/?p=NotAuthorizedError {gid} - gsmtp",
    ],
    aol: ['554 5.7.1 : (RTR:BL) http://postmaster.info.aol.com/errors/554rtrbl.html'],
    comcast: [
      '554 resimta-{po|ch2|h1p}-{n}v.sys.comcast.net comcast {ip} Comcast block for spam.  Please see http://postmaster.comcast.net/smtp-error-codes.php#BL000000',
    ],
    gmx: [
      '554-gmx.net ({mx}) Nemesis ESMTP Service not available\n554-No SMTP service\n554-IP address is black listed.\n554 For explanation visit https://www.gmx.net/mail/senderguidelines?c=bl',
    ],
    webde: [
      '554-web.de ({mx}) Nemesis ESMTP Service not available\n554-No SMTP service\n554-IP address is black listed.\n554 For explanation visit https://web.de/email/senderguidelines?ip={ip}&c=bl',
    ],
    mailru: ['550 5.7.1 Your IP {ip} is blocked by Mail.Ru. Contact our support if you believe this is a mistake'],
    qq: ['550 Your IP {ip} is in our blacklist'],
    orange: ['550 5.7.1 mwinf5{c|d}{n} ME Votre adresse IP {ip} est bloquee. Your IP address is blocked.'],
    yandex: ['554 5.7.1 Your IP {ip} is blocked by Yandex mail policy'],
    libero: ['550 5.7.1 Il tuo indirizzo IP {ip} è stato bloccato (IP blocked)'],
  }),

  phrasings('policy-block', {
    gmail: [
      '550-5.7.1 The user or domain that you are sending to (or from) has a policy that\n550-5.7.1 prohibited the mail that you sent. Please contact your domain\n550-5.7.1 administrator for further details. For more information, go to\n550 5.7.1  https://support.google.com/a/answer/172179 {gid} - gsmtp',
    ],
    exchange: [
      '550 5.7.1 TRANSPORT.RULES.RejectMessage; the message was rejected by organization policy',
      '550 5.7.1 Delivery not authorized, message refused',
      '550 5.7.1 RESOLVER.RST.NotAuthorized; not authorized',
      '550 5.7.520 Access denied, Your organization does not allow external forwarding. Please contact your administrator for further assistance. AS(7555)',
    ],
    icloud: [
      '554 5.7.1 [CS01] Message rejected due to local policy. Please visit https://support.apple.com/en-us/HT204137',
    ],
    aol: ['521 5.2.1 :  AOL will not accept delivery of this message.'],
    spectrum: [
      '554 5.7.1 - ERROR: Mail refused - <{ip}> - See https://www.spectrum.net/support/internet/understanding-email-error-codes',
    ],
    mailru: ['550 5.7.1 Message rejected by administrative prohibition'],
    ziggo: ['554 5.7.1 <{rcpt}>: Toegang geweigerd / Access denied'],
    seznam: ['554 5.7.1 Přístup odepřen / Access denied'],
    bluewin: ['554 5.7.1 Zugriff verweigert / accès refusé / access denied'],
  }),

  phrasings('sender-blocked', {
    yahoo: [
      '451 Message temporarily deferred due to unresolvable RFC.5321 from domain; see https://postmaster.yahooinc.com/error-codes',
    ],
    gmx: ['550-Requested action not taken: mailbox unavailable\n550 invalid DNS MX or A/AAAA resource record'],
    exchange: ['554 5.1.0 Sender Denied'],
    eop: ['550 5.1.8 Access denied, bad outbound sender AS(42004) [{msh}]'],
    comcast: ['550 5.1.8 <{sender}> sender domain does not exist'],
    gmail: [
      '550 5.7.0 Mail Sending denied. This error occurs if the sender account is disabled or not registered within your Google Workspace domain. {gid} - gsmtp',
    ],
    orange: ['501 5.1.0 <{sender}>: Emetteur invalide. Invalid Sender.'],
    mailru: [
      '550 5.7.1 Отправитель {sender} находится в черном списке получателя (sender is blacklisted by recipient)',
    ],
    yandex: ['553 5.7.1 Sender address rejected: domain {sdomain} not found'],
    docomo: ["550 5.7.1 Sender {sender} is rejected by the recipient's domain filter settings (受信拒否)"],
    free: ['450 4.1.8 <{sender}>: Sender address rejected: Domain not found'],
  }),

  // -----------------------------------------------------------------------------------------------------------
  // Content
  // -----------------------------------------------------------------------------------------------------------
  phrasings('spam-content', {
    gmail: [
      '550-5.7.1 [{ip}] Our system has detected that this message is\n550-5.7.1 likely unsolicited mail. To reduce the amount of spam sent to Gmail,\n550-5.7.1 this message has been blocked. Please visit\n550-5.7.1  https://support.google.com/mail/?p=UnsolicitedMessageError\n550 5.7.1  for more information. {gid} - gsmtp',
      '550-5.7.1 [{ip}] Gmail has detected that this message is likely unsolicited\n550-5.7.1 mail. To reduce the amount of spam sent to Gmail, this message has been\n550-5.7.1 blocked. For more information, go to\n550 5.7.1  https://support.google.com/mail/?p=UnsolicitedMessageError {gid} - gsmtp',
      '421-4.7.0 [{ip}] Our system has detected that this message is\n421-4.7.0 suspicious due to the nature of the content and/or the links within.\n421-4.7.0 To best protect our users from spam, the message has been blocked.\n421-4.7.0 Please visit https://support.google.com/mail/answer/188131 for more\n421 4.7.0 information. {gid} - gsmtp',
    ],
    exchange: ['550 5.7.1 Message rejected as spam by Content Filtering.'],
    yandex: ['554 5.7.1 [{1|2}] Message rejected under suspicion of SPAM; https://ya.cc/1IrBc {ref}'],
    mailru: [
      '550 spam message rejected. Please visit https://help.mail.ru/notspam-support/id?c={ref} or report details to abuse@corp.mail.ru. Error code: {ref}. ID: {ref}.',
    ],
    netease: [
      '554 DT:SPM {163|126|yeah.net} mx{n},{ref} {n}, please see http://mail.163.com/help/help_spam_16.htm?ip={ip}&hostid=mx{n}&time={n}',
      '451 DT:SPM {163|126} smtp{n},{ref} {n}, please see http://mail.163.com/help/help_spam_16.htm?ip={ip}&hostid=smtp{n}&time={n}',
    ],
    sina: ['554 5.7.1 邮件内容被判定为垃圾邮件 (message rejected as spam)'],
    orange: ['554 5.7.1 mwinf5{c|d}{n} ME Message refuse car identifie comme spam. Message rejected as spam.'],
    sfr: ['554 5.7.1 Votre message a été refusé car il a été considéré comme du spam'],
    gmx: ['554-Transaction failed\n554 Message rejected: spam content detected'],
    't-online': ['554 5.7.1 Message rejected as spam'],
    libero: ['550 5.7.1 Messaggio rifiutato perché classificato come spam'],
    seznam: ['550 5.7.1 Zpráva byla vyhodnocena jako spam / Message identified as spam'],
    wp: ['554 5.7.1 Wiadomość została odrzucona jako spam / Message rejected as spam'],
    naver: ['554 5.7.1 스팸으로 판정되어 수신이 거부되었습니다 (rejected as spam)'],
    uol: ['554 5.7.1 Mensagem rejeitada por conter SPAM'],
    telefonica: ['554 5.7.1 Mensaje rechazado por ser considerado spam'],
    zoho: ['554 5.7.1 Email rejected due to spam content'],
  }),

  phrasings('other-content', {
    gmail: [
      "552-5.2.3 Your message exceeded Google's message size limits. Please visit\n552-5.2.3  https://support.google.com/mail/?p=MaxSizeError to view our size\n552 5.2.3 guidelines. {gid} - gsmtp",
      "550-5.7.1 [{ip}] Our system has detected that this message is not RFC\n550-5.7.1 5322 compliant:\n550-5.7.1 'From' header is missing.\n550-5.7.1 To reduce the amount of spam sent to Gmail, this message has been\n550-5.7.1 blocked. Please visit\n550-5.7.1  https://support.google.com/mail/?p=RfcMessageNonCompliant\n550 5.7.1 and review RFC 5322 specifications for more information. {gid} - gsmtp",
      '550-5.7.1 [{ip}] Messages missing a valid Message-ID header are not\n550-5.7.1 accepted. For more information, go to\n550 5.7.1  https://support.google.com/mail/?p=RfcMessageNonCompliant {gid} - gsmtp',
      '552-5.7.0 Our system detected an illegal attachment on your message. Please\n552-5.7.0 visit http://mail.google.com/support/bin/answer.py?answer=6590 to\n552 5.7.0 review our attachment guidelines. {gid} - gsmtp',
    ],
    exchange: [
      '552 5.3.4 Message size exceeds fixed maximum message size',
      '550 5.2.3 RESOLVER.RST.RecipSizeLimit; message too large for this recipient',
      '550 5.3.4 ROUTING.SizeLimit; message size exceeds fixed maximum size for route',
    ],
    eop: [
      '550 5.7.512 Access denied, message must be RFC 5322 section 3.6.2 compliant and include a valid From address. [{msh}]',
      '550 5.6.211 Invalid MIME Content: Single text value size (32768) exceeded allowed maximum (32768)',
    ],
    yahoo: ['552 Message size exceeds maximum permitted'],
    netease: ['552 Requested mail action aborted: exceeded mailsize limit'],
    orange: ['552 5.3.4 Message trop volumineux. Message size exceeds limit.'],
    mailru: ['552 5.3.4 Message size exceeds fixed limit'],
    libero: ['552 5.3.4 Tipo di allegato non consentito / attachment type not allowed'],
  }),

  phrasings('virus', {
    gmx: ['554-Transaction failed\n554 Virus found in message ({virus})'],
    orange: ['552 5.7.1 Message refuse : virus detecte ({virus}). Message rejected: virus found.'],
    mailru: ['550 5.7.1 Message rejected: virus detected ({virus})'],
    yandex: ['554 5.7.1 Message rejected: infected by {virus}'],
    libero: ['554 5.7.1 Virus rilevato nel messaggio: {virus}'],
    seznam: ['554 5.7.1 Zpráva obsahuje virus {virus} / Message contains a virus'],
    uol: ['554 5.7.1 Mensagem contém vírus ({virus})'],
    netease: ['554 5.7.1 邮件含有病毒 Virus found: {virus}'],
  }),

  // -----------------------------------------------------------------------------------------------------------
  // Authentication and infrastructure
  // -----------------------------------------------------------------------------------------------------------
  phrasings('dkim', {
    gmail: [
      "421-4.7.30 Your email has been rate limited because DKIM authentication didn't\n421-4.7.30 pass for this message. Gmail requires all bulk senders to\n421-4.7.30 authenticate with DKIM. For more information, go to\n421 4.7.30  https://support.google.com/mail/answer/81126#authentication {gid} - gsmtp",
      "550-5.7.30 Your email has been blocked because DKIM authentication didn't\n550-5.7.30 pass for this message. Gmail requires all bulk senders to\n550-5.7.30 authenticate with DKIM. For more information, go to\n550 5.7.30  https://support.google.com/mail/answer/81126#authentication {gid} - gsmtp",
    ],
    mailru: ['550 5.7.1 DKIM signature verification failed for {sdomain}'],
    yandex: ['550 5.7.1 Message rejected: invalid DKIM signature'],
    zoho: ['550 5.7.1 Email rejected due to DKIM signature failure'],
  }),

  phrasings('spf', {
    gmail: [
      '550-5.7.27 The MAIL FROM domain [{sdomain}] has an SPF record with a hard fail\n550-5.7.27 policy (-all) but it fails to pass SPF checks with the ip: [{ip}]. To\n550-5.7.27 best protect our users from spam and phishing, the message has been\n550-5.7.27 blocked. Please visit\n550 5.7.27  https://support.google.com/mail/answer/81126#authentication for more information. {gid} - gsmtp',
      "421-4.7.27 Your email has been rate limited because SPF authentication didn't\n421-4.7.27 pass for this message. Gmail requires all bulk senders to\n421-4.7.27 authenticate with SPF. For more information, go to\n421 4.7.27  https://support.google.com/mail/answer/81126#authentication {gid} - gsmtp",
    ],
    exchange: ['550 5.7.23 The message was rejected because of Sender Policy Framework violation'],
    zoho: ['550 5.7.1 Email rejected per SPF policy - {sdomain} does not designate {ip} as permitted sender'],
    yandex: ['550 5.7.1 Email rejected per SPF policy'],
    mailru: ['550 5.7.1 SPF check failed: {ip} is not allowed to send mail from {sdomain}'],
    gmx: ['554-Transaction failed\n554 SPF check failed for {sdomain}'],
    orange: ['550 5.7.1 mwinf5{c|d}{n} ME Echec de la verification SPF. SPF check failed.'],
    free: [
      '550 5.7.1 <{sender}>: Sender address rejected: Message rejected due to: SPF fail - not authorized. Please see http://www.openspf.net/Why?s=mfrom;id={sender};ip={ip};r={rcpt}',
    ],
  }),

  phrasings('dmarc', {
    gmail: [
      "550-5.7.26 Unauthenticated email from {sdomain} is not accepted due to domain's\n550-5.7.26 DMARC policy. Please contact the administrator of {sdomain} domain if\n550-5.7.26 this was a legitimate mail. To learn about the DMARC initiative, go to\n550 5.7.26  https://support.google.com/mail/?p=DmarcRejection {gid} - gsmtp",
      "421-4.7.32 Your email has been rate limited because the From: header (RFC5322) in\n421-4.7.32 this message isn't aligned with either the authenticated SPF or DKIM\n421-4.7.32 organizational domain. For more information, go to\n421 4.7.32  https://support.google.com/mail/?p=DmarcRejection {gid} - gsmtp",
    ],
    outlook: [
      '550 5.7.509 Access denied, sending domain {sdomain} does not pass DMARC verification and has a DMARC policy of reject. [{msh}]',
    ],
    mailru: ['550 Message rejected due to DMARC policy of {sdomain}'],
    qq: ['550 DMARC check failed for {sdomain}'],
    icloud: ['554 5.7.1 Message rejected due to DMARC policy of the sender domain'],
    orange: ['550 5.7.1 Message refuse en raison de la politique DMARC du domaine {sdomain}'],
  }),

  phrasings('ptr', {
    gmail: [
      '550-5.7.25 [{ip}] The IP address sending this message does not have a\n550-5.7.25 PTR record setup, or the corresponding forward DNS entry does not\n550-5.7.25 point to the sending IP. As a policy, Gmail does not accept messages\n550-5.7.25 from IPs with missing PTR records. For more information, go to\n550 5.7.25  https://support.google.com/mail/answer/81126#ip-practices {gid} - gsmtp',
    ],
    aol: ['554 5.7.1 : (DNS:NR) http://postmaster.info.aol.com/errors/554dnsnr.html'],
    att: [
      '550 5.7.1 Connections not accepted from servers without a valid sender domain.flph{n} Fix reverse DNS for {ip}',
    ],
    gmx: [
      '554-gmx.net ({mx}) Nemesis ESMTP Service not available\n554-No SMTP service\n554-Bad DNS PTR resource record.\n554 For explanation visit https://www.gmx.net/mail/senderguidelines?c=bp',
    ],
    webde: [
      '554-web.de ({mx}) Nemesis ESMTP Service not available\n554-No SMTP service\n554-Bad DNS PTR resource record.\n554 For explanation visit https://web.de/email/senderguidelines?ip={ip}&c=bp',
    ],
    free: [
      '450 4.7.1 Client host rejected: cannot find your reverse hostname, [{ip}]',
      '550 5.7.1 Client host rejected: cannot find your hostname, [{ip}]',
    ],
    orange: ['550 5.7.1 mwinf5{c|d}{n} ME Adresse IP source sans reverse DNS. No reverse DNS for source IP {ip}.'],
    mailru: ['550 5.7.1 Your IP {ip} has no PTR record'],
    netease: ['550 5.7.1 No PTR record found for {ip}'],
  }),

  phrasings('helo', {
    gmail: [
      '501-5.5.4 HELO/EHLO argument "{helo}" invalid, closing connection. {gid} - gsmtp',
      '501-5.5.4 Empty HELO/EHLO argument not allowed, closing connection. {gid} - gsmtp',
    ],
    exchange: ['501 5.5.4 Invalid domain name [{msh}]'],
    free: ['504 5.5.2 <{helo}>: Helo command rejected: need fully-qualified hostname'],
    mailru: ['550 5.7.1 HELO/EHLO hostname {helo} is not a fully qualified domain name'],
    netease: [
      '550 MI:NHD {163|126} mx{n},{ref} {n}, please see http://mail.163.com/help/help_spam_16.htm?ip={ip}&hostid=mx{n}&time={n}',
    ],
  }),

  phrasings('auth', {
    gmail: [
      '530-5.7.0 Authentication Required. For more information, go to\n530 5.7.0  https://support.google.com/mail/?p=WantAuthError {gid} - gsmtp',
      '535-5.7.8 Username and Password not accepted. For more information, go to\n535 5.7.8  https://support.google.com/mail/?p=BadCredentials {gid} - gsmtp',
      '534-5.7.9 Application-specific password required. For more information, go to\n534 5.7.9  https://support.google.com/mail/?p=InvalidSecondFactor {gid} - gsmtp',
    ],
    exchange: [
      '530 5.7.57 Client not authenticated to send mail. [{msh}]',
      '535 5.7.139 Authentication unsuccessful, SmtpClientAuthentication is disabled for the Tenant. Visit https://aka.ms/smtp_auth_disabled for more information. [{msh}]',
      '535 5.7.3 Authentication unsuccessful [{msh}]',
    ],
    yahoo: ['535 5.7.0 (#AUTH005) Too many bad auth attempts.'],
    yandex: ['535 5.7.8 Error: authentication failed: This user does not have access rights to this service'],
    mailru: [
      '535 5.7.0 NEOBHODIM parol prilozheniya https://help.mail.ru/mail/security/protection/external / Application password is REQUIRED',
    ],
    qq: [
      '535 Login Fail. Please enter your authorization code to login. More information in http://service.mail.qq.com/cgi-bin/help?subtype=1&&id=28&&no=1001256',
    ],
    netease: ['535 Error: authentication failed'],
    zoho: ['535 Authentication Failed'],
  }),

  phrasings('tls-required', {
    gmail: ['421-4.7.0 TLS required for RCPT domain, closing connection. {gid} - gsmtp'],
    exchange: [
      '451 5.7.3 STARTTLS is required to send mail [{msh}]',
      '450 4.4.317 Cannot connect to remote server [Message=451 5.7.3 STARTTLS is required to send mail] [LastAttemptedServerName={mx}] [LastAttemptedIP={ip}:25] [{msh}]',
    ],
    free: ['530 5.7.0 Must issue a STARTTLS command first'],
  }),

  phrasings('tls-handshake', {
    exchange: [
      '450 4.4.317 Cannot connect to remote server [Message=TLS negotiation failed with error SocketError] [LastAttemptedServerName={mx}] [LastAttemptedIP={ip}:25] [{msh}]',
    ],
  }),

  phrasings('tls-certificate', {
    gmail: ["TLS Negotiation failed, the certificate doesn't match the host."],
    exchange: [
      '450 4.4.317 Cannot connect to remote server [Message=SubjectMismatch] [LastAttemptedServerName={mx}] [LastAttemptedIP={ip}:25] [{msh}]',
    ],
  }),

  phrasings('protocol-syntax', {
    gmail: [
      '502-5.5.1 Unrecognized command. {gid} - gsmtp',
      '503-5.5.1 MAIL first. {gid} - gsmtp',
      '555-5.5.2 Syntax error. {gid} - gsmtp',
      '451-4.5.0 SMTP protocol violation, see RFC 2821 {gid} - gsmtp',
    ],
    exchange: [
      '550 5.6.11 SMTPSEND.BareLinefeedsAreIllegal; message contains bare linefeeds, which cannot be sent via DATA',
      '501 5.1.7 Invalid address [{msh}]',
      '503 5.5.2 Need mail command',
    ],
  }),
];
