/**
 * Generators and a checker for `test/fuzz.test.ts`: a seeded, deterministic stream of HTTP requests over every route
 * of the bounce-classifier and ip-schedule APIs and the host's own answers, sent over real sockets.
 */
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { Rng } from '../scripts/corpus/random.ts';

export const KEYS = { bc: 'fuzz-bc-key-1', ips: 'fuzz-ips-key-1' } as const;

/**
 * What a fuzz run must not cause besides bad answers: crashes of the process (unhandled rejections and exceptions,
 * caught while the run lasts) and errors the host logs. `log` goes to the host's logger; `stop()` detaches and
 * answers the violations.
 */
export function watchHost(): { log: (line: string) => void; stop(): string[] } {
  const logs: string[] = [];
  const crashes: string[] = [];
  const onCrash = (error: unknown) => crashes.push(String((error as Error)?.stack ?? error));
  process.on('unhandledRejection', onCrash);
  process.on('uncaughtException', onCrash);
  return {
    log: (line) => logs.push(line),
    stop() {
      process.off('unhandledRejection', onCrash);
      process.off('uncaughtException', onCrash);
      return [
        ...crashes.map((crash) => `crash: ${crash.slice(0, 300)}`),
        ...logs
          .filter((l) => JSON.parse(l).level === 'error')
          .map((line) => `host logged an error: ${line.slice(0, 300)}`),
      ];
    },
  };
}

