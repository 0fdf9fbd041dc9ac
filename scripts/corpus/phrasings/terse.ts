import { phrasings } from '../situation.ts';

// Short, generic replies of small or custom-configured servers, appliances and hosting platforms ("550 Blocked",
// "552 Over quota", "451 Internal error"), often under a generic or mismatched code (550 5.0.0, 554 5.7.1,
// 451 4.0.0), in English and the languages such servers are set up in. The other files carry full product and
// provider sentences; these bare lines teach the model to read the cause from two or three words, not from long
// wording or the specific enhanced code. Terse lines that honestly read two ways ("550 Rejected", "550 Invalid
// address", "550 Mailbox unavailable") are left out. Near-synonyms share a template (the held-out unit), and the
// rarer situations gather their other-language forms in one `terse-intl` template.
export default [
  // -------------------------------------------------------------------------------------------------------------
  // Recipient side
  // -------------------------------------------------------------------------------------------------------------
  phrasings('recipient-unknown', {
    // A malformed recipient address can never be delivered: it is removed like an unknown one
    'terse-en': [
      '{550|553|550 5.0.0} Invalid recipient',
      '550 No such {user|recipient}',
      '{550|554 5.7.1|550 5.0.0} Unknown recipient',
      '{550 Recipient unknown|550 Recipient not found|550 5.0.0 User not found|550 5.7.1 Recipient does not exist|511 User unknown}',
      '{550 5.1.1 Not found|550 5.1.1 Address rejected|550 <{rcpt}>: Address rejected}',
      '{501 Bad|553 Malformed} recipient address',
      '{550|550 5.0.0} Invalid mailbox',
      '550 {Nonexistent mailbox|Mailbox does not exist|No mailbox by that name}',
      '{550 Unknown local part|554 Unknown local part|550 {Invalid|Nonexistent} user {user}}',
      'Unknown address {rcpt}',
    ],
    'terse-de': ['{550 |}{Unbekannter Empfänger|Empfänger existiert nicht|Ungültiger Empfänger|Postfach unbekannt}'],
    'terse-fr': ['550 {Destinataire inconnu|Adresse inconnue|Utilisateur inexistant|Destinataire invalide}'],
    'terse-es': ['550 {Usuario desconocido|Destinatario desconocido|Buzón inexistente|Destinatario inválido}'],
    'terse-pt': ['550 {Usuário desconhecido|Destinatário inválido|Caixa postal inexistente}'],
    'terse-it': ['550 {Utente inesistente|Destinatario inesistente|Indirizzo inesistente}'],
    'terse-nl': ['550 {Onbekende gebruiker|Ontvanger onbekend|Adres bestaat niet}'],
    'terse-ru': ['{550 |}{Нет такого пользователя|Неизвестный получатель|Адрес не существует}'],
    'terse-zh': ['550 {用户不存在|收件人不存在|无效的收件人|邮箱不存在}'],
    'terse-ja': ['550 {該当ユーザなし|宛先不明|ユーザー不明}'],
    'terse-ko': ['550 {사용자 없음|존재하지 않는 계정|수신자 없음}'],
    'terse-intl': [
      '550 {Nieznany odbiorca|Nie ma takiego użytkownika|Neznámý příjemce|Schránka neexistuje|Böyle bir kullanıcı yok|Geçersiz alıcı}',
    ],
  }),

  phrasings('mailbox-disabled', {
    'terse-en': [
      '550 Account closed',
      '{550|550 5.0.0} Account disabled',
      '550 {Account|User account} expired',
      '{550|554 5.7.1} Account suspended',
      '550 Account {inactive|deactivated|terminated}',
      '550 Mailbox {disabled|suspended|closed}',
      '{550 Mailbox locked|550 5.7.1 Mailbox locked|550 Account locked|550 Recipient account locked}',
      '{550 User disabled|550 User suspended|550 Inactive user|554 5.7.1 Mailbox inactive}',
    ],
    'terse-de': ['550 {Konto deaktiviert|Postfach gesperrt|Konto gesperrt|Postfach inaktiv|Konto abgelaufen}'],
    'terse-fr': ['550 {Compte suspendu|Compte expiré|Boîte désactivée|Compte inactif}'],
    'terse-es': ['550 {Cuenta suspendida|Cuenta inactiva|Buzón desactivado}'],
    'terse-pt': ['550 {Conta suspensa|Conta inativa|Conta bloqueada}'],
    'terse-it': ['550 {Account disabilitato|Casella sospesa|Utente disattivato}'],
    'terse-nl': ['550 {Account uitgeschakeld|Mailbox geblokkeerd}'],
    'terse-ru': ['550 {Учетная запись заблокирована|Ящик отключен|Ящик заморожен}'],
    'terse-zh': ['550 {帐号已停用|邮箱已冻结|用户已禁用|帐户已过期}'],
    'terse-ja': ['550 {アカウント停止中|アカウントが無効です}'],
    'terse-ko': ['550 {휴면 계정|정지된 계정}'],
    'terse-intl': [
      '550 {Konto zablokowane|Konto nieaktywne|Skrzynka wyłączona|Účet zrušen|Účet není aktivní|Hesap kapatıldı|Hesap devre dışı}',
    ],
  }),

  phrasings('mailbox-full', {
    'terse-en': [
      '552 Over quota',
      '{552|452} Mailbox full',
      '{452|552} Quota exceeded',
      '552 {Disk quota|Storage limit} exceeded',
      '{552 Mailbox is full|552 Quota full|552 No space left in mailbox}',
      '{452 Recipient|552 Mailbox} over quota',
      '{550 5.0.0 Mailbox full|554 5.7.1 Mailbox full|451 4.0.0 Mailbox full|554 5.7.1 Over quota}',
      '{452 {user} is over quota|Mailbox full: {rcpt}}',
    ],
    'terse-de': ['{552 |}{Postfach voll|Speicherplatz überschritten|Quota überschritten}'],
    'terse-fr': ['552 {Boîte pleine|Quota dépassé|Quota atteint}'],
    'terse-es': ['552 {Buzón lleno|Cuota excedida|Buzón sin espacio}'],
    'terse-pt': ['552 {Caixa cheia|Cota excedida}'],
    'terse-it': ['552 {Casella piena|Spazio casella esaurito}'],
    'terse-nl': ['552 {Quotum overschreden|Postvak vol}'],
    'terse-ru': ['{552 |}{Ящик переполнен|Превышена квота}'],
    'terse-zh': ['552 {邮箱已满|邮箱容量不足|超出配额}'],
    'terse-ja': ['552 {容量超過|メールボックス容量オーバー}'],
    'terse-ko': ['552 {메일함 용량 초과|메일함이 가득 찼습니다}'],
    'terse-intl': ['552 {Skrzynka pełna|Brak miejsca w skrzynce|Plná schránka|Překročena kvóta|Kota aşıldı|Kutu dolu}'],
  }),

  phrasings('recipient-rate', {
    'terse-en': [
      '450 Too many messages for this user',
      '450 User receiving too much mail',
      '{450 4.2.1 Recipient throttled|452 Recipient rate limit exceeded}',
      '451 Mailbox receiving too fast',
      '450 Too much mail for {rcpt}',
    ],
    'terse-intl': [
      '450 {Zu viele Mails an diesen Empfänger|Trop de messages pour ce destinataire|Слишком много писем для получателя|收件人收信过多|宛先の受信数超過}',
    ],
  }),

  phrasings('too-many-recipients', {
    'terse-en': [
      '452 Too many rcpts',
      '452 {Recipient limit|Recipient count} exceeded',
      '452 Max recipients reached',
      '{550|554} Too many recipients',
      '452 Too many recipients, max {n}',
    ],
    'terse-intl': [
      '452 {Zu viele Empfänger|Demasiados destinatarios|Destinatários demais|Слишком много получателей|收件人数量超限|宛先数超過|수신자 수 초과}',
    ],
  }),

  phrasings('recipient-domain-not-found', {
    'terse-en': [
      '550 No such domain',
      '550 5.1.2 Unknown domain',
      '550 Unknown recipient domain',
      '{550|553} Recipient domain not found',
      '550 Domain does not exist',
      '550 {5.1.2 |}Host unknown',
      '{550 Domain has no MX|553 Invalid recipient domain}',
      '{No such domain: {domain}|{domain}: NXDOMAIN|Host or domain name not found}',
    ],
    'terse-de': ['550 {Domain existiert nicht|Empfängerdomain unbekannt}'],
    'terse-fr': ['550 Domaine inexistant'],
    'terse-es': ['550 Dominio inexistente'],
    'terse-pt': ['550 Domínio inexistente'],
    'terse-it': ['550 Dominio inesistente'],
    'terse-ru': ['550 Домен не существует'],
    'terse-zh': ['550 域名不存在'],
    'terse-ja': ['550 ドメインが存在しません'],
    'terse-intl': ['550 {Domein bestaat niet|Domena nie istnieje|존재하지 않는 도메인}'],
  }),

  phrasings('relay-denied', {
    'terse-en': [
      '{550|550 5.7.1} Relay denied',
      '554 Relay access denied',
      '550 {No relay|No relaying}',
      '550 Relaying not allowed',
      '550 {Not a local domain|Domain not hosted here}',
      '550 We do not relay',
      '{550 Relay prohibited|553 Relay prohibited}',
      '554 5.7.1 Relaying not permitted',
    ],
    'terse-de': ['550 {Relaying nicht erlaubt|Kein Relay}'],
    'terse-fr': ['550 Relais non autorisé'],
    'terse-es': ['550 Relay denegado'],
    'terse-pt': ['550 Relay negado'],
    'terse-it': ['550 Relay negato'],
    'terse-ru': ['550 Релей запрещен'],
    'terse-zh': ['{550 禁止转发|553 不允许中继}'],
    'terse-ja': ['550 中継拒否'],
    'terse-intl': ['550 {Relay geweigerd|Relay reddedildi|릴레이 거부}'],
  }),

  phrasings('mail-loop', {
    'terse-en': [
      '550 Loop detected',
      '554 Mail loop',
      '554 Hop count exceeded',
      '550 {Routing|Forwarding} loop',
      '554 Looping message',
    ],
    'terse-intl': [
      '554 {Mailschleife erkannt|Boucle détectée|Bucle detectado|Обнаружена петля|邮件循环|メールループ検出}',
    ],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Sending side and connections (the sending MTA's own words, without a code)
  // -------------------------------------------------------------------------------------------------------------
  phrasings('connection-failure', {
    'terse-en': [
      'Connection refused',
      'Connection timed out',
      'Connection reset by peer',
      '{No route to host|Network unreachable}',
      '{Lost connection to {mx}|Read timeout}',
    ],
    'terse-intl': [
      '{Verbindung abgelehnt|Zeitüberschreitung der Verbindung|Connexion refusée|Délai de connexion dépassé|Conexión rechazada|Conexão recusada|Connessione rifiutata|Соединение отклонено}',
      '{连接被拒绝|连接超时|接続タイムアウト}',
    ],
  }),

  phrasings('expired-retries', {
    'terse-en': [
      'Queue expired',
      'Retry time exceeded',
      '{Too many retries|Max retries reached}',
      '{Queue lifetime exceeded|Expired in queue}',
      'Gave up after {n} attempts',
    ],
    'terse-intl': [
      '{Nachricht abgelaufen|Message expiré|Mensaje caducado|Mensagem expirada|Messaggio scaduto|Срок доставки истек}',
      '{超过最大重试次数|再送期限切れ|재시도 횟수 초과}',
    ],
  }),

  phrasings('server-busy', {
    // Busy, load or resources named (without them, "service unavailable" is temporary-failure)
    'terse-en': [
      '421 Too busy',
      '421 {Server|System} busy',
      '{421 Overloaded|451 Server overloaded}',
      '{421|450 System} load too high',
      '421 4.3.2 Busy',
      '421 Service unavailable, too busy',
      '{452 Out of resources|421 Resources exhausted|451 Out of memory}',
      '421 Too many processes, try later',
    ],
    'terse-qmail': ['421 out of memory (#4.3.0)'],
    'terse-de': ['421 {Server ausgelastet|Zu hohe Last}'],
    'terse-fr': ['421 Serveur occupé'],
    'terse-es': ['421 Servidor saturado'],
    'terse-pt': ['421 Servidor ocupado'],
    'terse-it': ['421 Server occupato'],
    'terse-ru': ['421 Сервер занят'],
    'terse-zh': ['421 {系统忙|服务器负载过高}'],
    'terse-ja': ['421 サーバー混雑中'],
    'terse-intl': ['421 {Server bezet|Serwer zajęty|Server je přetížen|Sunucu yoğun|서버 혼잡}'],
  }),

  phrasings('temporary-failure', {
    // The receiver's own failure or misconfiguration
    'terse-en': [
      '{451|451 4.0.0} Internal error',
      '451 Temporary local problem',
      '{421 Service shutting down|421 Shutting down}',
      '{451 Try later, system misconfigured|451 Configuration error}',
      '451 Database {unavailable|error}',
      '451 {Local|Server|Processing} error',
      '{451|451 4.0.0} Temporary failure',
      '{451 LDAP lookup failed|451 Content filter unavailable}',
      '421 Service unavailable',
      '{450 Try later|451 Unexpected failure, try later}',
    ],
    'terse-qmail': ['421 unable to read controls (#4.3.0)'],
    'terse-de': ['451 {Interner Fehler|Lokaler Fehler}'],
    'terse-fr': ['451 {Erreur interne|Erreur temporaire}'],
    'terse-es': ['451 {Error interno|Fallo temporal}'],
    'terse-pt': ['451 {Erro interno|Falha temporária}'],
    'terse-it': ['451 Errore interno'],
    'terse-ru': ['451 {Внутренняя ошибка|Временный сбой}'],
    'terse-zh': ['451 {内部错误|系统错误}'],
    'terse-ja': ['451 {内部エラー|一時エラー}'],
    'terse-intl': ['451 {Interne fout|Błąd wewnętrzny|Interní chyba|Dahili hata|내부 오류|일시적 오류}'],
  }),

  phrasings('greylisting', {
    'terse-en': [
      '451 Greylisted',
      '450 Greylisted, retry later',
      '451 Grey-listed',
      '{450 Greylisting in action|451 Delayed by greylisting}',
      '450 Greylisted: retry in {n}s',
    ],
    'terse-intl': ['451 {Greylisting aktiv|Liste grise|Lista gris|Серый список|灰名单|グレーリスト}'],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Volume and reputation
  // -------------------------------------------------------------------------------------------------------------
  phrasings('ip-rate-volume', {
    'terse-en': [
      '421 Too many messages from your IP',
      '{450 IP rate limit|421 IP rate exceeded}',
      '451 Too much mail from {ip}',
      '421 Rate limit for {ip}',
      '{450 Per-IP limit reached|421 Sending IP throttled}',
    ],
    'terse-intl': ['{421 Zu viele Nachrichten von Ihrer IP|421 Слишком много писем с вашего IP|451 IP发信频率过高}'],
  }),

  phrasings('domain-rate-volume', {
    'terse-en': [
      '450 Too many messages from your domain',
      '451 Sender domain rate limit',
      '421 Domain rate exceeded',
      '450 Too much mail from {sdomain}',
      '{451 Sender domain throttled|421 Rate limit for domain {sdomain}}',
    ],
    'terse-intl': ['{450 Zu viele Nachrichten von Ihrer Domain|451 发信域名频率超限|451 送信ドメインの送信数超過}'],
  }),

  phrasings('general-rate', {
    'terse-en': [
      '{450|450 4.7.1} Slow down',
      '421 Rate {exceeded|limit}',
      '451 Rate limited',
      '{450 Too fast|451 Sending too fast}',
      '421 {Throttled|Throttling active}',
      '452 Message rate exceeded',
    ],
    'terse-intl': [
      '{421 Zu schnell|450 Sendelimit erreicht|421 Ralentissez|421 Límite de envío superado|421 Limite de envio excedido|421 Limite di invio superato|421 Te snel|421 Za szybko}',
      '421 {Překročen limit odesílání|Превышен лимит отправки|Gönderim limiti aşıldı|发送频率超限|送信数制限|전송 제한 초과}',
    ],
  }),

  phrasings('concurrency', {
    'terse-en': [
      '421 Too many connections',
      '421 Connection limit reached',
      '421 Max connections reached',
      '421 Too many {sessions|concurrent sessions}',
      '421 Concurrency limit',
    ],
    'terse-intl': [
      '421 {Zu viele Verbindungen|Trop de connexions|Demasiadas conexiones|Zbyt wiele połączeń|Слишком много соединений|连接数过多|接続数超過|연결 수 초과}',
    ],
  }),

  phrasings('url-domain-rate', {
    'terse-en': [
      '451 Too many messages with {udomain} links',
      '450 URL rate limit: {udomain}',
      '451 Link domain {udomain} throttled',
      '421 URL domain rate exceeded',
      '451 Rate limited: URL {udomain}',
      '450 4.7.1 URL throttled: {udomain}',
    ],
  }),

  phrasings('ip-reputation-temporary', {
    'terse-en': [
      '421 Poor IP reputation, try later',
      '{451 IP reputation deferral|421 Deferred: IP reputation}',
      '450 Low reputation IP {ip}, deferred',
      '451 4.7.1 Bad IP reputation, try again later',
      '{451 Too many complaints from your IP, try later|421 Unsolicited mail from your IP, deferred}',
    ],
    'terse-intl': ['{421 IP-Reputation zu niedrig, später erneut versuchen|451 IP信誉度低，请稍后再试}'],
  }),

  phrasings('ip-reputation-permanent', {
    'terse-en': [
      '550 Poor IP reputation',
      '554 Bad IP reputation',
      '550 IP reputation too low',
      '{554 Low reputation sending IP|554 Your IP has a poor reputation}',
      '550 Too many complaints from {ip}',
    ],
    'terse-intl': ['{550 IP-Reputation zu schlecht|550 Mauvaise réputation IP|554 Низкая репутация IP|554 IP信誉度低}'],
  }),

  phrasings('domain-reputation-temporary', {
    'terse-en': [
      '451 Poor domain reputation, try later',
      '421 Sender domain reputation, deferred',
      '450 Domain reputation too low, retry later',
      '{451 4.7.1 Deferred: domain reputation|451 Low reputation sender domain, deferred}',
      '421 Domain {sdomain} has poor reputation, try again later',
    ],
    'terse-intl': ['{451 Schlechte Domain-Reputation, später erneut versuchen|451 发信域名信誉度低，请稍后重试}'],
  }),

  phrasings('domain-reputation-permanent', {
    'terse-en': [
      '550 Poor domain reputation',
      '554 Bad domain reputation',
      '550 Domain reputation too low',
      '{554 Low reputation sender domain|550 5.7.1 Sender domain reputation}',
      '550 Domain {sdomain} reputation too low',
    ],
    'terse-intl': ['{550 Domain-Reputation zu niedrig|550 Mauvaise réputation du domaine|554 域名信誉度低}'],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Blocks
  // -------------------------------------------------------------------------------------------------------------
  phrasings('dnsbl-ip', {
    // A named list, however short the line, makes it BLOCK_LIST
    'terse-en': [
      '{550 Listed in|554 Blocked by} Spamhaus',
      '{550 SpamCop listed|554 Blacklisted by bl.spamcop.net}',
      '{554 Listed on SORBS|550 PSBL listed|554 {ip} listed in Mailspike}',
      '{550 Listed in zen.spamhaus.org|550 5.7.1 RBL: Spamhaus}',
      '550 Found on DNSBL',
      '550 IP in UCEPROTECT',
      '554 {Blocked by b.barracudacentral.org|Rejected by Barracuda BRBL}',
    ],
    'terse-intl': [
      '{550 In Spamhaus gelistet|550 Listé sur Spamhaus|550 Listado en Spamhaus|550 В черном списке Spamhaus|554 被Spamhaus列入黑名单}',
    ],
  }),

  phrasings('dnsbl-domain', {
    'terse-en': [
      '550 Sender domain listed in DBL',
      '554 Domain in Spamhaus DBL',
      '{550 URIBL: sender domain listed|550 MAIL FROM domain on SURBL}',
      '550 HELO domain listed in DBL',
      '554 Sender domain blacklisted (dbl.spamhaus.org)',
    ],
    'terse-intl': ['{550 Absenderdomain in DBL gelistet|554 发件域名被Spamhaus DBL列入黑名单}'],
  }),

  phrasings('uribl-content', {
    'terse-en': [
      '554 URL listed in SURBL',
      '550 Body URL in DBL',
      '{554 Blocked URL: {udomain} (URIBL)|554 URIBL hit: {udomain}}',
      '550 Blacklisted URL (multi.surbl.org)',
      '550 Link listed in Spamhaus DBL',
    ],
    'terse-intl': ['{554 URL in SURBL gelistet|554 邮件中的链接被URIBL列入黑名单}'],
  }),

  phrasings('own-ip-block', {
    'terse-en': [
      '554 Your IP is blocked',
      '550 IP {blocked|banned}',
      '554 IP not allowed',
      '550 Banned IP {ip}',
      '{554 Your IP is on our blocklist|554 5.7.1 Client IP blocked}',
    ],
    'terse-intl': [
      '554 {IP-Adresse gesperrt|IP bloquée|IP bloqueada|IP bloccato|IP заблокирован|IP engellendi}',
      '554 {IP已被封禁|IP拒否}',
    ],
  }),

  phrasings('policy-block', {
    // A block that gives no reason. A bare "Rejected" is left out: it reads as an unknown recipient just as well
    'terse-en': [
      '{550 5.7.1|550 5.0.0|554 5.7.1} Blocked',
      '{554|553|554 5.7.1} Denied',
      '550 Not allowed',
      '554 Refused',
      '554 Access denied',
      '550 {Prohibited|Forbidden}',
      '{554 Rejected by policy|550 Policy rejection|550 Denied by policy|550 Blocked by policy}',
      '{550 5.7.1 Not authorized|550 Administratively denied}',
      '{550 Message refused|554 Transaction denied|550 Delivery denied}',
    ],
    'terse-de': ['{554 Blockiert|550 Nicht erlaubt|554 Zugriff verweigert}'],
    'terse-fr': ['{554 Bloqué|550 Interdit|550 Accès refusé}'],
    'terse-es': ['{554 Bloqueado|550 Acceso denegado|550 No permitido}'],
    'terse-pt': ['{554 Acesso negado|550 Não permitido}'],
    'terse-it': ['{554 Bloccato|550 Accesso negato|550 Non consentito}'],
    'terse-nl': ['{554 Geblokkeerd|550 Toegang geweigerd|550 Niet toegestaan}'],
    'terse-ru': ['{554 Заблокировано|550 Запрещено}'],
    'terse-zh': ['{554 邮件被拦截|550 禁止投递}'],
    'terse-ja': ['{554 受信拒否|550 アクセス拒否}'],
    'terse-ko': ['{554 차단됨|550 접근 거부}'],
    'terse-intl': [
      '{554 Zablokowano|550 Odmowa dostępu|554 Zablokováno|550 Přístup odepřen|554 Engellendi|550 Erişim reddedildi}',
    ],
  }),

  phrasings('sender-blocked', {
    // The sender refused for no syntax reason (a malformed or unqualified sender address is protocol-syntax)
    'terse-en': [
      '550 Sender {rejected|refused}',
      '{553|550 5.7.1} Sender blocked',
      '{550 Sender not allowed|554 5.7.1 Sender not permitted}',
      '{550 Blocked sender|554 Sender blacklisted|550 {sender} blocked}',
      '550 {Unknown|Invalid} sender',
      '{553 Sender domain does not exist|553 5.1.8 Sender domain not found}',
      '550 Sender address {rejected|does not exist}',
      '550 Blocked by recipient',
      '550 Could not verify sender',
    ],
    'terse-de': ['550 {Absender abgelehnt|Absender gesperrt|Absender unbekannt}'],
    'terse-fr': ['550 {Expéditeur refusé|Expéditeur bloqué|Expéditeur inconnu}'],
    'terse-es': ['550 {Remitente rechazado|Remitente bloqueado}'],
    'terse-pt': ['550 {Remetente bloqueado|Remetente recusado}'],
    'terse-it': ['550 {Mittente rifiutato|Mittente bloccato}'],
    'terse-nl': ['550 {Afzender geweigerd|Afzender geblokkeerd}'],
    'terse-ru': ['550 {Отправитель отклонен|Отправитель заблокирован}'],
    'terse-zh': ['550 {发件人被拒绝|发件人已被屏蔽}'],
    'terse-ja': ['550 {送信者拒否|差出人が拒否されました}'],
    'terse-ko': ['550 {발신자 거부|발신자 차단}'],
    'terse-intl': [
      '550 {Nadawca odrzucony|Nadawca zablokowany|Odesílatel odmítnut|Gönderen reddedildi|Gönderen engellendi}',
    ],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Content
  // -------------------------------------------------------------------------------------------------------------
  phrasings('spam-content', {
    'terse-en': [
      '550 Spam rejected',
      '550 Message looks like spam',
      '{554|554 5.7.1|550 5.0.0} Spam',
      '554 Spam detected',
      '{550 Spam message|550 Message is spam|550 Classified as spam|554 Rejected as spam}',
      '554 {Suspected spam|Suspicious message}',
      '550 {Spam score too high|High spam score}',
      '{554 Content rejected: spam|550 Junk mail rejected|550 UBE rejected}',
      '{554 Blocked by content filter|550 Rejected by spam filter}',
    ],
    'terse-de': ['{554 Spam erkannt|550 Als Spam abgelehnt|554 Spamverdacht}'],
    'terse-fr': ['{554 Spam détecté|550 Pourriel refusé}'],
    'terse-es': ['{554 Spam detectado|550 Correo no deseado}'],
    'terse-pt': ['{554 Mensagem considerada spam|550 Lixo eletrônico rejeitado}'],
    'terse-it': ['{554 Rilevato spam|550 Messaggio spam}'],
    'terse-ru': ['{554 Спам|550 Обнаружен спам|554 Подозрение на спам}'],
    'terse-zh': ['{554 垃圾邮件|550 疑似垃圾邮件}'],
    'terse-ja': ['{554 迷惑メール|550 スパム判定}'],
    'terse-ko': ['{554 스팸 메일|550 스팸으로 판정됨}'],
    'terse-intl': [
      '{554 Spam gedetecteerd|554 Wykryto spam|550 Podejrzenie spamu|554 Detekován spam|554 Spam tespit edildi}',
    ],
  }),

  phrasings('other-content', {
    // Size, attachment and format policy
    'terse-en': [
      '{554|552 5.3.4} Too big',
      '552 {Message too large|Too large}',
      '552 {Size limit exceeded|Max message size exceeded|Message size exceeds limit}',
      '{554 Attachment not allowed|550 Forbidden attachment|554 Banned attachment|550 5.7.1 Attachment blocked}',
      '{552 Blocked file type|554 Executable attachments not allowed}',
      '{550 Missing Message-ID|554 No From header}',
      '{550 Bad headers|554 Header too long}',
      '554 {Malformed message|Invalid message format}',
      '550 Invalid MIME',
    ],
    'terse-de': ['{552 Nachricht zu groß|554 Anhang nicht erlaubt}'],
    'terse-fr': ['{552 Message trop gros|554 Pièce jointe refusée}'],
    'terse-es': ['{552 Mensaje demasiado grande|554 Adjunto no permitido}'],
    'terse-pt': ['{552 Mensagem grande demais|554 Anexo não permitido}'],
    'terse-it': ['{552 Dimensione eccessiva|554 Allegato non consentito}'],
    'terse-ru': ['{552 Письмо слишком большое|554 Запрещенное вложение}'],
    'terse-zh': ['{552 邮件过大|554 附件类型被禁止}'],
    'terse-ja': ['{552 サイズ超過|554 添付ファイル拒否}'],
    'terse-ko': ['{552 메일 크기 초과|554 첨부파일 차단}'],
    'terse-intl': [
      '{554 Bijlage niet toegestaan|552 Maximale berichtgrootte overschreden|552 Wiadomość za duża|554 Niedozwolony załącznik|552 Příliš velká zpráva|554 Nepovolená příloha|552 Mesaj çok büyük|554 Ek dosyaya izin verilmiyor}',
    ],
  }),

  phrasings('virus', {
    'terse-en': [
      '554 Virus found',
      '554 {Infected|Malware}',
      '{550 Infected attachment|550 Contains virus}',
      '{554 5.7.1 Infected: {virus}|554 Virus: {virus}}',
    ],
    'terse-intl': [
      '554 {Virus erkannt|Virus trouvé|Virus detectado|Вирус}',
      '554 {病毒邮件|ウイルス検出|바이러스 감염}',
    ],
  }),

  // -------------------------------------------------------------------------------------------------------------
  // Authentication and infrastructure
  // -------------------------------------------------------------------------------------------------------------
  phrasings('dkim', {
    'terse-en': [
      '550 DKIM fail',
      '550 Bad DKIM signature',
      '554 {DKIM invalid|DKIM verification failure}',
      '550 No DKIM signature',
      '550 DKIM required',
    ],
    'terse-intl': ['550 {DKIM-Signatur ungültig|Неверная подпись DKIM|DKIM签名无效|DKIM認証失敗}'],
  }),

  phrasings('spf', {
    'terse-en': [
      '550 SPF {fail|failure}',
      '554 SPF hardfail',
      '550 Rejected by SPF',
      '550 SPF: not permitted',
      '550 IP not permitted by SPF',
    ],
    'terse-intl': ['550 {SPF-Prüfung fehlgeschlagen|Échec SPF|Проверка SPF не пройдена|SPF校验失败|SPF認証失敗}'],
  }),

  phrasings('dmarc', {
    'terse-en': [
      '550 DMARC fail',
      '550 DMARC reject',
      '550 DMARC policy violation',
      '{554 Rejected by DMARC|550 Failed DMARC}',
      '550 Unauthenticated (DMARC)',
    ],
    'terse-intl': ['550 {DMARC-Prüfung fehlgeschlagen|Échec DMARC|DMARC验证失败|DMARC認証失敗}'],
  }),

  phrasings('ptr', {
    'terse-en': [
      '550 No PTR',
      '550 No reverse DNS',
      '{554 No rDNS|554 Missing PTR record}',
      '550 Reverse DNS required',
      '{550 PTR mismatch|550 Generic rDNS not allowed}',
    ],
    'terse-intl': ['550 {Kein Reverse-DNS|Pas de DNS inverse|Нет PTR-записи|无反向解析|逆引き不可}'],
  }),

  phrasings('helo', {
    'terse-en': [
      '501 Invalid HELO',
      '550 Bad HELO',
      '{504 Need FQDN in HELO|550 Non-FQDN HELO}',
      '550 HELO rejected',
      '{501 EHLO: invalid hostname|554 HELO name not valid}',
    ],
    'terse-intl': ['550 {Ungültiger HELO|HELO无效|HELO不正}'],
  }),

  phrasings('auth', {
    'terse-en': [
      '530 Auth required',
      '535 Auth failed',
      '535 {Bad credentials|Wrong password}',
      '530 {Authentication needed|Not authenticated}',
      '535 Login failed',
    ],
    'terse-intl': [
      '{535 Anmeldung fehlgeschlagen|530 Authentification requise|535 Autenticación fallida|530 Autenticação necessária|535 Ошибка авторизации}',
      '535 {认证失败|認証失敗|인증 실패}',
    ],
  }),

  phrasings('tls-required', {
    'terse-en': [
      '530 TLS required',
      '530 Encryption required',
      '{530 Use STARTTLS|550 STARTTLS required}',
      '{530 Plaintext not allowed|550 Secure connection required}',
      '530 TLS 1.2 or higher required',
    ],
    'terse-intl': ['530 {Verschlüsselung erforderlich|TLS obligatoire|需要TLS|TLS必須}'],
  }),

  phrasings('tls-handshake', {
    'terse-en': ['{TLS|SSL} handshake failed', 'TLS negotiation failed'],
    'terse-intl': ['{TLS-Handshake fehlgeschlagen|Échec de la négociation TLS|Ошибка TLS-рукопожатия|TLS握手失败}'],
  }),

  phrasings('tls-certificate', {
    'terse-en': [
      'Certificate verify failed',
      '{Certificate expired|Untrusted certificate}',
      'Certificate hostname mismatch',
    ],
  }),

  phrasings('protocol-syntax', {
    // Command syntax and sequence, and a malformed or unqualified SENDER address
    'terse-en': [
      '500 Syntax error',
      '500 {Unknown|Invalid} command',
      '500 Command unrecognized',
      '502 {Not implemented|Command not implemented}',
      '503 {Bad sequence|Wrong sequence of commands|HELO first}',
      '501 {Bad syntax|Invalid argument}',
      '500 {Line|Command} too long',
      '{504 Need FQDN sender|553 Sender address syntax invalid}',
      '{501 Malformed sender address|501 Bad MAIL FROM syntax}',
      '554 Bare LF not allowed',
      '{555 Unsupported parameter|501 Unknown ESMTP parameter}',
    ],
    'terse-postfix': [
      '504 5.5.2 <{sender}>: Sender address rejected: need fully-qualified address',
      '501 5.5.4 Syntax: EHLO hostname',
      '503 5.5.1 Error: send HELO/EHLO first',
    ],
    'terse-de': ['{500 Syntaxfehler|500 Unbekannter Befehl|503 Falsche Befehlsreihenfolge}'],
    'terse-es': ['500 {Error de sintaxis|Comando desconocido}'],
    'terse-pt': ['500 {Comando desconhecido|Erro de sintaxe}'],
    'terse-ru': ['{500 Неизвестная команда|501 Синтаксическая ошибка}'],
    'terse-zh': ['{500 未知命令|502 命令未实现}'],
    'terse-intl': [
      '500 {Commande inconnue|Comando sconosciuto|Onbekend commando|不明なコマンド|알 수 없는 명령}',
      '{500 Nieznane polecenie|501 Błąd składni|500 Neznámý příkaz|501 Chyba syntaxe|500 Bilinmeyen komut|501 Sözdizimi hatası|501 구문 오류}',
    ],
  }),
];
