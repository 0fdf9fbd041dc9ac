/**
 * `await rejects(run, /pattern/)`: passes when `run` (a promise, or a function giving one) rejects with an error
 * whose message matches; fails when it resolves. The assertion is thrown after the try/catch that takes the
 * rejection, so a failing assertion can never be mistaken for the error it expects.
 *
 * @example
 * ```ts
 * await rejects(() => usePlugin({ id: 'schedule-store-file', config }), /unknown format "99"/);
 * ```
 */
import * as assert from 'uvu/assert';

export async function rejects(
  run: Promise<unknown> | (() => Promise<unknown>),
  pattern: RegExp,
  what = 'the call',
): Promise<Error> {
  let caught: unknown;
  let rejected = false;
  try {
    await (typeof run === 'function' ? run() : run);
  } catch (error) {
    caught = error;
    rejected = true;
  }
  if (!rejected) assert.unreachable(`${what} resolved; expected a rejection matching ${pattern}`);
  const error = caught instanceof Error ? caught : new Error(String(caught));
  assert.match(error.message, pattern);
  return error;
}
