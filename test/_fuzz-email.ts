/**
 * A seeded stream of `POST /v1/bounce-email` requests for `test/bounce-email-fuzz.test.ts`: the fixtures of
 * `plugins/bounce-classifier/email/fixtures/`, cut, spliced and mutated where MIME parsers break (boundaries,
 * charsets, transfer encodings, nesting, header sizes, recipient counts, binary bytes), as raw bodies and as JSON.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Rng } from '../scripts/corpus/random.ts';
import type { Case } from './_fuzz.ts';

const FIXTURES = join(import.meta.dirname, '../plugins/bounce-classifier/email/fixtures');
const EMAILS = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.eml'))
  .sort()
  .map((f) => readFileSync(join(FIXTURES, f)));
const CHARSETS = [
  'utf-8',
  'iso-2022-jp',
  'utf-16',
  'utf-7',
  'x-no-such',
  '',
  '"',
  'gb18030',
  'windows-1252',
  'koi8-r',
  'iso-8859-1;;;',
];
const ENCODINGS = ['base64', 'quoted-printable', 'x-uuencode', '8bit', 'binary', '', 'BASE64 ; x'];
const TYPES = [
  'message/rfc822',
  'MESSAGE/RFC822',
  'message/rfc822; charset=utf-8',
  'application/json',
  'text/plain',
  '',
];

type Mutation = (email: Buffer, rng: Rng) => Buffer;

const text = (b: Buffer) => b.toString('latin1');
const bytes = (s: string) => Buffer.from(s, 'latin1');

const MUTATIONS: Mutation[] = [
  (e, r) => e.subarray(0, r.int(0, e.length)),
  (e, r) => {
    const out = Buffer.from(e);
    for (let i = r.int(1, 40); i > 0; i--) out[r.int(0, Math.max(0, out.length - 1))] = r.int(0, 255);
    return out;
  },
  (e, r) => bytes(text(e).replace(/charset="?[\w-]+"?/gi, () => `charset=${r.pick(CHARSETS)}`)),
  (e, r) =>
    bytes(
      text(e).replace(/^(Content-Type: text\/plain[^\n]*)$/im, `$1\nContent-Transfer-Encoding: ${r.pick(ENCODINGS)}`),
    ),
  (e, r) =>
    bytes(
      text(e).replace(
        /boundary="?([^";\s]+)"?/i,
        () => `boundary="${r.pick(['', '-', '--', 'x'.repeat(r.int(1, 3000)), '\u00ff\u00fe'])}"`,
      ),
    ),
  (e) => bytes(text(e).replace(/^--[^\n]*--\s*$/m, '')),
  (e, r) =>
    bytes(text(e).replace(/^(Final-Recipient:[^\n]*\n(?:[^\n]+\n)*)/m, (group) => `${group}\n`.repeat(r.int(2, 3000)))),
  (e, r) => {
    const depth = r.int(10, 400);
    const open = Array.from(
      { length: depth },
      (_, i) => `Content-Type: multipart/mixed; boundary="n${i}"\n\n--n${i}\n`,
    ).join('');
    return Buffer.concat([bytes(`From: a@example.org\n${open}`), e]);
  },
  (e, r) => Buffer.concat([bytes(`X-Long: ${'a'.repeat(r.int(1000, 3_000_000))}\n`), e]),
  (e, r) => Buffer.concat([e.subarray(0, r.int(0, e.length)), r.pick(EMAILS).subarray(r.int(0, 2000))]),
  (e, r) => bytes(text(e).replace(/\n/g, () => r.pick(['\n', '\r\n', '\r', '\n\n', '\n ']))),
  (e, r) => bytes(text(e).replace(/=([0-9A-F]{2})/g, () => `=${r.pick(['', 'Z', '\n', 'FF', '=='])}`)),
  (_e, r) => Buffer.from(Array.from({ length: r.int(0, 4000) }, () => r.int(0, 255))),
  (_e, r) =>
    bytes(
      `From: a@example.org\nSubject: ${r.pick(['Undelivered Mail', 'Auto-Reply', 'Unzustellbar'])}\n\n${`550 5.1.1 <u${r.int(0, 9)}@example.net> unknown\n`.repeat(r.int(1, 5000))}`,
    ),
  (e, r) => bytes(text(e).replace(/\{/g, () => r.pick(['{', '[', '{"notificationType":', '}']))),
  (e, r) =>
    bytes(
      text(e).replace(
        /^Content-Type: message\/delivery-status/im,
        `Content-Type: ${r.pick(['message/global-delivery-status', 'message/delivery-status; charset=x', 'application/octet-stream', 'text/rfc822-headers'])}`,
      ),
    ),
  (e) => e,
];

export class EmailFuzz {
  readonly #rng: Rng;
  #n = 0;

  constructor(seed: number) {
    this.#rng = new Rng(seed);
  }

  next(path: string, key: string): Case {
    const r = this.#rng;
    let email: Buffer = r.pick(EMAILS);
    for (let i = r.int(1, 3); i > 0; i--) email = r.pick(MUTATIONS)(email, r);
    const type = r.pick(TYPES);
    const asJson = type === 'application/json';
    const body = asJson
      ? Buffer.from(
          r.next() < 0.9
            ? JSON.stringify({ email: email.toString(r.pick(['utf8', 'latin1'] as const)) })
            : r.pick(['{"email":1}', '{"email":null}', '{}', '{"email":"x","y":1}', '[', '"email"']),
        )
      : email;
    const headers: Record<string, string> = { 'x-api-key': key };
    if (type !== '') headers['content-type'] = type;
    return { n: this.#n++, method: 'POST', path, headers, body };
  }
}
