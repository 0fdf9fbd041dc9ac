/**
 * A seeded synthetic week of delivery logs, written from the formats' grammar (not copied from any log): steady
 * traffic from two sending IPs to a handful of recipient domains, with the failures a real week has (unknown users,
 * full mailboxes, greylisting: classes no backoff policy acts on), and one known throttling episode: `gmail.com`
 * deferring every attempt from the first IP with Gmail's published rate-limit reply (4.7.28), one every
 * `episode.everyMs`, for `episode.durationMs`. Tests replay it and check the policies against ones they compute
 * from `episode` themselves.
 *
 * Run: `tsx scripts/replay/synth-week.ts [--seed N] [--per-hour N] [--format postfix|exim|kumomta|halon|powermta]
 * [--noise N] [--unique] [--iso] > week.log`
 *   --unique: every failure reply made distinct; --iso: Postfix lines with RFC 3339 timestamps (syslog's carry no year)
 * --noise N: that many syslog lines of other Postfix processes (smtpd, cleanup, qmgr) per delivery line, as in a real
 * maillog
 */
import { parseArgs } from 'node:util';
import { Rng } from '../corpus/random.ts';

export const WEEK_START = Date.parse('2025-03-10T00:00:00Z');
const WEEK_MS = 7 * 86_400_000;

const IPS = ['198.51.100.10', '198.51.100.11'] as const;
/** Where the two sending IPs appear in each format's lines */
export const SENDERS = {
  postfix: ['mx1/postfix-out1', 'mx1/postfix-out2'],
  exim: IPS,
  kumomta: IPS,
  halon: IPS,
  powermta: IPS,
} as const;
export type SynthFormat = keyof typeof SENDERS;

export interface SynthOptions {
  seed: number;
  /** Attempts per hour besides the episode */
  perHour: number;
  format: SynthFormat;
  /** Share of the steady traffic's attempts that fail (default 0.1) */
  failureShare?: number;
  /** Other processes' lines per delivery line (Postfix only) */
  noise?: number;
  /** Postfix: RFC 3339 timestamps (rsyslog's file format) instead of syslog's yearless ones */
  iso?: boolean;
  /** Each failure reply made unique (a token in it), as replies that defeat every cache */
  uniqueReplies?: boolean;
}

/** The throttling episode: every attempt from the first sender to gmail.com deferred */
export const episode = {
  provider: 'gmail.com',
  start: WEEK_START + 86_400_000 + 14 * 3_600_000,
  durationMs: 20 * 60_000,
  everyMs: 3_000,
  reply:
    '421-4.7.28 [198.51.100.10      15] Our system has detected an unusual rate of unsolicited mail ' +
    'originating from your IP address. To protect our users from spam, mail sent from your IP address has ' +
    'been temporarily rate limited. Please visit https://support.google.com/mail/?p=UnsolicitedRateLimitError ' +
    'to review our Bulk Email Senders Guidelines.',
};

const DOMAINS = ['gmail.com', 'yahoo.com', 'outlook.com', 'example.org', 'gmx.de', 'orange.fr'];
const MX: Record<string, [string, string]> = {
  'gmail.com': ['gmail-smtp-in.l.google.com', '142.250.102.27'],
  'yahoo.com': ['mta7.am0.yahoodns.net', '67.195.204.72'],
  'outlook.com': ['outlook-com.olc.protection.outlook.com', '52.101.68.18'],
  'example.org': ['mx.example.org', '192.0.2.25'],
  'gmx.de': ['mx00.emig.gmx.net', '212.227.15.9'],
  'orange.fr': ['smtp-in.orange.fr', '193.252.22.84'],
};
/** Failures no backoff policy acts on (recipient errors, full mailboxes, greylisting), with their dsn and status */
const FAILURES: Array<[string, string, 'deferred' | 'bounced']> = [
  ['5.1.1', '550 5.1.1 <{rcpt}>: Recipient address rejected: User unknown in virtual mailbox table', 'bounced'],
  ['4.2.2', '452 4.2.2 Mailbox full, try again later', 'deferred'],
  ['4.7.1', '451 4.7.1 Greylisting in effect, please come back later', 'deferred'],
];
const HEX = '0123456789ABCDEF';

interface Line {
  time: number;
  sender: number;
  domain: string;
  local: string;
  status: 'sent' | 'deferred' | 'bounced';
  dsn: string;
  reply: string;
}

