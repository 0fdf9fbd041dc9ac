/**
 * KumoMTA's JSON log records, one a line, as its reference documents them (docs.kumomta.com/reference/log_record/):
 * `Delivery` (sent), `TransientFailure` (deferred) and `Bounce` (failed) records of a delivery attempt, with
 * `recipient`, `site`, `response` {code, enhanced_code, content}, `peer_address` {name, addr}, `egress_source`,
 * `source_address` and a `timestamp` (epoch seconds, or an RFC 3339 string). Other record types (Reception, Expiration,
 * AdminBounce, OOB, Feedback, …) are not attempts against a remote MX and are skipped.
 */
import { domainOf, type LogFormat, type Outcome } from '../attempt.ts';

const OUTCOMES: Record<string, Outcome> = { Delivery: 'sent', TransientFailure: 'deferred', Bounce: 'bounced' };

interface Response {
  code?: number;
  enhanced_code?: { class: number; subject: number; detail: number } | null;
  content?: string;
}

/** The reply as the server sent it: code, enhanced code and text */
function replyText(response: Response | undefined): string {
  if (!response) return '';
  const enhanced = response.enhanced_code
    ? `${response.enhanced_code.class}.${response.enhanced_code.subject}.${response.enhanced_code.detail} `
    : '';
  return `${response.code ?? ''} ${enhanced}${response.content ?? ''}`.trim();
}

function timeOf(value: unknown): number {
  if (typeof value === 'number') return value < 1e11 ? value * 1000 : value;
  if (typeof value === 'string') return Date.parse(value);
  return NaN;
}

/** The IP of "192.0.2.1:1234" or "[2001:db8::1]:1234" */
function ipOf(address: unknown): string {
  if (typeof address !== 'string') return '';
  const bracketed = /^\[([^\]]+)\]/.exec(address);
  if (bracketed) return bracketed[1]!;
  const colon = address.lastIndexOf(':');
  return colon > 0 && address.indexOf(':') === colon ? address.slice(0, colon) : address;
}

export const kumomta: LogFormat = {
  name: 'kumomta',
  sniff: (line) =>
    line.startsWith('{') &&
    /"type"\s*:\s*"(Reception|Delivery|TransientFailure|Bounce|Expiration|AdminBounce|OOB|Feedback|Rejection)"/.test(
      line,
    ),
  reader() {
    return (line) => {
      // Cheap test before parsing: most lines of a busy log are receptions
      if (!line.includes('"Delivery"') && !line.includes('"TransientFailure"') && !line.includes('"Bounce"'))
        return undefined;
      let record;
      try {
        record = JSON.parse(line);
      } catch {
        return undefined;
      }
      const outcome = OUTCOMES[record?.type];
      if (!outcome || typeof record.recipient !== 'string') return undefined;
      const time = timeOf(record.timestamp);
      if (Number.isNaN(time)) return undefined;
      const peer = record.peer_address ?? {};
      return {
        time,
        localIp:
          ipOf(record.source_address?.address) ||
          (typeof record.egress_source === 'string' ? record.egress_source : ''),
        recipientDomain: domainOf(record.recipient),
        remoteMx: typeof peer.name === 'string' ? peer.name.replace(/\.$/, '').toLowerCase() : '',
        remoteIp: typeof peer.addr === 'string' ? ipOf(peer.addr) : '',
        outcome,
        reply: replyText(record.response),
        ...(typeof record.tenant === 'string' ? { tenantId: record.tenant } : {}),
        ...(typeof record.campaign === 'string' ? { jobId: record.campaign } : {}),
      };
    };
  },
};
