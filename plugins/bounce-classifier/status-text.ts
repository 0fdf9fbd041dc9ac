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

/** What follows a status in a reply with nothing else to read: links and ids (tokens with a `/` or a digit), `- gsmtp` */
const LINKS_AND_IDS = String.raw`(?:\s+(?=\S*[\d/])\S+)*(?:\s+-\s+gsmtp)?\s*`;
/**
 * The cheap test before the reply is cut: a text ending in a status, or in a status followed by links and ids only
 * (Gmail's last line, `550 5.1.1 https://support.google.com/mail/?p=NoSuchUser 41be03b00d2f7-...si12 - gsmtp`), with
 * Postfix's `(in reply to ...)` note aside
 */
const ENDS_BARE = new RegExp(
  String.raw`[245]\.\d{1,3}\.\d{1,3}${LINKS_AND_IDS}(?:\(in reply to [^()]{0,80}\)\s*)?$`,
  'i',
);
/** The cut reply's text after its status, when the test above matched at another status than the reply's */
const ONLY_LINKS_AND_IDS = new RegExp(String.raw`^${LINKS_AND_IDS}$`, 'i');
const URL = /\bhttps?:\/\/\S+/gi;
/** A help link's key written in CamelCase (`?p=NoSuchUser`, `/IPv6ReverseDNS`): its words name the cause */
const LINK_KEY = /[/=]([A-Z][A-Za-z0-9]*[a-z][A-Z][A-Za-z0-9]*)(?=[&#]|$)/;

/**
 * A reply that has nothing to read but its code is given its status's description first (`statusText`); any other
 * text stays as it is. That is a reply that is only a code (`550 5.1.1`, `host mx said: 5.1.1 (in reply to RCPT TO
 * command)`), or whose only other parts are links and ids, as where a log keeps the last line of Gmail's reply. A help
 * link's CamelCase key is the provider's own name for the cause, so its words follow the description (`no such user`).
 * A bare code weighs too little against the models' priors to decide alone: `550 5.1.1` was answered MESSAGE_CONTENT
 * at p 0.51, `5.1.1` TEMPORARY_ERROR, and Gmail's `550 5.1.1 <link> <id> - gsmtp` PROTOCOL_ERROR at p 0.53.
 */
export function withStatusText(message: string): string {
  if (message.length > 300 || !ENDS_BARE.test(message)) return message;
  const { code, status, text } = parseReply(message);
  if (status === '' || !ONLY_LINKS_AND_IDS.test(` ${text}`)) return message;
  const keys = (text.match(URL) ?? []).map((link) => keyWords(LINK_KEY.exec(link)?.[1] ?? ''));
  return [code, statusText(status), ...keys, text].filter((part) => part !== '').join(' ');
}

/**
 * `UnsolicitedIPError` -> `unsolicited ip`; `IPv6ReverseDNS` -> `ipv6 reverse dns`. A closing `Error` names no cause
 * (Gmail's `UnsolicitedMessageError` is spam), and the models read `error` as a protocol error.
 */
function keyWords(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z]{2})/g, '$1 $2')
    .toLowerCase()
    .replace(/ error$/, '');
}
