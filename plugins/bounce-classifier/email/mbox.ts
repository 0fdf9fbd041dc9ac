/**
 * The messages of an mbox file (RFC 4155): a file whose first line is a `From ` separator holds one message per
 * separator, each separator line after a blank line. Lines a writer quoted as `>From ` (mboxrd) lose one `>`.
 * Undefined for a file that is not an mbox, so one email is read as one. One forward scan: linear in the file.
 */
export function mboxMessages(raw: Buffer): Buffer[] | undefined {
  if (!raw.subarray(0, 5).equals(SEPARATOR)) return undefined;
  const starts: number[] = [0];
  for (let at = raw.indexOf(NEXT); at >= 0; at = raw.indexOf(NEXT, at + 1)) starts.push(at + 2);
  return starts.map((start, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]! - 1 : raw.length;
    // The separator line itself is no header of the message
    const body = raw.subarray(raw.indexOf(0x0a, start) + 1 || end, end).toString('latin1');
    return Buffer.from(body.replace(/^>(>*From )/gm, '$1'), 'latin1');
  });
}

const SEPARATOR = Buffer.from('From ', 'latin1');
/** A separator: `From ` at the start of a line after a blank line */
const NEXT = Buffer.from('\n\nFrom ', 'latin1');
