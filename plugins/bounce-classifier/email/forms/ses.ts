import { statusIn, untyped } from '../reply.ts';
import type { BounceKind, ReportedRecipient } from '../types.ts';
import type { Email, Feedback, FeedbackRecipient } from '../types.ts';

const KINDS: Record<string, BounceKind> = { Bounce: 'failed', Complaint: 'feedback', Delivery: 'delivered' };

/** The notification object in a body: the JSON itself, or the `Message` string of an SNS envelope */
function notification(email: Email): Record<string, any> | undefined {
  const candidates = [email.text, ...email.parts.filter((p) => p.type === 'application/json').map((p) => p.content)];
  for (const candidate of candidates) {
    const start = candidate.indexOf('{');
    if (start < 0 || !/notificationType|"Type"\s*:\s*"Notification"/.test(candidate)) continue;
    try {
      let value = JSON.parse(candidate.slice(start, candidate.lastIndexOf('}') + 1));
      if (typeof value?.Message === 'string') value = JSON.parse(value.Message);
      if (typeof value?.notificationType === 'string' || typeof value?.eventType === 'string') return value;
    } catch {
      // Not JSON after all: the other forms read it
    }
  }
  return undefined;
}

/**
 * Amazon SES notifications delivered by email (the JSON alone or inside an SNS envelope): `Bounce` with
 * `bouncedRecipients` (failed; `Transient` bounces are failures SES stopped retrying), `Complaint` (feedback) and
 * `Delivery` (delivered, with the receiving server's `smtpResponse`).
 */
export function readSes(
  email: Email,
  limit: number,
): { kind: BounceKind; recipients: ReportedRecipient[]; omitted: number; feedback?: Feedback } | undefined {
  const note = notification(email);
  if (!note) return undefined;
  const type = note.notificationType ?? note.eventType;
  const kind = KINDS[type];
  if (!kind) return undefined;
  let listed: ReportedRecipient[] = [];
  if (kind === 'failed') {
    // `reportingMTA` is SES's own server; the receiving one is only known by its address
    const mta = typeof note.bounce?.remoteMtaIp === 'string' ? note.bounce.remoteMtaIp : undefined;
    listed = (Array.isArray(note.bounce?.bouncedRecipients) ? note.bounce.bouncedRecipients : []).map((r: any) => {
      const reply = typeof r?.diagnosticCode === 'string' ? untyped(r.diagnosticCode) : undefined;
      const status = typeof r?.status === 'string' ? r.status : reply && statusIn(reply);
      const sources = {
        recipient: 'ses:bouncedRecipients.emailAddress',
        action: typeof r?.action === 'string' ? 'ses:bouncedRecipients.action' : 'ses:bounceType',
        ...(status && { status: typeof r?.status === 'string' ? 'ses:bouncedRecipients.status' : 'inferred' }),
        ...(reply && { reply: 'ses:bouncedRecipients.diagnosticCode' }),
        ...(mta && { remote_mta: 'ses:bounce.remoteMtaIp' }),
      };
      return {
        recipient: String(r?.emailAddress ?? ''),
        action: typeof r?.action === 'string' ? r.action : 'failed',
        ...(status && { status }),
        ...(reply && { reply }),
        ...(mta && { remote_mta: mta }),
        sources,
      };
    });
  } else if (kind === 'delivered') {
    const reply = typeof note.delivery?.smtpResponse === 'string' ? note.delivery.smtpResponse : undefined;
    const mta = typeof note.delivery?.remoteMtaIp === 'string' ? note.delivery.remoteMtaIp : undefined;
    listed = (Array.isArray(note.delivery?.recipients) ? note.delivery.recipients : []).map((r: unknown) => ({
      recipient: String(r),
      action: 'delivered',
      ...(reply && { reply }),
      ...(mta && { remote_mta: mta }),
      sources: {
        recipient: 'ses:delivery.recipients',
        action: 'ses:notificationType',
        ...(reply && { reply: 'ses:delivery.smtpResponse' }),
        ...(mta && { remote_mta: 'ses:delivery.remoteMtaIp' }),
      },
    }));
  }
  const answer = { kind, recipients: listed.slice(0, limit), omitted: Math.max(0, listed.length - limit) };
  if (kind !== 'feedback') return answer;
  // A complaint names its complainants and, when the receiver said, the ARF feedback type
  const complained = (Array.isArray(note.complaint?.complainedRecipients) ? note.complaint.complainedRecipients : [])
    .map((r: any) => String(r?.emailAddress ?? ''))
    .filter((a: string) => a !== '');
  const feedbackType =
    typeof note.complaint?.complaintFeedbackType === 'string'
      ? note.complaint.complaintFeedbackType.toLowerCase()
      : 'abuse';
  const typeSource =
    typeof note.complaint?.complaintFeedbackType === 'string' ? 'ses:complaint.complaintFeedbackType' : 'inferred';
  // What the notification says of the complained-about message holds for each complainant
  const extra: Partial<FeedbackRecipient> = {};
  const from: FeedbackRecipient['sources'] = { recipient: 'ses:complaint.complainedRecipients', type: typeSource };
  for (const [field, value, path] of [
    ['original_mail_from', note.mail?.source, 'ses:mail.source'],
    ['source_ip', note.mail?.sourceIp, 'ses:mail.sourceIp'],
    ['arrival_date', note.complaint?.arrivalDate, 'ses:complaint.arrivalDate'],
  ] as const) {
    if (typeof value !== 'string' || value === '') continue;
    extra[field] = value;
    from[field] = path;
  }
  const feedback: Feedback = {
    type: feedbackType,
    recipients: complained,
    sources: {
      type: typeSource,
      ...(complained.length > 0 && { recipients: 'ses:complaint.complainedRecipients' }),
    },
    ...(complained.length > 0 && {
      reported: complained.map((recipient: string) => ({ recipient, type: feedbackType, ...extra, sources: from })),
    }),
  };
  return { ...answer, feedback };
}
