import { phrasings } from '../situation.ts';

// Text that reaches the classifier but reports no failure: a receiver's 2xx answer, a sending MTA's success or relay
// notice, auto-replies in the languages operators meet, read receipts, helpdesk acknowledgements and list notices.
// The wordings follow how these systems answer (Postfix's and Exchange's success notices, Exim's and qmail's 250
// lines, RFC 3798 read receipts); the not-a-bounce fixtures of plugins/bounce-model/fixtures are worded apart from
// them, so those stay a test of text the models did not see.
export default [
  phrasings('not-a-bounce', {
    'success-reply': [
      '250 2.0.0 {Message accepted for delivery|Accepted|Message queued|OK, message saved}',
      '250 OK id={ref}',
      '250 ok {n} qp {n}',
      '250 2.0.0 {qid} {Message accepted for delivery|mail accepted for delivery}',
      '250 {Requested mail action okay, completed|Mail queued for delivery|Message received}',
      '250 2.1.5 {Recipient OK|<{rcpt}>... Recipient ok|Ok}',
      '250 2.1.0 {Sender OK|Ok}',
      '221 2.0.0 {Bye|closing connection|Service closing transmission channel}',
      '354 {End data with <CR><LF>.<CR><LF>|Start mail input; end with <CRLF>.<CRLF>|Go ahead}',
      '220 {host} ESMTP {ready|Service ready}',
      '250 2.6.0 Message {received|accepted} id={ref}',
    ],
    'success-dsn': [
      'Your message was successfully delivered to the destination(s) listed below. If the message was delivered to mailbox you will receive no further notifications.',
      '{rcpt}: delivery {via|to} {host}: {delivered to mailbox|250 2.0.0 Ok}',
      'Your message has been delivered to the following recipients: {rcpt}',
      'Delivery to these recipients or groups is complete, but no delivery notification was sent by the destination server: {rcpt}',
      'Your message was relayed to {host}; the destination server sends no notice of delivery.',
      'This is a delivery report: the message to {rcpt} was {delivered|stored in the mailbox|accepted by the recipient server} on {date}.',
      'Action: delivered Status: 2.0.0',
      'Action: relayed Status: 2.0.0 Remote-MTA: dns; {host}',
      'Zustellung erfolgreich: Ihre Nachricht an {rcpt} wurde zugestellt.',
      'Votre message a bien été remis à {rcpt}.',
    ],
    'auto-reply-en': [
      "{Thanks|Thank you} for your {email|message}. I'm {away|on leave|travelling} {until|through} {date} and will {reply|get back to you} {when I return|on my return|as soon as I can}.",
      'Auto-reply: I am currently {out of office|on annual leave|away from my desk} {with no access to email|and checking mail only occasionally}.',
      'This mailbox is {not monitored|no longer monitored}. {Please visit our help centre|For support, please use our website}.',
      'Automatic reply: {user} is {on parental leave|on holiday|away} {until|from} {date}. {Your email will not be forwarded.|Messages are not being read.}',
      '{Hello|Hi|Dear sender}, I will be {on vacation|at a conference|travelling for work} from {date} to {date} {with only limited connectivity|without reliable internet access|and will check messages sporadically}. {If your request is urgent|If you need immediate assistance|In an emergency}, please {call the office|write to {user}@{domain}}.',
      'I am {currently|presently} on {sick leave|maternity leave|sabbatical|a business trip} and {will not be able to|cannot} respond {before|until} {date}. {For anything time-sensitive|For pressing issues|If this cannot wait}, {please contact|reach out to} {user}@{domain}{| or the front desk}.',
      'Out of Office: {Thank you for your email|Many thanks for getting in touch}. I have {limited availability|reduced availability|reduced hours} {this week|until {date}} and {may be slow to respond|replies may be delayed}.',
      'The office is closed for the {holidays|public holiday|summer break} {until|through} {date}. {We will answer your message when we reopen.|Replies will resume on {date}.}',
      'I am attending {a training course|meetings|a trade fair} {today|all week} with {little|minimal|only occasional} access to {my inbox|my phone}. I will {answer|deal with} your {message|email} {on|after} {date}.',
      'Automatic reply: thank you for contacting {user}. {Our office hours are Monday to Friday, 9:00 to 17:00|We are closed at the moment}; {your message will be answered on the next working day|we will be in touch soon}.',
      "This is an automatic reply: I'm {off|away} {until|till} {date}{| and won't be reading mail}. {Urgent requests|Questions about orders} {go to|can be sent to} {user}@{domain}.",
    ],
    'auto-reply-intl': [
      '{Abwesenheitsnotiz|Automatische Antwort}: Ich bin {bis einschließlich|bis zum} {date} {im Urlaub|abwesend} und {habe keinen Zugriff auf meine E-Mails|beantworte Ihre Nachricht nach meiner Rückkehr}.',
      "{Réponse automatique|Message d'absence} : je suis absent{|e} du bureau {jusqu'au|à partir du} {date} et je répondrai à votre message à mon retour.",
      '{Respuesta automática|Fuera de la oficina}: estoy de vacaciones hasta el {date}. Responderé a su correo a mi regreso.',
      '{Risposta automatica|Fuori sede}: sono assente fino al {date} e risponderò al mio rientro.',
      '{Abwesenheit|Out of Office}: Bis {date} bin ich {auf Dienstreise|im Homeoffice} und nur eingeschränkt erreichbar. In dringenden Fällen wenden Sie sich bitte an {user}@{domain}.',
      "{Absence|Réponse automatique} : en déplacement jusqu'au {date}, je consulterai ma messagerie de façon irrégulière. En cas d'urgence, contactez {user}@{domain}.",
      '{Respuesta automática|Aviso de ausencia}: estaré con acceso limitado al correo hasta el {date}. Para asuntos urgentes escriba a {user}@{domain}.',
      '{Automatisch antwoord|Afwezigheidsmelding}: ik ben tot en met {date} afwezig en lees mijn e-mail na terugkomst.',
      '{Resposta automática|Ausência temporária}: estarei fora do escritório até {date} e responderei quando regressar.',
      '{Autoodpowiedź|Odpowiedź automatyczna}: jestem na urlopie do {date}. Odpowiem po powrocie.',
      '{Automatiskt svar|Frånvaromeddelande}: jag är ledig till och med {date} och läser min e-post när jag är tillbaka.',
      '{Автоответ|Автоматический ответ}: я в отпуске до {date} и отвечу на ваше письмо после возвращения.',
      '{自動応答|不在通知}: {date}まで休暇をいただいております。戻り次第ご返信いたします。',
      '{自动回复|休假通知}：我将于{date}前休假，回来后会尽快回复您的邮件。',
    ],
    acknowledgement: [
      'We have received your {request|enquiry|message} and {assigned it the reference|opened case} {ref}. {A member of our team will contact you shortly.|We aim to respond within two working days.}',
      '{Thank you for writing to us|Thanks for reaching out}. This is an automated confirmation that your message {was received|reached us}; {please do not reply to this email|no reply is needed}.',
      'Your order {n} has been received and is being processed.',
      'Ihre Anfrage ist bei uns eingegangen. Wir melden uns {schnellstmöglich|innerhalb von zwei Werktagen} bei Ihnen.',
    ],
    'read-receipt': [
      '{Read|Lu|Gelesen}: {Quarterly report|Invoice {n}|Meeting notes}',
      'Your message To: {rcpt} Subject: {Invoice {n}|Project update} Sent: {date} was read on {date}.',
      'Disposition: {manual-action/MDN-sent-manually|automatic-action/MDN-sent-automatically}; displayed',
      'Diese Nachricht wurde am {date} {gelesen|angezeigt}.',
    ],
    'list-notice': [
      '{Welcome to the|You are now subscribed to the} {announce|users|members} {mailing list|list} at {domain}.',
      'To {confirm|complete} your subscription to {user}-list, reply to this message {keeping the subject unchanged|without changing the subject}.',
      'You have been {unsubscribed|removed} from the {newsletter|mailing list} {user}@{domain}.',
      'Your message to {user}-list is awaiting moderator approval{| because you are not a member}.',
    ],
  }),
];
