const BREAKS = /<(?:br|\/p|\/div|\/tr|\/li|\/h\d|\/table|hr)\b[^>]*>/gi;
const INVISIBLE = /<(style|script|head)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const TAG = /<[^>]*>/g;
const ENTITY = /&(#x[0-9a-f]+|#\d+|[a-z]+);/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** HTML as plain text, one line per block or line break: NDRs from Microsoft servers come as HTML only */
export function htmlToText(html: string): string {
  return html
    .replace(INVISIBLE, '')
    .replace(BREAKS, '\n')
    .replace(TAG, '')
    .replace(ENTITY, (all, name: string) => {
      if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? all;
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    })
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n');
}
