import { actionOf, bareAddress, unfold, untyped } from './reply.ts';
import type { ReportedRecipient } from './types.ts';

/** Longest field value read: a reply is classified on its first 4,096 characters, and no address or host is longer */
const MAX_FIELD = 8 * 1024;

/** Field groups of a delivery-status part: the per-message group, then one per recipient */
function groups(content: string): Map<string, string>[] {
  const out: Map<string, string>[] = [];
  let fields = new Map<string, string>();
  let last = '';
  for (const line of content.split(/\r?\n/)) {
    if (line.trim() === '') {
      if (fields.size > 0) out.push(fields);
      fields = new Map();
      last = '';
      continue;
    }
    if (/^[ \t]/.test(line) && last !== '') {
      const value = fields.get(last)!;
      if (value.length < MAX_FIELD) fields.set(last, `${value}\n${line.slice(0, MAX_FIELD)}`);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // Some MTAs omit the blank line between recipients: a second Final-Recipient starts a new group
    if (name === 'final-recipient' && fields.has('final-recipient')) {
      out.push(fields);
      fields = new Map();
    }
    if (!fields.has(name)) fields.set(name, line.slice(colon + 1, colon + 1 + MAX_FIELD));
    last = name;
  }
  if (fields.size > 0) out.push(fields);
  return out;
}

/**
 * An address with RFC 6533 unitext escapes (`\x{00F6}`) decoded, and RFC 3461 xtext (`+2B`) too when `xtext`: only
 * `Original-Recipient` carries the ORCPT as xtext, and a final address may hold a literal `+AB`
 */
function decodeAddress(value: string, xtext: boolean): string {
  const unitext = value.replace(/\\x\{([0-9a-f]{1,6})\}/gi, (all, hex: string) => {
    const code = parseInt(hex, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : all;
  });
  return xtext ? unitext.replace(/\+([0-9A-F]{2})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16))) : unitext;
}

/**
 * Recipients of an RFC 3464 `message/delivery-status` or RFC 6533 `message/global-delivery-status` part: the
 * address (`Final-Recipient`, else `Original-Recipient`), `Action`, `Status`, `Remote-MTA` and the reply
 * (`Diagnostic-Code` unfolded, its `smtp;` type dropped), in report order; at most `limit` plus a count of the rest.
 */
export function readDeliveryStatus(content: string, limit: number): { recipients: ReportedRecipient[]; omitted: number } {
  const recipients: ReportedRecipient[] = [];
  let omitted = 0;
  for (const fields of groups(content)) {
    const final = fields.get('final-recipient');
    const address = final ?? fields.get('original-recipient');
    if (address === undefined && !fields.has('action')) continue;
    if (recipients.length >= limit) {
      omitted += 1;
      continue;
    }
    const recipient: ReportedRecipient = { recipient: address === undefined ? '' : bareAddress(decodeAddress(untyped(unfold(address)), final === undefined)) };
    const status = /\d\.\d{1,3}\.\d{1,3}/.exec(fields.get('status') ?? '')?.[0];
    // A report without `Action` (it is required, yet some MTAs omit it) says it through the status class
    recipient.action = fields.get('action')?.trim().toLowerCase().split(/[\s(]/)[0] || actionOf(status, 'failed');
    if (status) recipient.status = status;
    const diagnostic = fields.get('diagnostic-code');
    const reply = diagnostic === undefined ? '' : untyped(unfold(diagnostic));
    if (reply !== '') recipient.reply = reply;
    const remote = fields.get('remote-mta');
    // Without the comment some MTAs add (`(2001:db8::1, the server for the domain ...)`) and the root's dot
    let host = remote === undefined ? '' : untyped(unfold(remote));
    const comment = host.indexOf(' (');
    if (comment > 0 && host.endsWith(')')) host = host.slice(0, comment);
    if (host.endsWith('.')) host = host.slice(0, -1);
    if (host !== '') recipient.remote_mta = host;
    recipients.push(recipient);
  }
  return { recipients, omitted };
}