/** One request of the stream; `raw` requests are written byte for byte on a fresh socket */
export interface Case {
  n: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  raw?: Buffer;
  /** The request is valid and carries the right key: anything but 200 is a failure */
  expect200?: boolean;
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A JSON literal written as is, for numbers JSON.stringify cannot produce */
class Lit {
  constructor(readonly text: string) {}
}

function encode(value: unknown): string {
  if (value instanceof Lit) return value.text;
  if (Array.isArray(value)) return `[${value.map(encode).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${encode(v)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const REPLIES = [
  '550 5.1.1 <user@example.com>: Recipient address rejected: User unknown in virtual mailbox table',
  '451 4.7.1 Greylisting in effect, please come back later',
  '421 4.7.0 Try again later, closing connection (too many connections from your IP)',
  '552 5.2.2 The email account that you tried to reach is over quota',
  'host mx.example.com[192.0.2.1] said: 554 5.7.1 Service unavailable; Client host [198.51.100.7] blocked using zen.spamhaus.org (in reply to RCPT TO command)',
  'Diagnostic-Code: smtp; 550-5.7.26 This message does not have authentication information\n550-5.7.26 or fails to pass authentication checks (SPF or DKIM).',
  "Remote Server returned '550 5.7.1 RESOLVER.RST.AuthRequired; authentication required'",
  '<<< 550 Requested action not taken: mailbox unavailable',
  'SMTP error from remote mail server after RCPT TO:<a@b.example>: host mx.b.example [203.0.113.9]: 550 No such user here',
  '250 2.0.0 OK queued as 4F2A1B',
  'smtp; 421 4.7.28 Our system has detected an unusual rate of unsolicited mail, see https://support.example.com/mail/?p=UnsolicitedRateLimitError',
  '550 5.7.1 Message rejected as spam by Content Filtering.&lt;br&gt;see <a href="http://x">here</a>',
  '',
];

const ODD = [
  '\ud800',
  '\udfff',
  '\udc00\ud800',
  'a\ud83d',
  '\u0000',
  '\u0000\u0001\u001f\u007f',
  '\u0085\u2028\u2029',
  '\ufeff',
  '\ufffe\uffff',
  '👩‍👩‍👧‍👦',
  '🇸🇪',
  'e\u0301\u0301\u0301',
  '\u202etxet',
  '送信エラー：メールボックスが一杯です',
  '메일함이 가득 찼습니다',
  '५५० त्रुटि',
  '５５０ ５．１．１',
  '𝟓𝟓𝟎 𝟓.𝟏.𝟏',
  'İSTANBUL',
  'ß'.repeat(40),
  'ﬁﬂ',
  '\\',
  '"',
  '%s%n%x',
  '{{7*7}}',
  '$(id)',
  "'; DROP TABLE x;--",
  '../../etc/passwd',
  '<script>alert(1)</script>',
  ' \t\r\n ',
  '__url__ __email__ __ip__ __uuid__',
  'https://a.example/?q=1 a@b.c 192.0.2.1',
  '2001:db8::1',
  '550',
  '5.1.1',
  '\u00a0\u3000',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇',
];

const HUGE = ['a', 'İ', '😀', '\ud800', '550 5.1.1 user unknown ', '\u0000', 'é', 'x@y.z ', '[{'];

export class Fuzz {
  readonly rng: Rng;
  #n = 0;

  constructor(seed: number) {
    this.rng = new Rng(seed);
  }

  chance(p: number): boolean {
    return this.rng.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return this.rng.pick(items);
  }

  int(lo: number, hi: number): number {
    return this.rng.int(lo, hi);
  }

  // ---------- values ----------

  odd(): string {
    const parts = this.int(1, 4);
    let text = '';
    for (let i = 0; i < parts; i++)
      text += this.chance(0.5) ? this.pick(ODD) : this.pick(REPLIES).slice(0, this.int(0, 60));
    return text;
  }

  huge(): string {
    const size = this.pick([4096, 4097, 10_000, 100_000, 1_000_000]);
    return this.pick(HUGE)
      .repeat(Math.ceil(size / 2))
      .slice(0, size);
  }

  message(): string {
    const roll = this.rng.next();
    if (roll < 0.55) return `${this.pick(REPLIES)} id=${this.int(0, 999_999)}`;
    if (roll < 0.62) return this.pick(REPLIES);
    if (roll < 0.95) return this.odd();
    return this.huge();
  }

  /** Any JSON value, for replacing a field by the wrong type */
  anyValue(depth = 0): unknown {
    switch (this.int(0, 12)) {
      case 0:
        return null;
      case 1:
        return this.chance(0.5);
      case 2:
        return new Lit(
          this.pick([
            '0',
            '-0',
            '1',
            '-1',
            '1.5',
            '1e308',
            '1e309',
            '-1e309',
            '1e-400',
            '9007199254740993',
            '123456789012345678901234567890',
            '2147483648',
            '1000000000',
            '1000000001',
            '0.1e1',
            '4e2',
          ]),
        );
      case 3:
        return this.odd();
      case 4:
        return '';
      case 5:
        return this.huge();
      case 6:
        return depth > 2 ? [] : Array.from({ length: this.int(0, 3) }, () => this.anyValue(depth + 1));
      case 7:
        return depth > 2
          ? {}
          : Object.fromEntries(
              Array.from({ length: this.int(0, 3) }, () => [
                this.pick(['message', 'messages', 'grouping', 'x', '__proto__', 'constructor', '']),
                this.anyValue(depth + 1),
              ]),
            );
      case 8:
        return this.nest(this.pick([10, 63, 64, 65, 1000]));
      case 9:
        return this.int(-5, 5);
      case 10:
        return this.date();
      case 11:
        return this.pick(['AUTO', 'MANUAL', 'auto', 'TOKENBUCKET', 'FIXEDWINDOW', 'success', '&gmail']);
      default:
        return [this.message()];
    }
  }

  nest(depth: number): unknown {
    let value: unknown = this.chance(0.5) ? 1 : 'x';
    for (let i = 0; i < depth; i++) value = this.chance(0.5) ? [value] : { a: value };
    return value;
  }

  /** Applies one structural mutation somewhere in `value` */
  mutate(value: unknown): unknown {
    const copy = structuredCloneLit(value);
    const nodes: { parent: any; key: string | number }[] = [];
    const walk = (v: any) => {
      if (v instanceof Lit || v === null || typeof v !== 'object') return;
      for (const key of Array.isArray(v) ? v.keys() : Object.keys(v)) {
        nodes.push({ parent: v, key });
        walk(v[key]);
      }
    };
    walk(copy);
    if (nodes.length === 0 || this.chance(0.1)) return this.anyValue();
    const { parent, key } = this.pick(nodes);
    switch (this.int(0, 4)) {
      case 0:
        parent[key] = this.anyValue();
        break;
      case 1:
        if (Array.isArray(parent)) parent.splice(key as number, 1);
        else delete parent[key];
        break;
      case 2:
        if (Array.isArray(parent)) parent.push(this.anyValue());
        else
          parent[this.pick(['extra', 'Message', 'message', 'messages', 'groupings', 'paused', 'x'.repeat(300)])] =
            this.anyValue();
        break;
      case 3:
        parent[key] = this.huge();
        break;
      default:
        parent[key] = this.odd();
    }
    return copy;
  }

  // ---------- ip-schedule ----------

  date(): string {
    const roll = this.rng.next();
    if (roll < 0.04) return this.pick(['9999-12-31', '9999-12-20', '0000-01-01']);
    if (roll < 0.1)
      return this.pick([
        '0001-01-01',
        '9999-12-31',
        '9999-12-01',
        '1970-01-01',
        '2038-01-19',
        '2024-02-29',
        '2000-02-29',
        '2025-02-29',
        '2100-02-29',
        '2025-13-01',
        '2025-00-10',
        '2025-04-31',
        '0000-00-00',
        '2025-1-1',
        '20250101',
        '2025-01-01T00:00:00Z',
        '２０２５-０１-０１',
      ]);
    const day = new Date(Date.UTC(2025, 0, 1) + this.int(-400, 400) * 86_400_000);
    return day.toISOString().slice(0, 10);
  }

  groupingName(): string {
    return `&${this.pick(['gmail', 'yahoo', 'hotmail', 'outlook', 'g1', 'a.b_c-d', 'Z9'])}`;
  }

  grouping(): Record<string, unknown> {
    const days = this.chance(0.03) ? this.pick([1000, 1001]) : this.int(1, 40);
    const g: Record<string, unknown> = { grouping: this.groupingName() };
    if (this.chance(0.5)) {
      const start = this.date();
      const end = new Date(Date.parse(start) + (days - 1) * 86_400_000);
      Object.assign(g, {
        mode: 'AUTO',
        start: { date: start, volume: this.volume() },
        end: {
          date: Number.isNaN(end.getTime()) ? this.date() : end.toISOString().slice(0, 10),
          volume: this.volume(),
        },
      });
    } else {
      const order = this.rng.shuffle(Array.from({ length: days }, (_, i) => i + 1));
      Object.assign(g, {
        mode: 'MANUAL',
        start: { date: this.date() },
        schedule: order.map((day) => ({ day, messages: this.int(0, 3) === 0 ? 0 : this.volume() })),
      });
    }
    if (this.chance(0.3)) g.paused = this.chance(0.5);
    if (this.chance(0.3)) g.algorithm = this.pick(['TOKENBUCKET', 'FIXEDWINDOW']);
    if (this.chance(0.3)) g.interval = this.pick([1, 60, 3600, 86_400, 31_536_000]);
    if (this.chance(0.3))
      g.properties = this.chance(0.2)
        ? null
        : Object.fromEntries(
            Array.from({ length: this.pick([0, 1, 3, 64, 65]) }, (_, i) => [
              `k${i}${this.chance(0.1) ? this.odd() : ''}`,
              this.chance(0.9) ? `v${i}` : this.odd(),
            ]),
          );
    return g;
  }

  volume(): number {
    return this.pick([1, 2, 10, 500, 12_345, 1_000_000, 1_000_000_000]);
  }

  ipConfig(): Record<string, unknown> {
    const roll = this.rng.next();
    // At the limits: 20 groupings of 1,000 days (the per-IP total) and one past it
    if (roll < 0.01)
      return {
        groupings: Array.from({ length: this.pick([20, 21]) }, (_, i) => ({
          ...this.grouping(),
          ...manualDays(1000),
          grouping: `&big${i}`,
        })),
      };
    if (roll < 0.015)
      return {
        groupings: Array.from({ length: this.pick([1000, 1001]) }, (_, i) => ({
          grouping: `&g${i}`,
          mode: 'MANUAL',
          start: { date: '2025-01-01' },
          schedule: [{ day: 1, messages: 1 }],
        })),
      };
    return { groupings: Array.from({ length: this.pick([0, 1, 1, 1, 2, 3]) }, () => this.grouping()) };
  }

  /** A bulk action: targets, a filter or configs, sometimes the wrong ones for the action */
  bulk(): Record<string, unknown> {
    const action = this.pick(['pause', 'resume', 'delete', 'restore', 'explode']);
    const roll = this.rng.next();
    if (roll < 0.4)
      return {
        action,
        targets: Array.from({ length: this.pick([0, 1, 2, 5]) }, () =>
          this.chance(0.5)
            ? { ip: this.ip() }
            : { ip: this.ip(), grouping: this.pick(['&gmail', '&warm', 'gmail', '&']) },
        ),
      };
    if (roll < 0.7)
      return {
        action,
        filter: this.pick([
          {},
          { q: '192.0.2.0/24' },
          { q: this.ip() },
          { status: 'PAUSED' },
          { grouping: '&gmail' },
          { q: 'a'.repeat(600) },
          { status: 'DONE' },
        ]),
      };
    if (roll < 0.9)
      return {
        action,
        configs: Array.from({ length: this.pick([0, 1, 2]) }, () => ({ ip: this.ip(), ...this.ipConfig() })),
      };
    return { action, targets: [{ ip: this.ip() }], filter: {} };
  }

  /** A CSV file for the import: a header and lines of right and wrong cells, or no CSV at all */
  csv(): string {
    const header = this.pick([
      'ip,grouping,mode,start_date,start_volume,end_date,end_volume,schedule,algorithm,interval,paused,properties',
      'ip,grouping,mode,start_date,start_volume,end_date,end_volume',
      'ip,grouping,colour',
      '',
    ]);
    const cell = () =>
      this.pick([
        '',
        '192.0.2.1',
        '&gmail',
        'AUTO',
        'MANUAL',
        '2025-01-01',
        '2025-02-30',
        '10',
        '-1',
        '1;2;3',
        'x',
        'true',
        '{"a":"b"}',
        '"quoted, cell"',
        '"unclosed',
        'TOKENBUCKET',
        '3600',
        '\u0000',
      ]);
    const lines = Array.from({ length: this.pick([0, 1, 3]) }, () =>
      Array.from({ length: this.pick([3, 7, 12, 13]) }, cell).join(','),
    );
    return [header, ...lines].join(this.pick(['\n', '\r\n']));
  }

  /** An IP as it goes in a path: mostly a few valid ones (so writes and reads meet), else anything */
  ip(): string {
    const roll = this.rng.next();
    if (roll < 0.6)
      return this.pick(['192.0.2.1', '192.0.2.2', '198.51.100.7', '2001:db8::1', '2001:db8::2', '::ffff:192.0.2.9']);
    if (roll < 0.75)
      return this.pick([
        '2001:DB8:0::1',
        '2001:0db8:0000:0000:0000:0000:0000:0001',
        '192%2E0%2E2%2E1',
        '::FFFF:192.0.2.9',
        '::ffff:c000:209',
        '::',
        '::1',
        '0.0.0.0',
        '255.255.255.255',
        'fe80::1',
      ]);
    return this.pick([
      '192.0.2.256',
      '192.0.2',
      '192.0.2.1.5',
      '192.0.02.1',
      '1e2.0.0.1',
      '0x7f.0.0.1',
      '-1.0.0.0',
      '192.0.2.1%2F24',
      'fe80::1%25eth0',
      '2001:db8:::1',
      '2001:db8::g',
      '1:2:3:4:5:6:7:8:9',
      '%2E%2E',
      '..',
      '.',
      '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '%00',
      '%ff%fe',
      '%C0%AE',
      '%ZZ',
      '%',
      '%25',
      '%26gmail',
      '192.0.2.1%00',
      '１９２.０.２.１',
      '%EF%BC%91%EF%BC%99%EF%BC%92.0.2.1',
      'localhost',
      'a'.repeat(300),
      '1'.repeat(5000),
      '%F0%9F%98%80',
      '\u00ff',
      '[2001:db8::1]',
      '2001:db8::1%5D',
      '192.0.2.1;drop',
      '%20192.0.2.1',
      '192.0.2.1%20',
      ':',
      ':::',
      '::ffff:256.0.0.1',
      '1::2::3',
    ]);
  }

  pathGrouping(): string {
    const roll = this.rng.next();
    if (roll < 0.65) return `%26${this.groupingName().slice(1)}`;
    if (roll < 0.75) return this.pick(['&gmail', '%26GMAIL', '%26big0', '%26g0']);
    return this.pick([
      'gmail',
      '%26',
      '%26.x',
      '%26-x',
      `%26${'a'.repeat(63)}`,
      `%26${'a'.repeat(64)}`,
      '%26a%2Fb',
      '%26a%00',
      '%2526gmail',
      '%26%F0%9F%98%80',
      '%26a b',
      '..',
      '%26..',
      '%ZZ',
      '%26%E2%80%AE',
      `%26${'é'.repeat(10)}`,
    ]);
  }

  // ---------- requests ----------

  next(): Case {
    const n = this.#n++;
    if (this.chance(0.03)) return { n, method: 'RAW', path: '', headers: {}, raw: this.rawRequest() };
    const roll = this.rng.next();
    if (roll < 0.45) return this.bounce(n);
    if (roll < 0.9) return this.schedule(n);
    return this.host(n);
  }

  #key(api: 'bc' | 'ips'): { header: Record<string, string>; right: boolean } {
    const roll = this.rng.next();
    if (roll < 0.72)
      return { header: { [this.pick(['x-api-key', 'X-API-Key', 'X-Api-Key'])]: KEYS[api] }, right: true };
    if (roll < 0.8) return { header: {}, right: false };
    if (roll < 0.86) return { header: { 'x-api-key': KEYS[api === 'bc' ? 'ips' : 'bc'] }, right: false };
    return {
      header: {
        'x-api-key': this.pick([
          '',
          'wrong',
          ` ${KEYS[api]}`,
          `${KEYS[api]} `,
          KEYS[api].toUpperCase(),
          `${KEYS[api]}x`,
          'k'.repeat(8000),
          '\u00ff\u00fe',
          `${KEYS[api]}, ${KEYS[api]}`,
          'null',
        ]),
      },
      right: false,
    };
  }

  #method(route: string): string {
    const roll = this.rng.next();
    if (roll < 0.75) return route;
    if (roll < 0.93) return this.pick(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
    return this.pick([
      'TRACE',
      'PROPFIND',
      'MKCOL',
      'LOCK',
      'UNLOCK',
      'COPY',
      'MOVE',
      'PURGE',
      'SEARCH',
      'REPORT',
      'M-SEARCH',
      'NOTIFY',
      'SUBSCRIBE',
      'LINK',
      'SOURCE',
      'QUERY',
      'FOO',
      'BREW',
    ]);
  }

  /** Body bytes and content type for `value`, sometimes spoiled */
  #body(value: unknown, headers: Record<string, string>): { body?: Buffer; pristine: boolean } {
    let text = encode(value);
    let pristine = true;
    let body: Buffer;
    const roll = this.rng.next();
    if (roll < 0.08) {
      pristine = false;
      text = this.pick([
        '',
        ' ',
        '\n',
        '{',
        '}',
        '{"message":',
        '{"message":"x",}',
        "{'message':'x'}",
        '{"message":NaN}',
        '{"message":"x"}{"message":"y"}',
        '"x"',
        'null',
        '[]',
        '1',
        'true',
        '{"message":"x" /* c */}',
        '\ufeff{"message":"x"}',
        '{"message":"\\ud800"}',
        '{"message":"\\u00"}',
        '{"message":"a\u0000b"}',
        '{"groupings":[]',
        'message=x',
        '{"__proto__":{"x":1}}',
        `{"message":"${'\\'.repeat(3)}"}`,
        '{"a":' + '['.repeat(64) + ']'.repeat(64) + '}',
        '['.repeat(100_000),
        '{"groupings":' + '['.repeat(1_000_000) + ']'.repeat(1_000_000) + '}',
      ]);
      body = Buffer.from(text);
    } else if (roll < 0.12) {
      pristine = false;
      // Bytes that are not UTF-8 (or are CESU-8 surrogates, or a NUL byte) inside a string
      const bad = this.pick([
        [0xff],
        [0xc0, 0xae],
        [0xed, 0xa0, 0x80],
        [0xe2, 0x82],
        [0x00],
        [0x80, 0x80],
        [0xf4, 0x90, 0x80, 0x80],
      ]);
      const at = text.indexOf('"', text.indexOf(':') + 1) + 1 || 1;
      body = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from(bad), Buffer.from(text.slice(at))]);
    } else {
      body = Buffer.from(text);
    }
    const typeRoll = this.rng.next();
    if (typeRoll < 0.8) headers['content-type'] = 'application/json';
    else {
      pristine = false;
      const type = this.pick([
        undefined,
        '',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/merge-patch+json',
        'APPLICATION/JSON',
        'application/json; charset=utf-8',
        'application/json; charset=UTF8',
        'application/json; charset="utf-8"',
        'application/json; charset=utf-16',
        'application/json; charset=latin1',
        'application/json; charset=',
        'application/json;;;',
        'application/jsonx',
        `application/json; ${'x='.repeat(2000)}`,
        '*/*',
        'application/json, text/plain',
      ]);
      if (type !== undefined) headers['content-type'] = type;
    }
    if (this.chance(0.04)) {
      pristine = false;
      return { body: undefined, pristine };
    }
    if (this.chance(0.15)) headers['transfer-encoding'] = 'chunked';
    return { body, pristine };
  }

  #query(): string {
    if (!this.chance(0.15)) return '';
    const query = this.pick([
      'bypass_cache=true',
      'return_probability=true',
      'bypass_cache=false&return_probability=true',
      'bypass_cache=yes',
      'return_probability=1',
      'return_probability=true&return_probability=false',
      'bypass_cache[]=true',
      'x=1',
      '%ZZ=%ZZ',
      '&&&',
      '=',
      'a=' + 'b'.repeat(4000),
      'return_probability=%00',
    ]);
    return `?${query}`;
  }

  #mutatePath(path: string): string {
    const roll = this.rng.next();
    if (roll < 0.88) return path;
    return this.pick([
      () => `${path}/`,
      () => `/${path}`,
      () => path.toUpperCase(),
      () => `${path}/extra`,
      () => path.replace(/\/([^/]*)$/, '%2F$1'),
      () => path.replace('/', '/./'),
      () => `/x/..${path}`,
      () => `${path}%00`,
      () => `${path};x=1`,
      () => `${path}#frag`,
      () => `${path}/${'a'.repeat(this.pick([2000, 9000, 20_000]))}`,
      () => path.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`),
    ])();
  }

  bounce(n: number): Case {
    const route = this.pick([
      ['POST', '/v1/bnac/single', 'single'],
      ['POST', '/v2/bnac/single', 'single'],
      ['POST', '/v1/bnac', 'batch'],
      ['POST', '/v2/bnac', 'batch'],
      ['POST', '/v1/backoff', 'batch'],
      ['POST', '/normalise', 'single'],
      ['GET', '/v1/cache/stats', ''],
      ['GET', '/v1/cache/info', ''],
    ] as const);
    const method = this.#method(route[0]);
    const key = this.#key('bc');
    const headers: Record<string, string> = { ...key.header };
    if (this.chance(0.5)) headers.accept = this.pick(['application/json', '*/*', 'text/html', 'application/xml']);
    const query = route[1] === '/v1/backoff' || this.chance(0.1) ? this.#query() : '';
    const path = this.#mutatePath(route[1]);
    let pristine =
      key.right &&
      method === route[0] &&
      path === route[1] &&
      (query === '' || (route[1] === '/v1/backoff' && VALID_QUERIES.has(query)));
    let body: Buffer | undefined;
    if (route[2] !== '' || this.chance(0.05)) {
      let value: unknown;
      if (route[2] === 'single' || (route[2] === 'batch' && this.chance(0.3))) value = { message: this.message() };
      else {
        const count = this.chance(0.01) ? this.pick([10_000, 10_001]) : this.pick([0, 1, 2, 5, 20, 100]);
        // Big batches repeat a few texts: the limit, not the classifier, is what is tested
        value = {
          messages: Array.from({ length: count }, (_, i) =>
            count > 100 ? `550 5.1.1 user unknown ${i % 7}` : this.message(),
          ),
        };
      }
      if (this.chance(0.3)) {
        value = this.mutate(value);
        pristine = false;
      }
      const spoiled = this.#body(value, headers);
      body = spoiled.body;
      pristine &&= spoiled.pristine;
      if ((value as any)?.messages?.length > 10_000) pristine = false;
    }
    if (route[2] !== '' && body === undefined) pristine = false;
    if (body && body.length > 8 * 1024 * 1024) pristine = false;
    if (route[2] === '' && body !== undefined) pristine = false;
    return { n, method, path: path + query, headers, body, expect200: pristine };
  }

  schedule(n: number): Case {
    const route = this.pick([
      ['GET', '/config'],
      ['GET', '/config/:ip'],
      ['PUT', '/config/:ip'],
      ['POST', '/config/:ip'],
      ['POST', '/config/:ip'],
      ['DELETE', '/config/:ip'],
      ['PUT', '/config/:ip/pause'],
      ['PUT', '/config/:ip/resume'],
      ['GET', '/config/:ip/:grouping'],
      ['DELETE', '/config/:ip/:grouping'],
      ['PUT', '/config/:ip/:grouping/pause'],
      ['PUT', '/config/:ip/:grouping/resume'],
      ['GET', '/status'],
      ['GET', '/status/:ip'],
      ['GET', '/status/:ip/:grouping'],
      ['POST', '/v1/schedules/bulk'],
      ['POST', '/v1/schedules/import'],
      ['GET', '/v1/schedules/export'],
    ] as const);
    const method = this.#method(route[0]);
    const key = this.#key('ips');
    const headers: Record<string, string> = { ...key.header };
    const path =
      this.#mutatePath(route[1].replace(':ip', this.ip()).replace(':grouping', this.pathGrouping())) +
      (this.chance(0.05) ? this.#query() : '');
    let body: Buffer | undefined;
    const wantsBody =
      (route[1] === '/config/:ip' && (route[0] === 'PUT' || route[0] === 'POST')) || route[1] === '/v1/schedules/bulk';
    if (route[1] === '/v1/schedules/import') {
      headers['content-type'] = this.chance(0.9) ? 'text/csv' : 'application/json';
      body = Buffer.from(this.csv());
    } else if (wantsBody || this.chance(0.05)) {
      let value: unknown = route[1] === '/v1/schedules/bulk' ? this.bulk() : this.ipConfig();
      if (this.chance(0.35)) value = this.mutate(value);
      body = this.#body(value, headers).body;
    }
    const pristine =
      key.right &&
      method === 'GET' &&
      path === route[1] &&
      (route[1] === '/config' || route[1] === '/status') &&
      body === undefined;
    return { n, method, path, headers, body, expect200: pristine };
  }

  host(n: number): Case {
    const api = this.chance(0.5) ? 'bc' : 'ips';
    const key = this.#key(api);
    const path = this.pick([
      '/openapi.json',
      '/openapi.json',
      '/',
      '/nowhere',
      '/openapi.json/x',
      '/OPENAPI.JSON',
      '/v3/bnac',
      '/config/192.0.2.1/%26gmail/pause/x',
      '/status/192.0.2.1/%26gmail/x',
      '/../../etc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
      '/%00',
      '/%ff%fe',
      '/\u00ff\u00fe',
      '//',
      '/.',
      '*',
      'http://evil.example/status',
      '/a?b#c',
      `/${'x'.repeat(this.pick([100, 5000, 17_000]))}`,
      '/status%3F',
      '/config%2F192.0.2.1',
      '/healthz',
      '/v1',
      '/v1/cache',
      '/v1/cache/',
    ]);
    const method = this.chance(0.6) ? 'GET' : this.#method(this.pick(['OPTIONS', 'HEAD', 'GET']));
    const headers = { ...key.header };
    return { n, method, path, headers, expect200: key.right && method === 'GET' && path === '/openapi.json' };
  }

  rawRequest(): Buffer {
    const ok = `Host: x\r\nConnection: close\r\nx-api-key: ${KEYS.ips}\r\n`;
    const text = this.pick([
      `GET /status HTTP/1.1\r\nHost x\r\n\r\n`,
      `GET /a b HTTP/1.1\r\n${ok}\r\n`,
      `GET /status\r\n\r\n`,
      `GET /status HTTP/2.0\r\n${ok}\r\n`,
      `GET /status HTTP/1.0\r\nx-api-key: ${KEYS.ips}\r\n\r\n`,
      `G@T /status HTTP/1.1\r\n${ok}\r\n`,
      `GET /status HTTP/1.1\nHost: x\nConnection: close\n\n`,
      `GET /status HTTP/1.1\r\n${ok}X: ${'a'.repeat(20_000)}\r\n\r\n`,
      `GET /status HTTP/1.1\r\n${ok}X: a\u0000b\r\n\r\n`,
      `POST /config/192.0.2.3 HTTP/1.1\r\n${ok}Content-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
      `POST /config/192.0.2.3 HTTP/1.1\r\n${ok}Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      `POST /config/192.0.2.3 HTTP/1.1\r\n${ok}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
      `POST /config/192.0.2.3 HTTP/1.1\r\n${ok}Content-Type: application/json\r\nContent-Length: -1\r\n\r\n`,
      `GET /status/\u00c3\u00a9 HTTP/1.1\r\n${ok}\r\n`,
      `GET /status/192.0.2.1\u0001 HTTP/1.1\r\n${ok}\r\n`,
      `GET http://evil.example/status HTTP/1.1\r\n${ok}\r\n`,
      `OPTIONS * HTTP/1.1\r\n${ok}\r\n`,
      `GET /status HTTP/1.1\r\n${ok}Expect: 100-continue\r\n\r\n`,
      `GET /status HTTP/1.1\r\n${ok}Expect: fuzz\r\n\r\n`,
      `GET /status HTTP/1.1\r\n${ok} folded: x\r\n\r\n`,
      `\r\n\r\n`,
      `GET /status HTTP/1.1\r\n${ok}${'x-a: b\r\n'.repeat(3000)}\r\n`,
    ]);
    return Buffer.from(text, 'latin1');
  }
}

