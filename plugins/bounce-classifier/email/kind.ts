import type { Email } from './types.ts';

const VACATION_SUBJECT =
  /^(?:auto(?:matic)?[ -]?(?:reply|response|antwort|réponse|respuesta|risposta)|out of (?:the )?office|vacation|on vacation|abwesenheit|absence|réponse automatique|automatische antwort|respuesta automática|risposta automatica|fuera de la oficina|niet aanwezig|不在|自動応答)/i;

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

/** An acknowledgement of receipt sent by a program (`Eingangsbestätigung`, `Accusé de réception`) */
const RECEIPT_SUBJECT =
  /\b(?:empfangsbest|eingangsbest|lesebest)|accus[eé] de r[eé]ception|acuse de recibo|receipt (?:confirmation|acknowledg)|acknowledg(?:e)?ment of receipt|we (?:have )?received your (?:e-?mail|message)|ticket (?:received|created)/i;

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
    RECEIPT_SUBJECT.test(email.subject)
  );
}

/**
 * An automatic reply: `Auto-Submitted` other than `no` (RFC 3834), the headers vacation programs add, or a vacation
 * subject. Asked only once the email was found not to be a bounce: bounces carry `Auto-Submitted: auto-replied` too.
 * Answers the format that recognised it, or undefined.
 */
export function autoReplyFormat(email: Email): 'rfc3834' | 'vacation' | undefined {
  const submitted = email.header('auto-submitted')?.trim().toLowerCase();
  if (submitted && !submitted.startsWith('no')) return 'rfc3834';
  if (isVacationReply(email)) return 'vacation';
  return undefined;
}