const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function syslogStamp(time: number): string {
  const d = new Date(time);
  return `${MONTHS[d.getUTCMonth()]} ${String(d.getUTCDate()).padStart(2, ' ')} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

function postfixLine(rng: Rng, line: Line, noise: number, iso: boolean): string[] {
  const queueId = Array.from({ length: 10 }, () => rng.pick([...HEX])).join('');
  const [mx, ip] = MX[line.domain]!;
  const stamp = `${iso ? new Date(line.time).toISOString() : syslogStamp(line.time)} mx1 ${SENDERS.postfix[line.sender]!.split('/')[1]}`;
  const rcpt = `${line.local}@${line.domain}`;
  const text =
    line.status === 'sent'
      ? `250 2.0.0 OK ${queueId.toLowerCase()} - queued`
      : `host ${mx}[${ip}] said: ${line.reply} (in reply to RCPT TO command)`;
  const other = ['smtpd', 'cleanup', 'qmgr'];
  const out = Array.from(
    { length: noise },
    (_, k) =>
      `${stamp}/${other[k % 3]}[${rng.int(1000, 65000)}]: ${queueId}: ` +
      (k % 3 === 1
        ? `message-id=<${queueId}@mx1.example.net>`
        : `from=<news@example.net>, size=${rng.int(2000, 90000)}, nrcpt=1 (queue active)`),
  );
  out.push(
    `${stamp}/smtp[${rng.int(1000, 65000)}]: ${queueId}: to=<${rcpt}>, ` +
      `relay=${mx}[${ip}]:25, delay=${rng.int(0, 9)}.${rng.int(0, 9)}, ` +
      `delays=0.1/0/0.3/0.${rng.int(1, 9)}, dsn=${line.dsn}, status=${line.status} (${text})`,
  );
  return out;
}

function eximLine(rng: Rng, line: Line): string {
  const d = new Date(line.time);
  const stamp = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const id = `1t${Array.from({ length: 4 }, () => rng.pick([...HEX])).join('')}-000${rng.int(100, 999)}-${rng.int(10, 99)}`;
  const [mx, ip] = MX[line.domain]!;
  const rcpt = `${line.local}@${line.domain}`;
  const where = `R=dnslookup T=remote_smtp H=${mx} [${ip}] I=[${SENDERS.exim[line.sender]}]`;
  if (line.status === 'sent')
    return `${stamp} ${id} => ${rcpt} ${where} X=TLS1.3:TLS_AES_256_GCM_SHA384:256 CV=yes C="250 2.0.0 OK ${id}"`;
  const flag = line.status === 'deferred' ? `== ${rcpt} ${where} defer (-44)` : `** ${rcpt} ${where}`;
  return `${stamp} ${id} ${flag}: SMTP error from remote mail server after RCPT TO:<${rcpt}>: ${line.reply}`;
}

const code = (reply: string) => Number(reply.slice(0, 3));
const enhanced = (dsn: string) => dsn.split('.').map(Number) as [number, number, number];

function kumoLine(line: Line): string {
  const [mx, ip] = MX[line.domain]!;
  const type = { sent: 'Delivery', deferred: 'TransientFailure', bounced: 'Bounce' }[line.status];
  const reply = line.status === 'sent' ? '250 2.0.0 OK queued' : line.reply;
  const [cls, subject, detail] = enhanced(line.dsn);
  return JSON.stringify({
    type,
    id: `${line.time.toString(16)}${line.local}`,
    sender: 'news@example.net',
    recipient: `${line.local}@${line.domain}`,
    queue: line.domain,
    site: `${mx}.`,
    size: 20480,
    response: {
      code: code(reply),
      enhanced_code: { class: cls, subject, detail },
      content: reply.replace(/^\d{3}[- ](\d\.\d+\.\d+ )?/, ''),
      command: 'RCPT TO',
    },
    peer_address: { name: `${mx}.`, addr: ip },
    timestamp: Math.floor(line.time / 1000),
    created: Math.floor(line.time / 1000) - 5,
    num_attempts: 0,
    egress_pool: 'pool0',
    egress_source: `ip-${line.sender}`,
    source_address: { address: `${IPS[line.sender]}:0` },
  });
}

function halonLine(line: Line): string {
  const [mx, ip] = MX[line.domain]!;
  const reply = line.status === 'sent' ? '250 2.0.0 Ok: queued' : line.reply;
  const action = { sent: undefined, deferred: 'QUEUE', bounced: 'BOUNCE' }[line.status];
  return JSON.stringify({
    time: new Date(line.time).toISOString(),
    arguments: {
      retry: 0,
      ...(action ? { action } : {}),
      attempt: {
        result: {
          code: code(reply),
          enhanced: enhanced(line.dsn),
          reason: [reply.replace(/^\d{3}[- ](\d\.\d+\.\d+ )?/, '')],
        },
        connection: { localip: IPS[line.sender], remoteip: ip, remotemx: mx },
        duration: 0.4,
      },
    },
    message: {
      recipient: `${line.local}@${line.domain}`,
      recipientaddress: { localpart: line.local, domain: line.domain },
      jobid: 'weekly',
      transportid: 'mx',
    },
  });
}

export const POWERMTA_HEADER =
  'type,timeLogged,timeQueued,orig,rcpt,orcpt,dsnAction,dsnStatus,dsnDiag,dsnMta,bounceCat,srcType,srcMta,dlvType,dlvSourceIp,dlvDestinationIp,dlvEsmtpAvailable,dlvSize,vmta,jobId';

function powermtaLine(line: Line): string {
  const [mx, ip] = MX[line.domain]!;
  const stamp = (time: number) =>
    new Date(time)
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, '-0000');
  const type = { sent: 'd', deferred: 't', bounced: 'b' }[line.status];
  const reply = line.status === 'sent' ? '250 2.0.0 OK queued' : line.reply;
  const diag = `"smtp;${reply.replace(/"/g, '""')}"`;
  return [
    type,
    stamp(line.time),
    stamp(line.time - 5000),
    'news@example.net',
    `${line.local}@${line.domain}`,
    '',
    { sent: 'relayed', deferred: 'delayed', bounced: 'failed' }[line.status],
    line.dsn,
    diag,
    `${mx} (${ip})`,
    '',
    'smtp',
    'api.example.net',
    'smtp',
    IPS[line.sender],
    ip,
    'PIPELINING',
    20480,
    `vmta-${line.sender}`,
    'weekly',
  ].join(',');
}

