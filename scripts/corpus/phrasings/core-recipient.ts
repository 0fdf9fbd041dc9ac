import { phrasings } from '../situation.ts';

// Recipient-side causes: unknown, disabled or full mailboxes, per-recipient limits, too many recipients,
// recipient domains that do not resolve and relaying refused.
export default [
  phrasings('recipient-unknown', {
    google: [
      "550-5.1.1 The email account that you tried to reach does not exist. Please try\n550-5.1.1 double-checking the recipient's email address for typos or\n550-5.1.1 unnecessary spaces. {Learn more at|For more information, go to}\n550 5.1.1  https://support.google.com/mail/?p=NoSuchUser {gid} - gsmtp",
      "550 5.1.1 The email account that you tried to reach does not exist. Please try double-checking the recipient's email address for typos or unnecessary spaces. {Learn more at|For more information, go to} https://support.google.com/mail/?p=NoSuchUser {gid} - gsmtp",
      '550 5.1.1 The email account that you tried to reach {does not exist|is not found}. {gid} - gsmtp',
    ],
    microsoft: [
      '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient {rcpt} not found by SMTP address lookup',
      '550 5.5.0 Requested action not taken: mailbox unavailable ({ref}). [{msh}]',
      '550 5.1.1 RESOLVER.ADR.RecipNotFound; not found [{msh}]',
      '550 Requested action not taken: mailbox unavailable. [{msh}]',
      // Directory-based edge blocking: Exchange Online rejects addresses its directory does not know.
      '550 5.4.1 Recipient address rejected: Access denied. AS(201806281) [{msh}]',
    ],
    yahoo: [
      "554 delivery error: dd This user doesn't have a {yahoo.com|ymail.com|aol.com} account ({rcpt}) [0] - mta{n}.mail.{bf1|gq1|ne1}.yahoo.com",
      '552 1 Requested mail action aborted, mailbox not found',
      "550 5.1.1 <{rcpt}>: {user doesn't exist|recipient does not exist}",
    ],
    apple: [
      '550 5.1.1 <{rcpt}>: user does not exist',
      '550 5.1.1 unknown or illegal alias: {rcpt}',
      '550 5.1.1 <{rcpt}>: {Recipient address rejected: User unknown|no such user}',
    ],
    comcast: [
      '550 5.1.1 <{rcpt}> {Not our Customer|recipient does not exist here}',
      '550 5.1.1 {rcpt} recipient {rejected|invalid}, no such account',
    ],
    gmx: [
      '550 {Requested action not taken: mailbox unavailable|Mailbox unavailable or access denied} [{ref}]',
      '550 5.1.1 <{rcpt}>: Empfänger unbekannt / recipient unknown',
      '550 5.1.1 {Benutzer unbekannt|Unbekannter Empfänger|Postfach existiert nicht} ({rcpt})',
    ],
    orange: [
      '550 5.1.1 <{rcpt}>: Adresse d au moins un destinataire invalide. Invalid recipient. OFR_416 [416]',
      "550 5.1.1 <{rcpt}>: {Destinataire inconnu|Utilisateur inconnu|Cette adresse n'existe pas}",
      '550 5.1.1 <{rcpt}>: Recipient address rejected: User unknown in local recipient table',
    ],
    mailru: [
      '550 Message was not accepted -- invalid mailbox.  Local mailbox {rcpt} is unavailable: user not found',
      '550 5.1.1 {Пользователь не найден|Такого пользователя нет} / User not found',
    ],
    yandex: [
      '550 5.7.1 No such user!',
      '550 5.1.1 <{rcpt}>: {Нет такого пользователя|Адресат не существует}',
      '550 5.1.1 <{rcpt}>: Recipient address rejected: user not found',
    ],
    chinese: [
      '550 Mailbox not found. http://service.mail.qq.com/cgi-bin/help?subtype=1&&id=20022&&no=1000728',
      '550 User not found: {rcpt}',
      '550 5.1.1 {用户不存在|收件人不存在|该用户不存在} User unknown',
      '550 {MI:NUS|RP:NUS} {mx} http://mail.163.com/help/help_spam_16.htm?ip={ip}&hostid={ref}',
    ],
    proofpoint: [
      '550 5.1.1 User Unknown',
      '550 5.1.1 <{rcpt}>... User Unknown',
      '550 5.1.1 <{rcpt}>: {Recipient address rejected|Address rejected}: {User unknown|Unknown user}',
    ],
    mimecast: [
      '550 Invalid Recipient - https://community.mimecast.com/docs/DOC-1369#550 [{ref}.{uk|us|za}{n}]',
      '550 {Invalid Recipient|Recipient not found} - https://community.mimecast.com/docs/DOC-1369#550',
    ],
    barracuda: [
      '550 No such user ({rcpt})',
      '550 permanent failure for one or more recipients ({rcpt}:550 5.1.1 <{rcpt}>: Recipient address rejected: User unknown)',
      '550 5.1.1 <{rcpt}>: {Recipient address rejected|Address rejected}: {user unknown|mailbox does not exist}',
    ],
    ironport: ['550 #5.1.0 Address rejected {rcpt}', '550 5.1.0 {Address rejected|Invalid recipient}.'],
    postfix: [
      '550 5.1.1 <{rcpt}>: Recipient address rejected: User unknown in {local recipient table|virtual mailbox table|virtual alias table|relay recipient table}',
      '550 5.1.1 <{rcpt}>: Recipient address rejected: undeliverable address: {unknown user|host {mx}[{ip}] said: 550 5.1.1 User unknown}',
      '550 5.1.1 <{rcpt}>: Recipient address rejected: {Benutzer unbekannt|Utilisateur inconnu|Usuario desconocido}',
    ],
    exim: [
      '550 Unrouteable address',
      '550 {No Such User Here|No such user here"}',
      '550-Callout verification failed:\n550 550 {Unrouteable address|5.1.1 User unknown}',
      '550 {rcpt}: {unknown user|address unknown|invalid address}',
    ],
    sendmail: [
      '550 5.1.1 <{rcpt}>... User unknown',
      '550 5.1.1 {user}... User unknown',
      '550 5.1.1 <{rcpt}>... {Unknown user|No such user|宛先不明です (User unknown)}',
    ],
    qmail: [
      '550 sorry, no mailbox here by that name. (#5.1.1)',
      '511 sorry, no mailbox here by that name (#5.1.1 - chkuser)',
      '550 5.1.1 sorry, {this account does not exist|utente inesistente} (#5.1.1)',
    ],
    exchange: [
      '550 5.1.10 RESOLVER.ADR.RecipientNotFound; Recipient not found by SMTP address lookup',
      '550 5.1.1 User unknown',
      '550 5.1.1 RESOLVER.ADR.ExRecipNotFound; not found',
      '550 5.1.1 {Unbekannter Empfänger|Destinataire inconnu} RESOLVER.ADR.RecipNotFound',
    ],
    zimbra: [
      '550 5.1.1 <{rcpt}>: Recipient address rejected: {domain}',
      '550 5.1.1 <{rcpt}>: Recipient address rejected: User unknown in virtual mailbox table',
      '550 5.1.1 <{rcpt}>: {Usuário desconhecido|Destinatário inexistente}',
    ],
    iberia: [
      '550 5.1.1 {Usuario desconocido|El buzón no existe|La dirección de correo no existe} / {unknown user|mailbox does not exist}',
      '550 5.1.1 <{rcpt}>: {Destinatário desconhecido|Usuário inexistente|Conta de e-mail não encontrada}',
      '550 <{rcpt}>: {No existe el destinatario|Recipient address rejected: Usuario no existe}',
    ],
    italy: [
      '550 5.1.1 <{rcpt}>: {Utente sconosciuto|Utente inesistente|L indirizzo non esiste}',
      '550 5.1.1 <{rcpt}> {recipient rejected: user unknown|Indirizzo email inesistente}',
    ],
    japan: [
      '550 5.1.1 {宛先のメールアドレスが存在しません|ユーザーが存在しません|該当するユーザーはいません} ({rcpt})',
      '550 Unknown user {rcpt}',
    ],
  }),
  phrasings('mailbox-disabled', {
    google: [
      '550-5.2.1 The email account that you tried to reach is {disabled|inactive}. {Learn more at|For more information, go to}\n550 5.2.1  https://support.google.com/mail/?p=DisabledUser {gid} - gsmtp',
      '550 5.2.1 The email account that you tried to reach is disabled. {gid} - gsmtp',
    ],
    microsoft: [
      '550 5.2.1 Mailbox cannot be accessed [{msh}]',
      '550 5.1.1 {Recipient mailbox is disabled|The mailbox is inactive} [{msh}]',
    ],
    yahoo: [
      '554 delivery error: dd Sorry your message to {rcpt} cannot be delivered. This mailbox is disabled (554.30). - mta{n}.mail.{bf1|gq1|ne1}.yahoo.com',
      '554 30 Sorry, your message to {rcpt} cannot be delivered. This {mailbox|account} has been disabled (554.30)',
    ],
    apple: ['550 5.2.1 <{rcpt}>: {account disabled|this account is inactive}'],
    comcast: ['550 5.2.1 <{rcpt}> {Account suspended|Mailbox inactive, contact recipient by other means}'],
    gmx: ['550 5.2.1 {Postfach deaktiviert|Konto gesperrt} / mailbox {disabled|locked} <{rcpt}>'],
    orange: ['550 5.2.1 <{rcpt}>: {Compte désactivé|Boîte aux lettres inactive} / account {disabled|inactive}'],
    mailru: [
      '550 Message was not accepted -- invalid mailbox.  Local mailbox {rcpt} is unavailable: account is disabled',
      '550 5.2.1 {Ящик заблокирован|Почтовый ящик отключен} / mailbox is {blocked|disabled}',
    ],
    yandex: [
      '550 5.2.1 Mailbox {disabled|frozen}, not accepting messages',
      '550 5.2.1 <{rcpt}>: Этот почтовый ящик {заблокирован|отключен}',
    ],
    chinese: [
      '550 5.2.1 {该邮箱已被冻结|用户已停用} Mailbox {frozen|disabled}',
      '550 Mailbox is frozen. http://service.mail.qq.com/cgi-bin/help?subtype=1&&id=20022&&no=1000726',
    ],
    exim: ['550 {rcpt}: {account expired|mailbox is disabled|this account has been closed}'],
    sendmail: [
      '550 5.2.1 <{rcpt}>... Mailbox disabled for this recipient',
      '550 5.2.1 {user}... {Account inactive|User account is expired}',
    ],
    qmail: [
      '553 sorry, this account is {disabled|suspended} (#5.2.1)',
      '550 5.2.1 casella disattivata / mailbox disabled (#5.2.1)',
    ],
    exchange: [
      '550 5.2.1 Mailbox cannot be accessed',
      '550 5.2.1 {The mailbox is disabled|Das Postfach ist deaktiviert}',
    ],
    zimbra: ['550 5.2.1 <{rcpt}>: Recipient address rejected: account is {closed|locked|in maintenance mode}'],
    iberia: ['550 5.2.1 {Cuenta desactivada|Conta desativada|Buzón deshabilitado} ({rcpt})'],
    italy: ['550 5.2.1 <{rcpt}>: {Casella disabilitata|Account sospeso} / mailbox disabled'],
    japan: ['550 5.2.1 <{rcpt}>: {このアカウントは停止されています|アカウント無効} (account disabled)'],
  }),
  phrasings('mailbox-full', {
    google: [
      "452-4.2.2 The recipient's inbox is out of storage space. Please direct the\n452-4.2.2 recipient to\n452 4.2.2  https://support.google.com/mail/?p=OverQuotaTemp {gid} - gsmtp",
      "552-5.2.2 The recipient's inbox is out of storage space and inactive. Please direct the recipient to\n552 5.2.2  https://support.google.com/mail/?p=OverQuotaPerm {gid} - gsmtp",
      '452 4.2.2 The email account that you tried to reach is over quota. {gid} - gsmtp',
    ],
    microsoft: [
      '552 5.2.2 Mailbox full; STOREDRV.Deliver.Exception:QuotaExceededException.MapiExceptionShutoffQuotaExceeded',
      "452 4.2.2 The recipient's mailbox is full and can't accept messages now [{msh}]",
    ],
    yahoo: [
      '552 1 Requested mail action aborted, mailbox is over quota',
      '452 4.2.2 Over quota',
      '554 delivery error: dd Sorry, your message to {rcpt} cannot be delivered. This account is over quota. - mta{n}.mail.gq1.yahoo.com',
    ],
    apple: ['552 5.2.2 <{rcpt}>: user is over quota', '452 4.2.2 <{rcpt}>: {mailbox full|quota exceeded}'],
    comcast: ['552 5.2.2 <{rcpt}> {Mailbox full|Over quota}'],
    gmx: [
      '552 5.2.2 {Postfach voll|Mailbox voll|Speicherplatz des Postfachs erschöpft} / mailbox full <{rcpt}>',
      '452 4.2.2 Mailbox full, try again later',
    ],
    orange: [
      '552 5.2.2 <{rcpt}>: {Boîte aux lettres pleine|Quota dépassé} / mailbox full',
      '452 4.2.2 <{rcpt}>: {Boite pleine|boite aux lettres saturée}',
    ],
    mailru: [
      '552 5.2.2 Mailbox size limit exceeded / {Ящик переполнен|Превышен размер ящика}',
      '550 Message was not accepted -- invalid mailbox.  Local mailbox {rcpt} is unavailable: mailbox is full',
    ],
    yandex: [
      '552 5.2.2 Mailbox size limit exceeded',
      '452 4.2.2 <{rcpt}>: {Почтовый ящик переполнен|ящик получателя переполнен}',
    ],
    chinese: [
      '552 Quota exceeded or service disabled. http://service.mail.qq.com/cgi-bin/help?subtype=1&&id=20022&&no=1000728',
      '552 5.2.2 {邮箱空间已满|用户邮箱容量已满} Mailbox full',
      '552 {RP:QRC|MI:QRC} 163 mx{n} {rcpt} mailbox is full',
    ],
    proofpoint: ['452 4.2.2 <{rcpt}>... Mailbox full', '552 5.2.2 Quota exceeded'],
    barracuda: [
      '452 4.2.2 <{rcpt}>: Recipient address rejected: Mailbox full',
      '552 5.2.2 {Mailbox full|User over quota}',
    ],
    postfix: [
      '552 5.2.2 <{rcpt}>: Recipient address rejected: {Mailbox full|Quota exceeded (mailbox for user is full)}',
      '452 4.2.2 <{rcpt}>: Recipient address rejected: {Over quota|Postfach voll}',
    ],
    exim: [
      '552 {rcpt}: mailbox is full',
      '452 {rcpt}: {mailbox is full|quota exceeded} (MTA-imposed quota exceeded while writing to file)',
    ],
    sendmail: ['552 5.2.2 <{rcpt}>... Mailbox full', '452 4.2.2 {user}... Over quota'],
    qmail: [
      '552 5.2.2 sorry, the recipient mailbox is full (#5.2.2)',
      '522 casella piena / mailbox full (#5.2.2)',
      'user is over quota (#5.2.2)',
    ],
    exchange: [
      '552 5.2.2 STOREDRV.Deliver: mailbox full',
      "452 4.2.2 {The recipient's mailbox is full|Das Postfach des Empfängers ist voll}",
    ],
    zimbra: ['452 4.2.2 <{rcpt}>: Over quota', '552 5.2.2 {Caixa postal cheia|Cota excedida} <{rcpt}>'],
    iberia: ['552 5.2.2 {Buzón lleno|Caixa postal cheia|Cuota excedida|Cota de armazenamento excedida} ({rcpt})'],
    italy: [
      '552 5.2.2 <{rcpt}>: {Casella piena|Spazio esaurito nella casella} / mailbox full',
      '452 4.2.2 {Quota superata|casella di posta piena}',
    ],
    japan: ['452 4.2.2 {メールボックスの容量が一杯です|容量超過} (mailbox full)'],
  }),
  phrasings('recipient-rate', {
    google: [
      '450-4.2.1 The user you are trying to contact is receiving mail at a rate that\n450-4.2.1 prevents additional messages from being delivered. Please resend your\n450-4.2.1 message at a later time. If the user is able to receive mail at that\n450-4.2.1 time, your message will be delivered. {Learn more at|For more information, go to}\n450 4.2.1  https://support.google.com/mail/?p=ReceivingRate {gid} - gsmtp',
      '550 5.2.1 The user you are trying to contact is receiving mail at a rate that prevents additional messages from being delivered. {gid} - gsmtp',
    ],
    microsoft: [
      "550 5.2.2 The recipient's mailbox is receiving messages too quickly. Try again later.",
      '452 4.3.1 Recipient receiving too many messages',
    ],
    yahoo: ['451 4.2.1 Recipient {rcpt} is receiving mail at too high a rate'],
    comcast: ['450 4.2.1 <{rcpt}> is receiving too much mail, try later'],
    gmx: ['450 4.2.1 Empfänger erhält zu viele Nachrichten / recipient receiving too many messages'],
    orange: ['450 4.2.1 <{rcpt}>: Destinataire surchargé, réessayez plus tard'],
    mailru: ['451 4.2.1 Получатель получает слишком много писем / recipient receiving too many messages'],
    chinese: ['451 4.2.1 收件人接收邮件过于频繁, please try later'],
    postfix: ['450 4.2.1 <{rcpt}>: Recipient address rejected: Too many messages for this recipient'],
    exim: ['451 {rcpt}: recipient is receiving too many messages, try again later'],
    exchange: ['452 4.3.1 {Recipient receiving too many messages|Zu viele Nachrichten für diesen Empfänger}'],
    zimbra: [
      '450 4.2.1 <{rcpt}>: {Demasiados mensajes para este destinatario|Destinatário recebendo mensagens demais}',
    ],
  }),
  phrasings('too-many-recipients', {
    google: [
      '452 4.5.3 Your message has too many recipients. {Learn more at|For more information, go to} https://support.google.com/mail/?p=TooManyRecipientsError {gid} - gsmtp',
    ],
    microsoft: ['452 4.5.3 Too many recipients ({ref}) [{msh}]'],
    comcast: ['452 4.5.3 Too many recipients in this session'],
    gmx: ['452 4.5.3 {Zu viele Empfänger|Too many recipients}'],
    orange: ['452 4.5.3 Trop de destinataires / too many recipients'],
    mailru: ['452 4.5.3 Too many recipients / Слишком много получателей'],
    chinese: ['452 4.5.3 {收件人过多|Too many recipients}'],
    postfix: ['452 4.5.3 Error: too many recipients'],
    exim: ['452 too many recipients'],
    sendmail: ['452 4.5.3 Too many recipients', '452 4.5.3 <{rcpt}>... Too many recipients'],
    qmail: ['451 sorry, too many recipients (#4.5.3)', '452 too many recipients (#4.5.3)'],
    italy: ['452 4.5.3 Troppi destinatari / too many recipients'],
    japan: ['452 4.5.3 {宛先が多すぎます|Too many recipients}'],
  }),
  phrasings('recipient-domain-not-found', {
    postfix: [
      'Host or domain name not found. Name service error for name={domain} type=MX: Host not found, try again',
      'Host or domain name not found. Name service error for name={domain} type=A: Host not found',
    ],
    exim: [
      'all relevant MX records point to non-existent hosts',
      'Unrouteable address: domain {domain} has no MX records',
    ],
    sendmail: ['553 5.1.2 {domain}: Host not found', '554 5.4.4 {domain}: Name server timeout'],
    qmail: ["Sorry, I couldn't find any host named {domain}. (#5.1.2)", 'CNAME lookup failed temporarily. (#4.4.3)'],
    exchange: [
      '451 4.4.0 DNS query failed. The error was: SMTPSEND.DNS.NonExistentDomain; nonexistent domain',
      '550 5.4.310 DNS domain {domain} does not exist',
    ],
    zimbra: ['Host ou domínio não encontrado: erro de DNS para {domain} tipo MX'],
    google: [
      "DNS Error: DNS type 'mx' lookup of {domain} responded with code NXDOMAIN Domain name not found: {domain}",
    ],
    gmx: ['Host oder Domain nicht gefunden: Namensdienstfehler für {domain} Typ=MX'],
    orange: ['Domaine {domain} introuvable (pas d enregistrement MX)'],
    mailru: ['Не удалось найти MX-запись домена {domain} / no MX records'],
    italy: ['Dominio {domain} inesistente: nessun record MX'],
    iberia: ['No se encontró el dominio {domain}: sin registros MX'],
    japan: ['ドメイン {domain} のMXレコードが見つかりません (Host not found)'],
    chinese: ['域名 {domain} 不存在 MX 记录 (domain not found)'],
  }),
  phrasings('relay-denied', {
    postfix: ['550 5.7.1 <{rcpt}>: Relay access denied'],
    sendmail: ['550 5.7.1 <{rcpt}>... Relaying denied'],
    qmail: ["553 sorry, that domain isn't in my list of allowed rcpthosts (#5.7.1)"],
    exchange: ['550 5.7.1 Unable to relay'],
  }),
];
