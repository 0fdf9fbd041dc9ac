/**
 * Counts over a sliding window, by event time: the window is cut into SLOTS buckets, so an event counts wherever its
 * own time falls (events may come late and out of order). A count covers the whole last window and the rest of the
 * bucket its start falls in, so at most an eighth of a window more: an event is never missed while it is in the window.
 * Several columns share the buckets (the attempts and each trigger of a share window). One array of numbers holds it
 * all (a typed array would cost more than its contents at this size, and there may be 200,000 of these): per column
 * the latest time counted and the time before which events no longer count (its trigger's reset), then per slot its
 * bucket number and per column the count and the earliest time counted.
 */
export const SLOTS = 8;
/** Buckets kept: the window's, and the one its start falls in */
const KEPT = SLOTS + 1;

export class SlidingCounts {
  readonly bucketMs: number;
  /** What the hosts sharing counts call these (the engine's key); empty when counted alone */
  readonly series: string;
  readonly columns: number;
  readonly #windowMs: number;
  readonly #stride: number;
  /** Where the slots start, after the columns' latest and reset times */
  readonly #slots: number;
  readonly #data: number[];

  constructor(windowMs: number, columns = 1, series = '') {
    this.series = series;
    this.columns = columns;
    this.bucketMs = Math.max(1, windowMs / SLOTS);
    this.#windowMs = windowMs;
    this.#stride = 1 + 2 * columns;
    this.#slots = 2 * columns;
    // Doubles from the start, so the array never changes its kind
    this.#data = new Array<number>(this.#slots + KEPT * this.#stride).fill(-0.5);
    this.#data.fill(0, 0, this.#slots);
  }

  /**
   * Counts an event of time `t` (ms, not after `now`) in `column`; false when it is not after the column's last reset.
   * An event of the very time a trigger fired (the rest of the batch that fired it) happened before the MTA could obey
   * what it applied, so it must not count toward applying it again
   */
  add(t: number, column: number): boolean {
    const data = this.#data;
    if (t <= data[2 * column + 1]!) return false;
    const bucket = Math.floor(t / this.bucketMs);
    const offset = this.#slots + (bucket % KEPT) * this.#stride;
    // The slot holds an older bucket: it left the window, its counts start again
    if (data[offset] !== bucket) {
      if (data[offset]! > bucket) return false;
      data.fill(0, offset + 1, offset + this.#stride);
      data[offset] = bucket;
    }
    const at = offset + 1 + 2 * column;
    data[at + 1] = data[at] === 0 ? t : Math.min(data[at + 1]!, t);
    data[at]!++;
    if (t > data[2 * column]!) data[2 * column] = t;
    return true;
  }

  /**
   * Counts `n` events of `column` between `first` and `last`, times of one bucket (what another host counted); false
   * when they are not after the column's last reset
   */
  merge(column: number, first: number, last: number, n: number): boolean {
    if (!this.add(last, column)) return false;
    const data = this.#data;
    const at = this.#slots + (Math.floor(last / this.bucketMs) % KEPT) * this.#stride + 1 + 2 * column;
    data[at]! += n - 1;
    data[at + 1] = Math.min(data[at + 1]!, Math.max(first, data[2 * column + 1]!));
    return true;
  }

  /** Every count held, as [column, first, last, n] per bucket and column (a host's counts since it last sent them) */
  entries(): [number, number, number, number][] {
    const found: [number, number, number, number][] = [];
    for (let offset = this.#slots; offset < this.#data.length; offset += this.#stride) {
      if (this.#data[offset]! < 0) continue;
      for (let column = 0; column < this.columns; column++) {
        const at = offset + 1 + 2 * column;
        const n = this.#data[at]!;
        if (n > 0)
          found.push([
            column,
            this.#data[at + 1]!,
            Math.min(this.#data[2 * column]!, (this.#data[offset]! + 1) * this.bucketMs - 1),
            n,
          ]);
      }
    }
    return found;
  }

  /** The time up to which `column` no longer counts (its last reset) */
  floor(column: number): number {
    return this.#data[2 * column + 1]!;
  }

  /** Buckets before this one are out of the window ending at `now` */
  #oldest(now: number): number {
    return Math.floor((now - this.#windowMs) / this.bucketMs) - 1;
  }

  /** Events of `column` in the window ending at `now` */
  count(column: number, now: number): number {
    const oldest = this.#oldest(now);
    let sum = 0;
    for (let offset = this.#slots; offset < this.#data.length; offset += this.#stride) {
      if (this.#data[offset]! > oldest) sum += this.#data[offset + 1 + 2 * column]!;
    }
    return sum;
  }

  /** Times of the first and last event of `column` in the window ending at `now` */
  span(column: number, now: number): { first: number; last: number } {
    const oldest = this.#oldest(now);
    let first = Infinity;
    for (let offset = this.#slots; offset < this.#data.length; offset += this.#stride) {
      const at = offset + 1 + 2 * column;
      if (this.#data[offset]! > oldest && this.#data[at]! > 0) first = Math.min(first, this.#data[at + 1]!);
    }
    return { first, last: this.#data[2 * column]! };
  }

  /** What `column` holds, for `restore` */
  save(column: number): number[] {
    const saved = [this.#data[2 * column + 1]!];
    for (let offset = this.#slots; offset < this.#data.length; offset += this.#stride) {
      saved.push(this.#data[offset]!, this.#data[offset + 1 + 2 * column]!, this.#data[offset + 2 + 2 * column]!);
    }
    return saved;
  }

  /** Undoes a `reset` of `column` made after `save`: what it held is counted again, beside what came since */
  restore(column: number, saved: readonly number[]): void {
    this.#data[2 * column + 1] = saved[0]!;
    for (let slot = 0, offset = this.#slots; offset < this.#data.length; slot++, offset += this.#stride) {
      const [bucket, n, first] = [saved[1 + 3 * slot]!, saved[2 + 3 * slot]!, saved[3 + 3 * slot]!];
      const at = offset + 1 + 2 * column;
      if (n === 0 || this.#data[offset] !== bucket) continue;
      this.#data[at + 1] = this.#data[at] === 0 ? first : Math.min(this.#data[at + 1]!, first);
      this.#data[at]! += n;
    }
  }

  /** Forgets what `column` counted: only events after `now` count again */
  reset(column: number, now: number): void {
    for (let offset = this.#slots; offset < this.#data.length; offset += this.#stride)
      this.#data[offset + 1 + 2 * column] = 0;
    this.#data[2 * column + 1] = now;
  }

  /** True when nothing counted is still in the window ending at `now` */
  idle(now: number): boolean {
    const oldest = this.#oldest(now);
    for (let offset = this.#slots; offset < this.#data.length; offset += this.#stride)
      if (this.#data[offset]! > oldest) return false;
    return true;
  }
}
