import type { Rng } from './random.ts';

// Variable parts of bounce replies. Values are drawn, not listed, so the
// model cannot memorise them; the normaliser is meant to erase most of them.

const FIRST = [
  'john',
  'maria',
  'li.wei',
  'anna',
  'k.tanaka',
  'pierre',
  'olga',
  'j.smith',
  'info',
  'sales',
  'marco',
  'ana.silva',
  'hans',
  'noreply',
  'support',
  'lucia',
  'dmitry',
  'yuki',
  'chen',
  'sophie',
];
const WORDS = [
  'acme',
  'globex',
  'northwind',
  'contoso',
  'initech',
  'umbrella',
  'stark',
  'wayne',
  'hooli',
  'vandelay',
  'soylent',
  'tyrell',
  'cyberdyne',
  'gringotts',
  'monarch',
  'oceanic',
  'pied',
  'piper',
  'blue',
  'river',
  'alpha',
  'nova',
  'mercado',
  'tienda',
  'boutique',
  'shop',
  'news',
  'promo',
  'club',
  'travel',
];
const TLDS = [
  'com',
  'net',
  'org',
  'de',
  'fr',
  'ru',
  'cn',
  'es',
  'it',
  'co.uk',
  'com.br',
  'jp',
  'io',
  'info',
  'nl',
  'pl',
];
const RCPT_DOMAINS = [
  'gmail.com',
  'outlook.com',
  'hotmail.com',
  'yahoo.com',
  'aol.com',
  'icloud.com',
  'comcast.net',
  'gmx.de',
  'web.de',
  'orange.fr',
  'free.fr',
  'mail.ru',
  'yandex.ru',
  'qq.com',
  '163.com',
  'libero.it',
  'uol.com.br',
  'telefonica.net',
  'docomo.ne.jp',
  't-online.de',
];
const VIRUSES = [
  'Eicar-Test-Signature',
  'Win.Trojan.Agent-{n}',
  'Heur.Malware',
  'W32/Emotet.A',
  'JS:Trojan.Cryxos.{n}',
  'Sanesecurity.Phishing.Fake.{n}',
  'Trojan.GenericKD.{n}',
  'Doc.Dropper.Agent-{n}',
];
const HELOS = [
  'localhost',
  'mail',
  'server01',
  'WIN-{ref}',
  'ip-{ipdash}',
  'localhost.localdomain',
  '[{ip}]',
  'exchange',
];
const HEX = '0123456789abcdef';
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';

function chars(rng: Rng, alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[rng.int(0, alphabet.length - 1)];
  return s;
}

function domain(rng: Rng): string {
  const name = rng.next() < 0.5 ? rng.pick(WORDS) : `${rng.pick(WORDS)}-${rng.pick(WORDS)}`;
  return `${rng.next() < 0.3 ? rng.pick(['mail.', 'news.', 'em.', 'send.']) : ''}${name}.${rng.pick(TLDS)}`;
}

function ipv4(rng: Rng): string {
  return `${rng.int(11, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
}

function ip(rng: Rng): string {
  if (rng.next() > 0.1) return ipv4(rng);
  return `2a01:${chars(rng, HEX, 4)}:${chars(rng, HEX, 3)}::${chars(rng, HEX, 2)}`;
}

type Filler = (rng: Rng) => string;

/** Fillers for every `{slot}` name the situation templates use. */
export const SLOTS: Readonly<Record<string, Filler>> = {
  rcpt: (rng) =>
    `${rng.pick(FIRST)}${rng.next() < 0.4 ? rng.int(1, 99) : ''}@${rng.next() < 0.7 ? rng.pick(RCPT_DOMAINS) : domain(rng)}`,
  user: (rng) => rng.pick(FIRST),
  sender: (rng) => `${rng.pick(['newsletter', 'noreply', 'info', 'bounce', 'marketing', 'alerts'])}@${domain(rng)}`,
  domain: (rng) => (rng.next() < 0.5 ? rng.pick(RCPT_DOMAINS) : domain(rng)),
  sdomain: domain,
  udomain: domain,
  ip,
  ipdash: (rng) => ipv4(rng).replaceAll('.', '-'),
  mx: (rng) =>
    `${rng.pick(['mx', 'mx1', 'mx2', 'mail', 'smtp', 'in1', 'mta5', 'mx01'])}.${rng.next() < 0.5 ? rng.pick(RCPT_DOMAINS) : domain(rng)}`,
  host: (rng) => `${rng.pick(['mail', 'out', 'mta', 'smtp'])}${rng.int(1, 40)}.${domain(rng)}`,
  helo: (rng) => rng.pick(HELOS),
  n: (rng) => String(rng.int(1, rng.next() < 0.5 ? 9 : 999)),
  ref: (rng) => chars(rng, ALNUM, rng.int(8, 14)),
  qid: (rng) => chars(rng, HEX, 10).toUpperCase(),
  gid: (rng) =>
    `${chars(rng, HEX, 13)}-${chars(rng, ALNUM, 11)}si${rng.int(1000000, 9999999)}${chars(rng, ALNUM, 3)}.${rng.int(1, 999)}`,
  msh: (rng) =>
    `${rng.pick(['AM', 'BN', 'DB', 'PR', 'CO', 'SN', 'VI'])}${rng.int(1, 9)}${rng.pick(['EUR', 'NAM', 'APC'])}` +
    `${rng.int(10, 99)}FT${rng.int(100, 999)}.eop-${rng.pick(['EUR', 'NAM', 'APC'])}${rng.int(1, 12)}` +
    '.prod.protection.outlook.com',
  virus: (rng) => rng.pick(VIRUSES),
  date: (rng) => `2024-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
};