/** The week's attempts in time order (the episode's among them) */
function* attempts(rng: Rng, options: SynthOptions): Generator<Line> {
  const gap = 3_600_000 / options.perHour;
  const episodeEnd = episode.start + episode.durationMs;
  let nextEpisode = episode.start;
  let serial = 0;
  for (let time = WEEK_START; time < WEEK_START + WEEK_MS; time += gap) {
    while (nextEpisode < episodeEnd && nextEpisode <= time) {
      yield {
        time: nextEpisode,
        sender: 0,
        domain: episode.provider,
        local: `user${rng.int(1, 99999)}`,
        status: 'deferred',
        dsn: '4.7.28',
        reply: options.uniqueReplies ? `${episode.reply} ${serial++}` : episode.reply,
      };
      nextEpisode += episode.everyMs;
    }
    const domain = rng.pick(DOMAINS);
    const local = `user${rng.int(1, 99999)}`;
    const at = Math.floor(time);
    // The first sender's attempts to the provider during the episode are the episode's own
    const sender = domain === episode.provider && at >= episode.start && at < episodeEnd ? 1 : rng.int(0, 1);
    if (rng.next() >= (options.failureShare ?? 0.1)) {
      yield { time: at, sender, domain, local, status: 'sent', dsn: '2.0.0', reply: '' };
      continue;
    }
    const [dsn, reply, status] = rng.pick(FAILURES);
    const text = reply.replace('{rcpt}', `${local}@${domain}`);
    yield {
      time: at,
      sender,
      domain,
      local,
      status,
      dsn,
      reply: options.uniqueReplies ? `${text} (${serial++})` : text,
    };
  }
}

/** The week's log lines */
export function* synthWeek(options: SynthOptions): Generator<string> {
  const rng = new Rng(options.seed);
  if (options.format === 'powermta') yield POWERMTA_HEADER;
  for (const line of attempts(rng, options)) {
    if (options.format === 'postfix') yield* postfixLine(rng, line, options.noise ?? 0, options.iso ?? false);
    else if (options.format === 'exim') yield eximLine(rng, line);
    else if (options.format === 'kumomta') yield kumoLine(line);
    else if (options.format === 'halon') yield halonLine(line);
    else yield powermtaLine(line);
  }
}

if (import.meta.filename === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string', default: '1' },
      'per-hour': { type: 'string', default: '600' },
      format: { type: 'string', default: 'postfix' },
      noise: { type: 'string', default: '0' },
      unique: { type: 'boolean', default: false },
      iso: { type: 'boolean', default: false },
    },
  });
  const lines: string[] = [];
  for (const line of synthWeek({
    seed: Number(values.seed),
    perHour: Number(values['per-hour']),
    format: values.format as SynthFormat,
    noise: Number(values.noise),
    uniqueReplies: values.unique,
    iso: values.iso,
  })) {
    lines.push(line);
    if (lines.length === 10_000) {
      if (!process.stdout.write(`${lines.join('\n')}\n`)) await new Promise((ok) => process.stdout.once('drain', ok));
      lines.length = 0;
    }
  }
  process.stdout.write(lines.length > 0 ? `${lines.join('\n')}\n` : '');
}