function manualDays(days: number): Record<string, unknown> {
  return {
    mode: 'MANUAL',
    start: { date: '2025-01-01' },
    end: undefined,
    schedule: Array.from({ length: days }, (_, i) => ({ day: i + 1, messages: 100 })),
  };
}

function structuredCloneLit(value: unknown): unknown {
  if (value instanceof Lit || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(structuredCloneLit);
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, structuredCloneLit(v)]),
  );
}

// ---------- sending ----------

/** Sends a case; undefined with the error when no answer came */
export function send(base: URL, agent: Agent, c: Case, timeoutMs: number): Promise<Answer | Error> {
  if (c.raw) return sendRaw(base, c.raw, timeoutMs);
  return new Promise((done) => {
    let settled = false;
    const finish = (value: Answer | Error) => {
      if (!settled) {
        settled = true;
        done(value);
      }
    };
    const headers = { ...c.headers };
    if (c.body !== undefined && headers['transfer-encoding'] !== 'chunked')
      headers['content-length'] = String(c.body.length);
    let req;
    try {
      req = request({ host: base.hostname, port: base.port, method: c.method, path: c.path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', finish);
      });
    } catch (error) {
      // The client refused to build it (an invalid header or path): not the server's doing
      finish(Object.assign(error as Error, { clientSide: true }));
      return;
    }
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', finish);
    req.end(c.body);
  });
}