// Sender-side wording around a remote reply, as the sending MTAs' bounce reports carry it. The reply parser
// strips these before the model reads the text, so the variety here exercises the parser through training.
const WRAPPERS: readonly string[] = [
  // Postfix, with and without the recipient prefix.
  'host {mx}[{ip}] said: {reply} (in reply to {RCPT TO|end of DATA|MAIL FROM} command)',
  '<{rcpt}>: host {mx}[{ip}] said: {reply} (in reply to {RCPT TO|end of DATA|MAIL FROM} command)',
  // Exim.
  'SMTP error from remote mail server after {RCPT TO:<{rcpt}>|end of data|MAIL FROM:<{sender}> SIZE={n}}:\n    host {mx} [{ip}]: {reply}',
  'SMTP error from remote server for {RCPT TO|MAIL FROM|DATA} command, host: {mx} ({ip}) reason: {reply}',
  // Sendmail session transcript.
  '... while talking to {mx}.:\n>>> {RCPT To:<{rcpt}>|DATA|MAIL From:<{sender}> SIZE={n}}\n<<< {reply}',
  // DSN fields.
  'Diagnostic-Code: smtp; {reply}',
  'smtp; {reply}',
  'smtp;{reply}',
  // Exchange and Gmail bounce bodies.
  "Remote Server returned '{reply}'",
  "Remote server returned '{reply}'",
  'The error that the other server returned was: {reply}',
  '{reply} [{mx}]',
];

/** A template cut into literal text and `{...}` bodies, each body split into its top-level alternatives. */
export type TemplatePart = string | readonly string[];

/** Cuts a template into parts; throws on unbalanced braces. */
export function templateParts(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) break;
    let depth = 0;
    let close = open;
    for (; close < template.length; close++) {
      if (template[close] === '{') depth++;
      else if (template[close] === '}' && --depth === 0) break;
    }
    if (close >= template.length) throw new Error(`unbalanced braces in template: ${template}`);
    if (open > i) parts.push(template.slice(i, open));
    parts.push(alternativesOf(template.slice(open + 1, close)));
    i = close + 1;
  }
  if (i < template.length) parts.push(template.slice(i));
  return parts;
}

/** Splits a brace body at `|` outside nested braces. */
function alternativesOf(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === '|' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

/**
 * Fills `{slot}` and `{a|b}` parts, alternatives may nest (`{IP {ip}|your IP}`); `extra` supplies values for
 * non-random slots (inserted as they are, not expanded again).
 */
export function expand(rng: Rng, template: string, extra: Readonly<Record<string, string>> = {}): string {
  let out = '';
  for (const part of templateParts(template)) {
    if (typeof part === 'string') out += part;
    else if (part.length > 1) out += expand(rng, rng.pick(part), extra);
    else if (extra[part[0]!] !== undefined) out += extra[part[0]!];
    else {
      const filler = SLOTS[part[0]!];
      if (!filler) throw new Error(`unknown slot {${part[0]}} in template: ${template}`);
      out += expand(rng, filler(rng));
    }
  }
  return out;
}

/** Wraps a remote SMTP reply in a randomly chosen sending-MTA report format (never leaves it bare). */
export function wrapReply(rng: Rng, reply: string): string {
  return expand(rng, rng.pick(WRAPPERS), { reply });
}
