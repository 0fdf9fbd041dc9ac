import { rng } from '../train/linear-train.ts';

/** The training's seeded PRNG with the helpers the corpus generator needs: corpus and training reproduce byte for byte. */
export class Rng {
  /** Uniform float in [0, 1). */
  readonly next: () => number;

  constructor(seed: number) {
    this.next = rng(seed);
  }

  /** Uniform integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Fisher-Yates shuffle in place. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }
}
