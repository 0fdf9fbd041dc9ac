import { CapstanError } from '../../../runtime/mod.ts';
import type { PoolHandle } from '../../../runtime/mod.ts';
import { scanEmail } from './mime.ts';
import { readBounce } from './parse.ts';
import type { BounceReport } from './types.ts';
import type { ReadAnswer } from './worker.ts';

/**
 * Most a kept email may hold to be read on the request thread: every real bounce (a few hundred lines, a handful of
 * parts) is, where a pool round trip would cost more than reading it; the MIME library and the readers pay about
 * 10 µs a line, so this bounds a request's own time on the event loop at about 10 ms of CPU beside the scan
 */
export const INLINE = { bytes: 64 * 1024, lines: 1_000, parts: 32 };

/**
 * What an HTTP request's email is: scanned on the request thread (linear, a byte search; 400 and 413 answered here),
 * then read there when small, else in the worker pool, so that a large or hostile email holds a worker and not the
 * event loop that answers every other client
 */
export async function readRequestEmail(
  raw: Buffer,
  pool: PoolHandle | undefined,
  signal?: AbortSignal,
): Promise<BounceReport> {
  const kept = scanEmail(raw);
  if (!pool || (kept.bytes.length <= INLINE.bytes && kept.lines <= INLINE.lines && kept.parts <= INLINE.parts))
    return readBounce(kept.bytes);
  const answer = await pool.run<ReadAnswer>(kept.bytes, { signal });
  if ('refused' in answer)
    throw new CapstanError(answer.refused.code, answer.refused.message, {
      status: answer.refused.status,
      expose: true,
    });
  return answer.report;
}
