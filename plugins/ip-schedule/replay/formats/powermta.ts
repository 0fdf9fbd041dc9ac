/**
 * PowerMTA accounting files (CSV), as its user's guide documents the accounting record fields: a header line names the
 * fields (`type,timeLogged,timeQueued,orig,rcpt,orcpt,dsnAction,dsnStatus,dsnDiag,dsnMta,bounceCat,srcType,srcMta,
 * dlvType,dlvSourceIp,dlvDestinationIp,…,vmta,jobId,…`), in whatever order and subset the `<acct-file>` configures.
 * Record types `d` (delivered), `b` (bounced), `t`/`tq` (transient failure) are attempts; the others (receptions,
 * remote bounces, feedback loops) are skipped. `dsnDiag` ("smtp;550 5.1.1 …") holds the reply, `dsnMta`
 * ("mx.example.com (192.0.2.7)") the remote MX, `timeLogged` ("2025-03-10 12:00:01-0000") the time.
 */
import { domainOf, type LogFormat, type Outcome } from '../attempt.ts';

const OUTCOMES: Record<string, Outcome> = { d: 'sent', b: 'bounced', t: 'deferred', tq: 'deferred' };

/** The fields of one CSV line (RFC 4180 quoting; a record never spans lines in an accounting file) */
export function csvFields(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        const quote = line.indexOf('"', i);
        if (quote < 0) {
          value += line.slice(i);
          i = line.length;
          break;
        }
        value += line.slice(i, quote);
        if (line[quote + 1] === '"') {
          value += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      fields.push(value);
      i++; // the comma
    } else {
      const comma = line.indexOf(',', i);
      const end = comma < 0 ? line.length : comma;
      fields.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return fields;
}

/** "2025-03-10 12:00:01-0000" (or "+0100", or without zone: UTC) */
function timeOf(value: string): number {
  const m = /^(\d{4}-\d\d-\d\d)[ T](\d\d:\d\d:\d\d)\s*(?:([-+])(\d\d):?(\d\d))?/.exec(value);
  if (!m) return NaN;
  return Date.parse(`${m[1]}T${m[2]}${m[3] ? `${m[3]}${m[4]}:${m[5]}` : 'Z'}`);
}

export const powermta: LogFormat = {
  name: 'powermta',
  sniff: (line) => /^"?type"?,/.test(line) && line.includes('timeLogged') && line.includes('rcpt'),
  reader() {
    let columns: Record<string, number> | undefined;
    let lastStamp = '';
    let lastTime = NaN;
    return (line) => {
      if (line.startsWith('type,') || line.startsWith('"type",')) {
        columns = Object.fromEntries(csvFields(line).map((name, index) => [name, index]));
        return undefined;
      }
      if (!columns) return undefined;
      const comma = line.indexOf(',');
      const outcome = OUTCOMES[line.slice(0, comma).replace(/"/g, '')];
      if (!outcome) return undefined;
      const fields = csvFields(line);
      const get = (name: string) => {
        const index = columns![name];
        return index === undefined ? '' : (fields[index] ?? '');
      };
      const stamp = get('timeLogged');
      if (stamp !== lastStamp) {
        lastStamp = stamp;
        lastTime = timeOf(stamp);
      }
      if (Number.isNaN(lastTime)) return undefined;
      const mta = /^(\S+)(?: \(([^)]*)\))?/.exec(get('dsnMta'));
      const diag = get('dsnDiag');
      const semicolon = diag.indexOf(';');
      const jobId = get('jobId');
      return {
        time: lastTime,
        localIp: get('dlvSourceIp'),
        recipientDomain: domainOf(get('rcpt')),
        remoteMx: mta ? mta[1]!.replace(/\.$/, '').toLowerCase() : '',
        remoteIp: get('dlvDestinationIp') || (mta?.[2] ?? ''),
        outcome,
        reply: semicolon >= 0 && /^[a-z-]+$/i.test(diag.slice(0, semicolon)) ? diag.slice(semicolon + 1).trim() : diag,
        ...(jobId ? { jobId } : {}),
      };
    };
  },
};
