import { parseReply } from '../../lib/smtp-reply.ts';
import { ENHANCED_STATUS_TABLE, type EnhancedStatusDetail } from '../../generated/data/bounce-classifier.ts';

/**
 * A status with the description its standard gives it (`5.1.1 Bad destination mailbox address`), as MTAs print it when
 * they have no text of their own and as the models were trained on it. A code the table does not describe (`5.0.0`)
 * stays bare.
 */
export function statusText(status: string): string {
  const detail = status.slice(status.indexOf('.') + 1) as EnhancedStatusDetail;
  const row = Object.hasOwn(ENHANCED_STATUS_TABLE, detail) ? ENHANCED_STATUS_TABLE[detail] : undefined;
  return row ? `${status} ${row.description}` : status;
}

/** A text ending in a status, Postfix's `(in reply to ...)` note aside: the cheap test before the reply is cut */
const ENDS_IN_STATUS = /[245]\.\d{1,3}\.\d{1,3}\s*(?:\(in reply to [^()]{0,80}\)\s*)?$/i;

/**
 * A reply that is only a code (`550 5.1.1`, `host mx said: 5.1.1 (in reply to RCPT TO command)`) with its status's
 * description added (`statusText`); any other text as it is. A bare code weighs too little against the models' priors
 * to decide alone: `550 5.1.1` was answered MESSAGE_CONTENT at p 0.51, `5.1.1` TEMPORARY_ERROR.
 */
export function withStatusText(message: string): string {
  if (message.length > 300 || !ENDS_IN_STATUS.test(message)) return message;
  const { code, status, text } = parseReply(message);
  if (status === '' || text !== '') return message;
  return code === '' ? statusText(status) : `${code} ${statusText(status)}`;
}
