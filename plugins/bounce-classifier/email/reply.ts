/**
 * Shared readers of reply text: the forms and the DSN parser cut replies out of prose with these, and only these.
 *
 * `parseReply` (plugins/bounce-model/reply.ts) is the full reply parser, but a plugin imports only runtime/mod.ts,
 * generated/ and its own folder, and the classifier service exposes `normalise` only. So this keeps the rules that
 * matter for the forms in step with it: a status never runs on into an IPv4 address, and the sending MTA's tails
 * (Postfix's `(in reply to RCPT TO command)`, Exchange's `(delivery attempts: N)`) are wrapper, not reply.
 */

/** An address in text, in angle brackets or bare; bounded parts keep a scan of long tokens linear */
export const ADDRESS = /<?([^\s<>()"',;:@]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.[a-z]{2,63})>?/i;

// Not part of a dotted run either side, so `client 5.10.20.30` or `192.0.2.10` hold no status (as in parseReply)
const ENHANCED = /(?<![\d.])([245])\.(\d{1,3})\.(\d{1,3})(?!\.?\d)/;
/** A line that starts an SMTP reply: a reply code, optionally continued (`550-`), optionally an enhanced code */
const REPLY_LINE = /(?:^|[\s:'"(])([45]\d\d(?:[ -]#?[245]\.\d{1,3}\.\d{1,3})?[ -]\S.*)$/;

/** Folded lines joined into one, whitespace collapsed */
export function unfold(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Paragraphs of a text: runs of lines between blank lines (a split on `\n\s*\n` is quadratic on blank runs) */
export function paragraphs(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() !== '') current.push(line);
    else if (current.length > 0) {
      out.push(current.join('\n'));
      current = [];
    }
  }
  if (current.length > 0) out.push(current.join('\n'));
  return out;
}

/** The enhanced status code a text holds (`5.1.1`), if any */
export function statusIn(text: string): string | undefined {
  const match = ENHANCED.exec(text);
  return match ? `${match[1]}.${match[2]}.${match[3]}` : undefined;
}

/** The action a status or reply code implies (4 delayed, 5 failed, 2 delivered), for text that does not say */
export function actionOf(status: string | undefined, fallback: string): string {
  if (!status) return fallback;
  return status[0] === '4' ? 'delayed' : status[0] === '2' ? 'delivered' : 'failed';
}

/**
 * Where a sending MTA's words end and the remote's reply starts: `said:` (Postfix, qmail's and Yahoo's `Remote host
 * said:`), Exim's `host h [ip]:` and `SMTP error from remote mail server after RCPT TO:<x>:`, Exchange's `returned '`.
 * Trusted even when no code follows; the last one wins (wrappers nest outside-in).
 */
const MARKER =
  /(?:\b(?:said|replied|host [^\s[\]]{1,255} ?\[[^\]\s]{1,64}\]|SMTP error from remote (?:mail server|mailer) after (?:[A-Z ]{1,40}: ?<[^>]{0,320}>|[^:<]{0,100})):|\breturned\s*(')) */gi;
/** A sending MTA's note after the reply: Postfix's `(in reply to RCPT TO command)`, Exchange's `(delivery attempts: N)` */
const TAIL = /\s*[([](?:in reply to [^()[\]]*|delivery attempts: \d+)[)\]]\s*$/i;

/** A reply without the notes a sending MTA appends to it */
export function withoutTail(reply: string): string {
  let out = reply;
  for (let pass = 0; pass < 4 && TAIL.test(out); pass++) out = out.replace(TAIL, '');
  return out.trim();
}

/**
 * The remote's reply in a sending MTA's text, unfolded and without the MTA's tail: what follows the last wrapper
 * marker (`said:`, `host h [ip]:`, `returned '...'`) up to a blank line, else the first SMTP reply line and its
 * continuation lines. Undefined when the text holds neither.
 */
export function replyIn(text: string): string | undefined {
  let marker: RegExpExecArray | null = null;
  MARKER.lastIndex = 0;
  for (let m; (m = MARKER.exec(text)); ) marker = m;
  if (marker) {
    let rest = text.slice(marker.index + marker[0].length);
    const blank = /\n[ \t\r]*\n/.exec(rest);
    if (blank) rest = rest.slice(0, blank.index);
    if (marker[1]) {
      const close = rest.lastIndexOf(marker[1]);
      if (close >= 0) rest = rest.slice(0, close);
    }
    const reply = withoutTail(unfold(rest));
    if (reply !== '') return reply;
  }
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const match = REPLY_LINE.exec(lines[i]!.trimEnd());
    if (!match) continue;
    const parts = [match[1]!.trim()];
    // A multi-line reply continues after a `550-` line with lines of its code, and wrapped prose with indented lines;
    // a line with another code (a transcript's next reply) starts a reply of its own
    for (let j = i + 1; j < lines.length && parts.length < 20; j++) {
      const line = lines[j]!;
      const previous = parts.at(-1)!;
      const continued = /^[45]\d\d-/.test(previous) && line.startsWith(previous.slice(0, 3));
      if (line.trim() === '' || !(/^\s/.test(line) || continued)) break;
      parts.push(line.trim());
    }
    return withoutTail(unfold(parts.join(' ')));
  }
  return undefined;
}

/** The remote's reply in a sending MTA's text (`replyIn`), else the whole text unfolded, less the MTA's tail */
export function replyOrText(text: string): string {
  return replyIn(text) ?? withoutTail(unfold(text));
}

/** Strips a `type;` prefix such as `smtp;`, `rfc822;`, `dns;` (RFC 3464 typed fields) */
export function untyped(value: string): string {
  return value.replace(/^\s*[\w-]+\s*;\s*/, '').trim();
}

/** An address without angle brackets, lower case domain kept as sent */
export function bareAddress(value: string): string {
  const match = ADDRESS.exec(value);
  return match ? match[1]! : value.replace(/[<>]/g, '').trim();
}