function sendRaw(base: URL, bytes: Buffer, timeoutMs: number): Promise<Answer | Error> {
  return new Promise((done) => {
    const socket = connect(Number(base.port), base.hostname, () => socket.write(bytes));
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy());
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', () => {});
    socket.on('close', () => {
      let all = Buffer.concat(chunks);
      // Skip interim answers (100 Continue)
      while (/^HTTP\/1\.[01] 1\d\d /.test(all.subarray(0, 16).toString('latin1')) && all.indexOf('\r\n\r\n') >= 0)
        all = all.subarray(all.indexOf('\r\n\r\n') + 4);
      const end = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, end < 0 ? all.length : end).toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      if (!match)
        return done(
          new Error(
            all.length === 0
              ? 'connection closed without an answer'
              : `not an HTTP answer: ${JSON.stringify(head.slice(0, 80))}`,
          ),
        );
      const headers: Record<string, string> = {};
      for (const line of head.split('\r\n').slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = all.subarray(end + 4);
      if (headers['content-length'] !== undefined) body = body.subarray(0, Number(headers['content-length']));
      done({ status: Number(match[1]), headers, body });
    });
  });
}

const VALID_QUERIES = new Set([
  '?bypass_cache=true',
  '?return_probability=true',
  '?bypass_cache=false&return_probability=true',
]);

