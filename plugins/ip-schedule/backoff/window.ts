/**
 * Counts over a sliding window, by event time: the window is cut into SLOTS buckets, so an event counts wherever its
 * own time falls (events may come late and out of order) and a count covers the last window to within one bucket.
 * Several columns share the buckets (the attempts and each trigger of a share window). One Float64Array holds it all:
 * per slot its bucket number, then per column the count and the earliest time counted.
 */
export const SLOTS = 8;

export class SlidingCounts {
  readonly bucketMs: number;
  readonly #stride: number;
  readonly #data: Float64Array;
  /** Per column: the latest time counted, and the time before which events no longer count (a trigger's reset) */
  readonly #last: Float64Array;
  readonly #since: Float64Array;

  constructor(windowMs: number, columns = 1) {
    this.bucketMs = Math.max(1, windowMs / SLOTS);
    this.#stride = 1 + 2 * columns;
    this.#data = new Float64Array(SLOTS * this.#stride).fill(-1);
    this.#last = new Float64Array(columns);
    this.#since = new Float64Array(columns);
  }

  /** Counts an event of time `t` (ms, not after `now`) in `column`; false when it is before the column's last reset */
  add(t: number, column: number): boolean {
    if (t < this.#since[column]!) return false;
    const bucket = Math.floor(t / this.bucketMs);
    const offset = (bucket % SLOTS) * this.#stride;
    const data = this.#data;
    // The slot holds an older bucket: it left the window, its counts start again
    if (data[offset] !== bucket) {
      if (data[offset]! > bucket) return false;
      data.fill(0, offset + 1, offset + this.#stride);
      data[offset] = bucket;
    }
    const at = offset + 1 + 2 * column;
    data[at + 1] = data[at] === 0 ? t : Math.min(data[at + 1]!, t);
    data[at]!++;
    if (t > this.#last[column]!) this.#last[column] = t;
    return true;
  }

  /** Events of `column` in the window ending at `now` */
  count(column: number, now: number): number {
    const oldest = Math.floor(now / this.bucketMs) - SLOTS;
    let sum = 0;
    for (let offset = 0; offset < this.#data.length; offset += this.#stride) {
      if (this.#data[offset]! > oldest) sum += this.#data[offset + 1 + 2 * column]!;
    }
    return sum;
  }

  /** Times of the first and last event of `column` in the window ending at `now` */
  span(column: number, now: number): { first: number; last: number } {
    const oldest = Math.floor(now / this.bucketMs) - SLOTS;
    let first = Infinity;
    for (let offset = 0; offset < this.#data.length; offset += this.#stride) {
      const at = offset + 1 + 2 * column;
      if (this.#data[offset]! > oldest && this.#data[at]! > 0) first = Math.min(first, this.#data[at + 1]!);
    }
    return { first, last: this.#last[column]! };
  }

  /** Forgets what `column` counted: only events from `now` on count again */
  reset(column: number, now: number): void {
    for (let offset = 0; offset < this.#data.length; offset += this.#stride) this.#data[offset + 1 + 2 * column] = 0;
    this.#since[column] = now;
  }

  /** True when nothing counted is still in the window ending at `now` */
  idle(now: number): boolean {
    const oldest = Math.floor(now / this.bucketMs) - SLOTS;
    for (let offset = 0; offset < this.#data.length; offset += this.#stride) if (this.#data[offset]! > oldest) return false;
    return true;
  }
}
