/**
 * 1&1's mailer (GMX, web.de, IONOS) cuts the text of each line of the remote's reply, after its code (`550-`), into
 * pieces of 70 characters, each piece on a line of its own with nothing taken out, as often inside a word as not
 * (`550 5.1.1  https://... f6si2517766wmc.21` then `9 - gsmtp`; `... Please` then ` try`). Read as a fold, such a
 * break would add a space the server never sent: the pieces are put back together before the readers see the text.
 */

/** The mailer's own words before the reply, up to where the reply starts */
const WRAPPER =
  /SMTP error from remote server for [A-Za-z ]{1,20} command, host: [^\s()]{1,255} \([^\s()]{1,64}\) reason: /;
const WIDTH = 70;
/** A line that starts another line of the reply: it is no piece of a cut one */
const REPLY_LINE = /^[2-5]\d\d[ -]/;

/** The length of a reply line's text after its code, or of a piece after the first */
function textLength(line: string, first: boolean): number {
  return first && REPLY_LINE.test(line) ? line.length - 4 : line.length;
}

export function rejoinHardWraps(text: string): string {
  if (!text.includes('SMTP error from remote server')) return text;
  const lines = text.split(/\r?\n/);
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const wrapper = WRAPPER.exec(lines[i]!);
    if (!wrapper) {
      out.push(lines[i]!);
      continue;
    }
    // The reply's pieces carry the wrapper line's indent (an indented list of recipients), and nothing else of it
    const indent = /^[ \t]*/.exec(lines[i]!)![0];
    let line = lines[i]!;
    // Characters since the last cut: only a piece of exactly the width was cut
    let piece = textLength(line.slice(wrapper.index + wrapper[0].length), true);
    while (i + 1 < lines.length) {
      const next = lines[i + 1]!.startsWith(indent) ? lines[i + 1]!.slice(indent.length) : lines[i + 1]!;
      if (next.trim() === '') break;
      const first = REPLY_LINE.test(next);
      if (first) {
        out.push(line);
        line = lines[i + 1]!;
      } else if (piece === WIDTH) {
        line += next;
      } else {
        break;
      }
      piece = textLength(next, first);
      i++;
    }
    out.push(line);
  }
  return out.join('\n');
}
