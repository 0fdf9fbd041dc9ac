/**
 * PowerMTA accounting files (CSV), as its user's guide documents the accounting record fields: a header line names the
 * fields (`type,timeLogged,timeQueued,orig,rcpt,orcpt,dsnAction,dsnStatus,dsnDiag,dsnMta,bounceCat,srcType,srcMta,
 * dlvType,dlvSourceIp,dlvDestinationIp,…,vmta,jobId,…`), in whatever order and subset the `<acct-file>` configures.
 * Record types `d` (delivered), `b` (bounced), `t`/`tq` (transient failure) are attempts; the others (receptions,
 * remote bounces, feedback loops) are skipped. `dsnDiag` ("smtp;550 5.1.1 …") holds the reply, `dsnMta`
 * ("mx.example.com (192.0.2.7)") the remote MX, `timeLogged` ("2025-03-10 12:00:01-0000") the time.
 */
import { domainOf, type LogFormat, type Outcome } from '../attempt.ts';
import { stampTime } from './clock.ts';

const OUTCOMES: Record<string, Outcome> = { d: 'sent', b: 'bounced', t: 'deferred', tq: 'deferred' };
/** The fields replay reads */
const FIELDS = ['timeLogged', 'rcpt', 'dsnDiag', 'dsnMta', 'dlvSourceIp', 'dlvDestinationIp', 'jobId'] as const;

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

export const powermta: LogFormat = {
  name: 'powermta',
  sniff: (line) => /^"?type"?,/.test(line) && line.includes('timeLogged') && line.includes('rcpt'),
  reader() {
    // Each field's column, from the header; -1 when the file's records do not carry it
    let columns: Record<(typeof FIELDS)[number], number> | undefined;
    const timeOf = stampTime();
    return (line) => {
      if (line.startsWith('type,') || line.startsWith('"type",')) {
        const names = csvFields(line);
        columns = Object.fromEntries(FIELDS.map((name) => [name, names.indexOf(name)])) as typeof columns;
        return undefined;
      }
      if (!columns) return undefined;
      const comma = line.indexOf(',');
      const outcome = OUTCOMES[line.slice(0, comma).replace(/"/g, '')];
      if (!outcome) return undefined;
      const fields = csvFields(line);
      const time = timeOf(fields[columns.timeLogged] ?? '');
      if (Number.isNaN(time)) return undefined;
      const mta = /^(\S+)(?: \(([^)]*)\))?/.exec(fields[columns.dsnMta] ?? '');
      const diag = fields[columns.dsnDiag] ?? '';
      const semicolon = diag.indexOf(';');
      const jobId = fields[columns.jobId] ?? '';
      return {
        time,
        localIp: fields[columns.dlvSourceIp] ?? '',
        recipientDomain: domainOf(fields[columns.rcpt] ?? ''),
        remoteMx: mta ? mta[1]!.replace(/\.$/, '').toLowerCase() : '',
        remoteIp: fields[columns.dlvDestinationIp] || (mta?.[2] ?? ''),
        outcome,
        reply: semicolon >= 0 && /^[a-z-]+$/i.test(diag.slice(0, semicolon)) ? diag.slice(semicolon + 1).trim() : diag,
        ...(jobId ? { jobId } : {}),
      };
    };
  },
};
