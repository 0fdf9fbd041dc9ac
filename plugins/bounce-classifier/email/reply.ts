/** Shared readers of reply text: the forms and the DSN parser cut replies out of prose with these */

/** An address in text, in angle brackets or bare; bounded parts keep a scan of long tokens linear */
export const ADDRESS = /<?([^\s<>()"',;:@]{1,64}@[a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63}){0,8}\.[a-z]{2,63})>?/i;

const ENHANCED = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/;
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

/** The first SMTP reply in a text and what follows it on the following reply lines, joined */
export function replyIn(text: string): string | undefined {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const match = REPLY_LINE.exec(lines[i]!.trimEnd());
    if (!match) continue;
    const parts = [match[1]!.trim()];
    // A multi-line reply continues with `550-` lines, and wrapped prose with indented lines
    for (let j = i + 1; j < lines.length && parts.length < 20; j++) {
      const line = lines[j]!;
      if (line.trim() === '' || !(/^\s/.test(line) || /^[45]\d\d[ -]/.test(line))) break;
      parts.push(line.trim());
    }
    return unfold(parts.join(' '));
  }
  return undefined;
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