/** What is wrong with an answer, or undefined */
export function problem(c: Case, answer: Answer): string | undefined {
  const { status, headers, body } = answer;
  const type = String(headers['content-type'] ?? '');
  const head = c.method === 'HEAD';
  if (status >= 500) return `status ${status}`;
  if (status < 200 || (status >= 300 && status < 400)) return `unexpected status ${status}`;
  if (c.expect200 && status !== 200) return `a valid request answered ${status}, not 200`;
  if (status === 204)
    return c.method === 'OPTIONS' && body.length === 0 ? undefined : `204 to ${c.method} or with a body`;
  if (status >= 400) {
    if (!/^application\/json\b/i.test(type)) return `error with content type "${type}"`;
    if (status === 401 && !headers['www-authenticate']) return '401 without WWW-Authenticate';
    if (status === 405 && !headers.allow) return '405 without Allow';
    if (head) return body.length === 0 ? undefined : 'HEAD answered with a body';
    let json: unknown;
    try {
      json = JSON.parse(body.toString('utf8'));
    } catch {
      return 'error body is not JSON';
    }
    const keys = json !== null && typeof json === 'object' && !Array.isArray(json) ? Object.keys(json) : [];
    if (keys.length !== 1 || keys[0] !== 'error' || typeof (json as { error: unknown }).error !== 'string')
      return 'error body is not {"error": string}';
    return undefined;
  }
  if (head || body.length === 0) return undefined;
  // The one operation whose 2xx is not JSON: the spec declares `text/csv` for it. Routes match paths without regard to
  // case, as @koa/router does by default, so `/V1/SCHEDULES/EXPORT` is that operation too
  if (c.path.toLowerCase().startsWith('/v1/schedules/export') && /^text\/csv\b/i.test(type)) return undefined;
  if (!/^application\/json\b/i.test(type)) return `2xx with content type "${type}"`;
  try {
    JSON.parse(body.toString('utf8'));
  } catch {
    return '2xx body is not JSON';
  }
  return undefined;
}

/** A short printable prefix of bytes */
export function prefix(bytes: Buffer | undefined, size = 120): string {
  if (!bytes || bytes.length === 0) return '""';
  const text = JSON.stringify(bytes.subarray(0, size).toString('latin1'));
  return bytes.length > size ? `${text}... (${bytes.length} bytes)` : text;
}
