/**
 * The messages of an mbox file (RFC 4155): a file whose first line is a `From ` separator holds one message per
 * separator, each separator line after a blank line. Lines a writer quoted as `>From ` (mboxrd) lose one `>`.
 * Read as a stream of chunks, so memory stays flat on a file of any size: at most one message (up to `maxBytes`)
 * and one chunk are held at a time. One forward scan: linear in the file.
 */

const SEPARATOR = Buffer.from('From ', 'latin1');
/** A separator: `From ` at the start of a line after a blank line */
const NEXT = Buffer.from('\n\nFrom ', 'latin1');

/** Whether a file's first bytes make it an mbox */
export function isMbox(head: Buffer): boolean {
  return head.subarray(0, SEPARATOR.length).equals(SEPARATOR);
}

/** One message of an mbox: its bytes without the separator line, or `oversize` (none of its bytes held) */
export interface MboxMessage {
  /** 1-based position in the file */
  number: number;
  bytes: Buffer;
  /** The message was longer than the limit: it was skipped as it streamed by, and `bytes` is empty */
  oversize: boolean;
}

/** A message's bytes as read: the separator line dropped, mboxrd's `>From ` quoting undone */
function unquoted(raw: Buffer): Buffer {
  const body = raw.subarray(raw.indexOf(0x0a) + 1 || raw.length).toString('latin1');
  return Buffer.from(body.replace(/^>(>*From )/gm, '$1'), 'latin1');
}

/**
 * The messages of an mbox read from `chunks` (a file stream), in order. A message longer than `maxBytes` is not
 * held: what was held of it is let go once it passes the limit, the rest skipped, and it comes marked `oversize`.
 */
export async function* mboxMessages(chunks: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<MboxMessage> {
  let pieces: Buffer[] = [];
  let held = 0;
  let oversize = false;
  let number = 0;
  let carry = Buffer.alloc(0);
  const add = (piece: Buffer) => {
    if (oversize) return;
    if (held + piece.length > maxBytes) {
      // No answer is read from part of a message: none of it is kept
      oversize = true;
      pieces = [];
      held = 0;
      return;
    }
    if (piece.length === 0) return;
    // A copy: the chunk it is cut from is not held once read
    pieces.push(Buffer.from(piece));
    held += piece.length;
  };
  const finish = (): MboxMessage => {
    const message = {
      number: ++number,
      bytes: oversize ? Buffer.alloc(0) : unquoted(Buffer.concat(pieces, held)),
      oversize,
    };
    pieces = [];
    held = 0;
    oversize = false;
    return message;
  };
  for await (const chunk of chunks) {
    const data = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    let from = 0;
    for (let at = data.indexOf(NEXT); at >= 0; at = data.indexOf(NEXT, at + 1)) {
      // The message keeps its last line end; the blank line before `From ` is the separator's
      add(data.subarray(from, at + 1));
      yield finish();
      from = at + 2;
    }
    // The last bytes may start a separator that the next chunk completes
    const keep = Math.max(from, data.length - (NEXT.length - 1));
    add(data.subarray(from, keep));
    carry = Buffer.from(data.subarray(keep));
  }
  add(carry);
  if (held > 0 || oversize) yield finish();
}
