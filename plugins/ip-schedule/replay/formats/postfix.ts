/**
 * Postfix delivery lines of the `smtp` and `lmtp` delivery agents, as syslog (or Postfix's own `maillog_file`)
 * writes them, with either timestamp style:
 *
 *   Mar 10 12:00:01 mx1 postfix/smtp[4242]: 3F2A81C0123: to=<a@example.com>, relay=mx.example.com[192.0.2.7]:25,
 * delay=1.2, delays=0.1/0/0.5/0.6, dsn=4.7.0, status=deferred (host mx.example.com[192.0.2.7] said: 421 ... (in reply
 * to RCPT TO command))
 *   2025-03-10T12:00:01.123456+00:00 mx1 postfix/smtp[4242]: ...
 *
 * Postfix does not log the source IP of a delivery: the local side is named `host/syslog-name` (e.g.
 * `mx1/postfix-out2`),
 * which tells instances bound to different IPs apart. Syslog timestamps carry no year or zone: UTC is assumed, and the
 * year is the one that puts the line no later than tomorrow.
 */
import { domainOf, type LogFormat } from '../attempt.ts';
import { stampTime } from './clock.ts';

const MONTHS: Record<string, number> = {
  Jan: 0,
  Feb: 1,
  Mar: 2,
  Apr: 3,
  May: 4,
  Jun: 5,
  Jul: 6,
  Aug: 7,
  Sep: 8,
  Oct: 9,
  Nov: 10,
  Dec: 11,
};
// timestamp, host, syslog name, agent, recipient, relay, status, text in parentheses
const LINE_RE = new RegExp(
  String.raw`^(\w{3} [ \d]\d \d\d:\d\d:\d\d|\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[-+]\d\d:?\d\d)?) ` +
    String.raw`(\S+) ([^\s[]+)\/(smtp|lmtp)\[\d+\]: [^:]+: to=<([^>]*)>,(?: orig_to=<[^>]*>,)? ` +
    String.raw`relay=([^,]*),.*? status=(sent|deferred|bounced) \((.*)\)$`,
);
const RELAY_RE = /^([^[\s]+)\[([^\]]*)\]/;
const SAID_RE = /^host \S+ said: (.*?)(?: \(in reply to [^)]*\))?$/;

/** Syslog's "Mar 10 12:00:01" in UTC, the year chosen so the time is not after tomorrow */
function syslogTime(stamp: string, now: number): number {
  const month = MONTHS[stamp.slice(0, 3)];
  if (month === undefined) return NaN;
  const at = (year: number) =>
    Date.UTC(
      year,
      month,
      Number(stamp.slice(4, 6)),
      Number(stamp.slice(7, 9)),
      Number(stamp.slice(10, 12)),
      Number(stamp.slice(13, 15)),
    );
  const year = new Date(now).getUTCFullYear();
  const time = at(year);
  return time > now + 86_400_000 ? at(year - 1) : time;
}

/** The reply as the remote server gave it, without Postfix's "host … said:" and "(in reply to …)" around it */
export function postfixReply(text: string): string {
  const said = SAID_RE.exec(text);
  return said ? said[1]! : text;
}

export const postfix: LogFormat = {
  name: 'postfix',
  sniff: (line) => / postfix[^\s/]*\/[\w-]+\[\d+\]: /.test(line),
  reader() {
    const now = Date.now();
    // Syslog lines of one second share a timestamp: parse each one once
    const timeOf = stampTime();
    let lastStamp = '';
    let lastTime = NaN;
    return (line) => {
      if (!line.includes(' status=')) return undefined;
      const m = LINE_RE.exec(line);
      if (!m) return undefined;
      const stamp = m[1]!;
      if (stamp !== lastStamp) {
        lastStamp = stamp;
        lastTime = stamp.length === 15 ? syslogTime(stamp, now) : timeOf(stamp);
      }
      if (Number.isNaN(lastTime)) return undefined;
      const relay = RELAY_RE.exec(m[6]!);
      return {
        time: lastTime,
        localIp: `${m[2]}/${m[3]}`,
        recipientDomain: domainOf(m[5]!),
        remoteMx: relay ? relay[1]!.toLowerCase() : '',
        remoteIp: relay ? relay[2]! : '',
        outcome: m[7] as 'sent' | 'deferred' | 'bounced',
        reply: postfixReply(m[8]!),
      };
    };
  },
};
