/**
 * Exim's main log: delivery lines `=>` (delivered), `==` (deferred) and `**` (failed), as the Exim specification's
 * chapter "Log files" describes them:
 *
 * 2025-03-10 12:00:01 1tXyZa-000Abc-12 => a@example.com R=dnslookup T=remote_smtp H=mx.example.com [192.0.2.7]
 * I=[198.51.100.4] C="250 OK"
 * 2025-03-10 12:00:01 1tXyZa-000Abc-12 == a@example.com R=dnslookup T=remote_smtp defer (-44) H=mx.example.com
 * [192.0.2.7]: SMTP error from remote mail server after RCPT TO:<a@example.com>: 451 4.7.1 Try later
 *
 * The local IP is the `I=` field (log_selector `+outgoing_interface`), the reply of a delivery the `C=` field
 * (`+smtp_confirmation`); a timestamp with a zone (`log_timezone`) is read with it, else as UTC. Only deliveries to a
 * remote host (`H=`, or "host NAME [IP]:" in the error) are attempts against a remote MX.
 */
import { domainOf, type LogFormat, type Outcome } from '../attempt.ts';
import { stampTime } from './clock.ts';

// timestamp (optional ms), optional zone, optional [pid], message id, flag, address, the rest
const LINE_RE =
  /^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{3})?)(?: ([-+]\d{4}))?(?: \[\d+\])? \S+ (=>|==|\*\*) (\S+)(.*)$/;
const HOST_RE = / H=(\S+) \[([^\]]+)\]/;
/** Older Exims, and failures before H= is known, name the host inside the message: "…: host mx.example.com [192.0.2.7]: 550 …" */
const MESSAGE_HOST_RE = /: host (\S+) \[([^\]]+)\]: /;
const INTERFACE_RE = / I=\[([^\]]+)\]/;
const CONFIRM_RE = / C="((?:[^"\\]|\\.)*)"/;
const SMTP_ERROR_RE = /SMTP error from remote mail server after [^:]*(?::<[^>]*>)?: (.*)$/;
const OUTCOMES: Record<string, Outcome> = { '=>': 'sent', '==': 'deferred', '**': 'bounced' };

/** The remote server's words on a failure, or Exim's own error text after the host */
function failureText(rest: string): string {
  const smtp = SMTP_ERROR_RE.exec(rest);
  if (smtp) return smtp[1]!.replace(/^host \S+ \[[^\]]+\]: /, '');
  const host = rest.indexOf(']: ');
  if (host >= 0) return rest.slice(host + 3);
  const colon = rest.indexOf(': ');
  return colon >= 0 ? rest.slice(colon + 2) : rest.trim();
}

export const exim: LogFormat = {
  name: 'exim',
  sniff: (line) =>
    /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{3})?(?: [-+]\d{4})?(?: \[\d+\])? \S+ (<=|=>|->|==|\*\*|Completed)/.test(
      line,
    ),
  reader() {
    const timeOf = stampTime();
    return (line) => {
      const m = LINE_RE.exec(line);
      if (!m) return undefined;
      const rest = m[5]!;
      const host = HOST_RE.exec(rest) ?? MESSAGE_HOST_RE.exec(rest);
      if (!host) return undefined;
      const time = timeOf(m[2] ? `${m[1]}${m[2]}` : m[1]!);
      if (Number.isNaN(time)) return undefined;
      const outcome = OUTCOMES[m[3]!]!;
      const confirmed = outcome === 'sent' ? CONFIRM_RE.exec(rest) : null;
      return {
        time,
        localIp: INTERFACE_RE.exec(rest)?.[1] ?? '',
        recipientDomain: domainOf(m[4]!),
        remoteMx: host[1]!.toLowerCase(),
        remoteIp: host[2]!,
        outcome,
        reply: outcome === 'sent' ? (confirmed ? confirmed[1]!.replace(/\\(.)/g, '$1') : '') : failureText(rest),
      };
    };
  },
};
