/**
 * What the file-store benches share: the IPs they fill a store with, each new IP's 5 AUTO groupings, the concurrent
 * writers that time the writes, and the group commit of their baselines
 */

/** Store sizes, in IPs, the benches measure at */
export const SIZES = [1000, 10_000, 50_000];
/** Writes measured before each size is reached */
export const WINDOW = 1000;

/** The `n`th IP written: distinct up to 2^24 */
export const ipOf = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

/** The 5 AUTO groupings of new IP `n`, as a client sends them, from `start` to `end` (`YYYY-MM-DD`) */
export function groupingsOf(n: number, start: string, end: string) {
  return ['&gmail', '&yahoo', '&outlook', '&icloud', '&other'].map((grouping) => ({
    grouping,
    mode: 'AUTO',
    start: { date: start, volume: n + 1 },
    end: { date: end, volume: 100_000 },
  }));
}

/** Rate (writes/s), p99 and max (ms) of timed writes */
export interface WriteFigures {
  rate: number;
  p99: number;
  max: number;
}

/** Writes IPs `from` to `to - 1`, `writers` at once, each write waiting for its answer */
export async function timeWrites(
  writers: number,
  write: (n: number) => Promise<unknown>,
  from: number,
  to: number,
): Promise<WriteFigures> {
  const times: number[] = [];
  let next = from;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < to) {
        const n = next++;
        const begun = performance.now();
        await write(n);
        times.push(performance.now() - begun);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return {
    rate: (to - from) / ((performance.now() - started) / 1000),
    p99: times[Math.floor(times.length * 0.99)]!,
    max: times.at(-1)!,
  };
}

/**
 * A group commit, the baselines' floor: writes queue while one group is flushed, then go as the next group. Answers
 * the function a writer calls, resolved once its value's group is flushed
 */
export function groupCommit<T>(flush: (group: T[]) => Promise<void>): (value: T) => Promise<void> {
  let queue: { value: T; done: () => void }[] = [];
  let flushing = false;
  const drain = async () => {
    flushing = true;
    while (queue.length > 0) {
      const group = queue;
      queue = [];
      await flush(group.map(({ value }) => value));
      for (const { done } of group) done();
    }
    flushing = false;
  };
  return (value) =>
    new Promise((done) => {
      queue.push({ value, done });
      if (!flushing) void drain();
    });
}
