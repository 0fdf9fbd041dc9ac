/** Tags that end a line: `<br>`, `<hr>`, and the ends of blocks */
const BREAK = /(?:br|\/p|\/div|\/tr|\/li|\/h\d|\/table|hr)\b/iy;
/** Tags whose content is not text, up to their end tag */
const INVISIBLE = /(style|script|head)\b/iy;
const ENTITY = /&(#x[0-9a-f]+|#\d+|[a-z]+);/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/**
 * HTML as plain text, one line per block or line break: NDRs from Microsoft servers come as HTML only. One pass from
 * tag to tag, so that text full of `<` without `>` (where a tag pattern retried at each `<` is quadratic) stays linear.
 */
export function htmlToText(html: string): string {
  const out: string[] = [];
  // Where each invisible tag's next end tag is, once searched: never searched twice over the same text
  const ends = new Map<string, { at: number; length: number }>();
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    const close = open < 0 ? -1 : html.indexOf('>', open + 1);
    // No tag closes after here: the rest is text
    if (close < 0) {
      out.push(html.slice(at));
      break;
    }
    out.push(html.slice(at, open));
    at = close + 1;
    BREAK.lastIndex = open + 1;
    if (BREAK.test(html)) {
      out.push('\n');
      continue;
    }
    INVISIBLE.lastIndex = open + 1;
    const invisible = INVISIBLE.exec(html)?.[1]?.toLowerCase();
    if (invisible === undefined) continue;
    let end = ends.get(invisible);
    if (end === undefined || (end.at >= 0 && end.at < at)) {
      const pattern = new RegExp(`</${invisible}\\s*>`, 'gi');
      pattern.lastIndex = at;
      const match = pattern.exec(html);
      end = { at: match ? match.index : -1, length: match ? match[0].length : 0 };
      ends.set(invisible, end);
    }
    if (end.at >= 0) at = end.at + end.length;
  }
  return out
    .join('')
    .replace(ENTITY, (all, name: string) => {
      if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? all;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    })
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n');
}
