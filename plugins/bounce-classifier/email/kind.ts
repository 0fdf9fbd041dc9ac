import { noticeLines } from './reply.ts';
import type { Email } from './types.ts';

// Outlook and Exchange put their "Automatic reply:" in the sender's language, and often set no header besides
const VACATION_SUBJECT = new RegExp(
  `^(?:${[
    'auto(?:matic)?[ -]?(?:reply|response|antwort|réponse|respuesta|risposta)',
    'out of (?:the )?office',
    'vacation',
    'on vacation',
    'abwesenheit',
    'absence',
    'réponse automatique',
    'automatische antwort',
    'respuesta automática',
    'risposta automatica',
    'fuera de la oficina',
    'niet aanwezig',
    'automatisch antwoord',
    'automatiskt? svar',
    'automaattinen vastaus',
    'automatyczna odpowied[źz]',
    'resposta autom[áà]tica',
    'automatick[áa] odpov[ěe][ďd]',
    'automatikus v[áa]lasz',
    'r[ăa]spuns automat',
    'otomatik yan[ıi]t',
    'automatski odgovor',
    'samodejni odgovor',
    'automaatne vastus',
    'autom[āa]tisk[āa] atbilde',
    'automatinis atsakymas',
    'balasan otomatis',
    'trả lời tự động',
    'αυτόματη απάντηση',
    'автоматический ответ',
    'автоматична відповідь',
    'автоматичен отговор',
    'תשובה אוטומטית',
    'رد تلقائي',
    '自动答复',
    '自动回复',
    '自動回覆',
    '自動返信',
    '自動応答',
    '자동 회신',
    '不在',
  ].join('|')})`,
  'i',
);

/** Lotus Notes names the person first, and sets no header an automatic reply sets (`Jane Doe is out of the office.`) */
const AWAY_SUBJECT = /\bis out of (?:the )?office\b/i;

/** An RFC 5965 feedback report: `multipart/report; report-type=feedback-report` or a `message/feedback-report` part */
export function isFeedbackReport(email: Email): boolean {
  return email.reportType === 'feedback-report' || email.parts.some((p) => p.type === 'message/feedback-report');
}

/**
 * A DMARC failure report sent as text, without an RFC 5965 part (Exim's: `A message claiming to be from you has failed
 * the published DMARC policy for your domain`): feedback on the sender's own mail, no bounce and no automatic reply,
 * though it is marked `Auto-Submitted`
 */
export function isDmarcFailureText(email: Email): boolean {
  return /^DMARC (?:forensic|failure) report\b/i.test(email.subject.trim()) || DMARC_FAILED.test(email.text);
}

const DMARC_FAILED = /\bfailed the published DMARC\s+policy\b/i;

/**
 * A report of a kind that is about no delivery (RFC 8460's TLS reports, `report-type=tlsrpt`): the addresses it names
 * (its `Report-ID`, the policy's contact) are no recipients
 */
export function isOtherReport(email: Email): boolean {
  return email.reportType === 'tlsrpt';
}

/**
 * What a lure dressed as a bounce says and a bounce does not: that the reader's own incoming mail is held back (`You
 * have 3 pending messages`, `Messages sent to your inbox could not be delivered`), and a call to fetch it. A bounce
 * tells the sender that their message did not reach someone else, and asks for nothing to be clicked.
 */
const HELD_FOR_READER = new RegExp(
  String.raw`\byou have (?:more than |over )?\d+ (?:[a-z-]+ ){0,2}(?:e-?mails?|messages?)\b|` +
    String.raw`\b(?:delivered|sent) to your (?:inbox|mailbox)\b|` +
    String.raw`\b(?:incoming|pending|held|quarantined|undelivered)\s+(?:e-?mails?|messages?)\b`,
  'i',
);
const FETCH_IT = new RegExp(
  String.raw`\b(?:click|tap)\b[^.]{0,60}\b(?:review|retrieve|release|recover|restore|read|deliver|view|access)\b|` +
    String.raw`\b(?:retrieve|release|recover|restore|review|read|view|deliver)\s+` +
    String.raw`(?:(?:your|the|all|these|pending|held|incoming|blocked|quarantined|undelivered|undeliverable)\s+)*` +
    String.raw`(?:e-?mails?|messages?)\b`,
  'i',
);
const LINK = /\(?\bhttps?:\/\/\S+\)?/g;

/**
 * A phishing mail written to look like a bounce or a mail server's notice: its own text says mail for the reader is
 * held and asks them to fetch it. Only the notice's own lines are read: a bounce that returns a lure quotes it after
 * them. Asked only of emails without a status part naming recipients.
 */
export function isLureNotice(email: Email): boolean {
  const text = `${email.subject}\n${noticeLines(email.text).join('\n').replace(LINK, ' ')}`;
  return HELD_FOR_READER.test(text) && FETCH_IT.test(text);
}

/** An acknowledgement of receipt sent by a program (`Eingangsbestätigung`, `Accusé de réception`) */
const RECEIPT_SUBJECT = new RegExp(
  String.raw`\b(?:empfangsbest|eingangsbest|lesebest)|accus[eé] de r[eé]ception|acuse de recibo|` +
    String.raw`receipt (?:confirmation|acknowledg)|acknowledg(?:e)?ment of receipt|` +
    String.raw`we (?:have )?received your (?:e-?mail|message)|ticket (?:received|created)`,
  'i',
);

/**
 * The marks only vacation programs and receipt acknowledgements set (`X-Autoreply`, a vacation or receipt subject):
 * unlike `Auto-Submitted`, which bounces carry too, they tell an automatic reply from a bounce notice
 */
export function isVacationReply(email: Email): boolean {
  const precedence = email.header('precedence')?.trim().toLowerCase();
  return !!(
    email.header('x-autoreply') ||
    email.header('x-autorespond') ||
    precedence === 'auto_reply' ||
    VACATION_SUBJECT.test(email.subject.trim()) ||
    AWAY_SUBJECT.test(email.subject) ||
    RECEIPT_SUBJECT.test(email.subject)
  );
}

/** A reply's subject (`Re:`, German `AW:`, Nordic `SV:` / `VS:`, Dutch `Antw:`, Italian `R:` / `Rif:`) */
const REPLY_SUBJECT = /^\s*(?:re|aw|sv|vs|antw|r|rif)\s*:/i;

/**
 * An automatic reply: `Auto-Submitted: auto-replied` (RFC 3834), or `auto-generated` on a reply (its subject or
 * `In-Reply-To` says so: some responders mark their replies so), the headers vacation programs add, or a vacation
 * subject. `auto-generated` alone marks any automatic message (a calendar reminder, a forum digest), which answers
 * nobody. Asked only once the email was found not to be a bounce: bounces carry `Auto-Submitted: auto-replied` too.
 * Answers the format that recognised it, or undefined.
 */
export function autoReplyFormat(email: Email): 'rfc3834' | 'vacation' | undefined {
  const submitted = email.header('auto-submitted')?.trim().toLowerCase() ?? 'no';
  const reply = !!email.header('in-reply-to') || REPLY_SUBJECT.test(email.subject);
  if (submitted.startsWith('auto-replied') || (!submitted.startsWith('no') && reply)) return 'rfc3834';
  if (isVacationReply(email)) return 'vacation';
  return undefined;
}
