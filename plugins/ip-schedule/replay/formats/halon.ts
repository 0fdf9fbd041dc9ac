/**
 * Halon delivery logs in JSON: Halon writes no fixed delivery log of its own; its post-delivery hook hands the script
 * `$arguments` and `$message` (docs.halon.io/hsl/postdelivery.html), and the usual delivery log is those two logged as
 * one JSON object a line. A record is read as `{ "time"|"ts"|"@timestamp", "arguments": {...}, "message": {...} }`,
 * or with the hook's keys at the top level:
 *
 *   arguments.action      "QUEUE" (deferred), "BOUNCE" or "DELETE" (failed); missing on a successful delivery
 *   arguments.attempt     result {code, enhanced [a,b,c], reason [lines]} or error {temporary, reason|message},
 *                         connection {localip, remoteip, remotemx}
 *   arguments.grouping    the matched grouping (kept as the job's grouping is not: Capstan names the provider)
 *   message.recipient, message.recipientaddress.domain, message.jobid, message.tenantid
 *
 * Records without an attempt (a message deleted from the queue) are skipped. A record without a time of its own takes
 * `message.ts` (the transaction's time) only if nothing else is there.
 */
import { domainOf, type LogFormat, type Outcome } from '../attempt.ts';

interface HookResult {
  code?: number;
  enhanced?: number[];
  reason?: string[] | string;
}

function replyText(attempt: { result?: HookResult; error?: { reason?: string; message?: string } }): string {
  const result = attempt.result;
  if (result) {
    const reason = Array.isArray(result.reason) ? result.reason.join(' ') : (result.reason ?? '');
    return `${result.code ?? ''} ${Array.isArray(result.enhanced) ? `${result.enhanced.join('.')} ` : ''}${reason}`.trim();
  }
  return attempt.error?.reason ?? attempt.error?.message ?? '';
}

function timeOf(value: unknown): number {
  if (typeof value === 'number') return value < 1e11 ? value * 1000 : value;
  if (typeof value === 'string') return /^\d+(\.\d+)?$/.test(value) ? Number(value) * 1000 : Date.parse(value);
  return NaN;
}

function outcomeOf(
  action: unknown,
  attempt: { result?: HookResult; error?: { temporary?: boolean } },
): Outcome | undefined {
  if (action === 'QUEUE') return 'deferred';
  if (action === 'BOUNCE' || action === 'DELETE') return 'bounced';
  if (action === undefined) {
    const code = attempt.result?.code;
    if (typeof code === 'number') return code < 400 ? 'sent' : code < 500 ? 'deferred' : 'bounced';
    if (attempt.error) return attempt.error.temporary === false ? 'bounced' : 'deferred';
  }
  return undefined;
}

export const halon: LogFormat = {
  name: 'halon',
  sniff: (line) =>
    line.startsWith('{') && line.includes('"attempt"') && /"(arguments|connection|recipient)"/.test(line),
  reader() {
    return (line) => {
      if (!line.includes('"attempt"')) return undefined;
      let record;
      try {
        record = JSON.parse(line);
      } catch {
        return undefined;
      }
      const args = record?.arguments ?? record;
      const message = record?.message ?? record;
      const attempt = args?.attempt;
      if (typeof attempt !== 'object' || attempt === null) return undefined;
      const outcome = outcomeOf(args.action, attempt);
      if (!outcome) return undefined;
      const time = timeOf(record.time ?? record.ts ?? record['@timestamp'] ?? message?.ts);
      if (Number.isNaN(time)) return undefined;
      const recipient = typeof message?.recipient === 'string' ? message.recipient : '';
      const connection = attempt.connection ?? {};
      return {
        time,
        localIp: typeof connection.localip === 'string' ? connection.localip : '',
        recipientDomain: (message?.recipientaddress?.domain ?? domainOf(recipient)).toLowerCase(),
        remoteMx: typeof connection.remotemx === 'string' ? connection.remotemx.replace(/\.$/, '').toLowerCase() : '',
        remoteIp: typeof connection.remoteip === 'string' ? connection.remoteip : '',
        outcome,
        reply: replyText(attempt),
        ...(typeof message?.tenantid === 'string' ? { tenantId: message.tenantid } : {}),
        ...(typeof message?.jobid === 'string' ? { jobId: message.jobid } : {}),
      };
    };
  },
};
