/**
 * Checksummed blocks for append-only files: a header line `B <crc32 hex> <payload bytes> <tag>` and the payload.
 * A block is appended whole or torn by a crash; a reader trusts only blocks whose length and checksum match, so a
 * torn tail or a corrupt sector is found, never read as data. What a damaged stretch means (skip it, cut it off,
 * refuse the file) is the owner's choice: the classifier's result cache skips it, the schedule store cuts off a torn
 * tail and refuses damage anywhere else.
 */
import { crc32 } from 'node:zlib';

const HEADER_RE = /^B ([0-9a-f]{8}) (\d+) (.*)$/;
const NEWLINE = 0x0a;

/** A block read back, or a damaged stretch (consecutive unreadable lines merged); `start`/`end` are byte offsets */
export type ScannedBlock =
  | { kind: 'block'; tag: string; payload: Buffer; start: number; end: number }
  | { kind: 'damage'; start: number; end: number };

/** One block holding `payload` (text, counted in UTF-8 bytes), labelled `tag` (one line, no newline) */
export function encodeBlock(tag: string, payload: string): string {
  const checksum = crc32(payload).toString(16).padStart(8, '0');
  return `B ${checksum} ${Buffer.byteLength(payload)} ${tag}\n${payload}`;
}

/**
 * The blocks of `data` in order. After an unreadable header or a block whose length or checksum is wrong, reading
 * resynchronises on the next line, which may start a good block
 */
export function* scanBlocks(data: Buffer): Generator<ScannedBlock> {
  let damage: { start: number; end: number } | undefined;
  let start = 0;
  while (start < data.length) {
    const end = data.indexOf(NEWLINE, start);
    const match = end < 0 ? null : HEADER_RE.exec(data.toString('utf8', start, end));
    const length = match ? Number(match[2]) : -1;
    const payload = match && end + 1 + length <= data.length ? data.subarray(end + 1, end + 1 + length) : undefined;
    if (!payload || crc32(payload).toString(16).padStart(8, '0') !== match![1]) {
      const next = end < 0 ? data.length : end + 1;
      if (damage) damage.end = next;
      else damage = { start, end: next };
      start = next;
      continue;
    }
    if (damage) yield { kind: 'damage', ...damage };
    damage = undefined;
    yield { kind: 'block', tag: match![3]!, payload, start, end: end + 1 + length };
    start = end + 1 + length;
  }
  if (damage) yield { kind: 'damage', ...damage };
}
