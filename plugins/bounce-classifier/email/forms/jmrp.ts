import type { Email, Feedback } from '../types.ts';
import { addresses, reportedHeader } from './arf.ts';

/** The address Microsoft's complaints come from: its Junk Mail Reporting Program (JMRP) sends no RFC 5965 report */
const JMRP_SENDER = 'staff@hotmail.com';
/** The header naming the complainant, on the complaint or on the reported message */
const ORIGINAL_RECIPIENT = 'x-hmxmroriginalrecipient';
/** `complaint about message from 192.0.2.1`: the reported message's source IP */
const SOURCE_IP = /\bcomplaint about message from \[?([0-9a-f.:]{3,45}?)\]?(?:\s|$)/i;

/**
 * A complaint of Microsoft's JMRP (Outlook.com, Hotmail): a message from `staff@hotmail.com` whose subject says
 * complaint, with the reported message attached and no `message/feedback-report` part
 */
export function isJmrpComplaint(email: Email): boolean {
  return email.from === JMRP_SENDER && /\bcomplaint\b/i.test(email.subject) && reportedHeader(email).size > 0;
}

/**
 * What a JMRP complaint says, as `readArf` reads an RFC 5965 report: a user marked the message as junk (`abuse`), the
 * complainant from `X-HmXmrOriginalRecipient` (the complaint's, else the reported message's), else the reported
 * message's `To`; the source IP from the subject. Microsoft may withhold the address: then no recipient.
 */
export function readJmrp(email: Email): Feedback {
  const type = 'abuse';
  const reported = reportedHeader(email);
  const sources: Feedback['sources'] = { type: 'inferred' };
  let recipients = addresses(email.headers(ORIGINAL_RECIPIENT));
  if (recipients.length > 0) sources.recipients = 'header:X-HmXmrOriginalRecipient';
  else {
    recipients = addresses(reported.get(ORIGINAL_RECIPIENT) ?? []);
    if (recipients.length > 0) sources.recipients = 'reported-message:X-HmXmrOriginalRecipient';
    else {
      recipients = addresses(reported.get('to') ?? []);
      if (recipients.length > 0) sources.recipients = 'reported-message:To';
    }
  }
  const unique = [...new Set(recipients)];
  const ip = SOURCE_IP.exec(email.subject)?.[1];
  const from = { recipient: sources.recipients ?? '', type: sources.type, ...(ip && { source_ip: 'header:Subject' }) };
  const reports = unique.map((recipient) => ({ recipient, type, ...(ip && { source_ip: ip }), sources: from }));
  return { type, recipients: unique, sources, ...(reports.length > 0 && { reported: reports }) };
}
