import type { components } from '../../../generated/types/bounce-classifier.ts';

/** One operator's correction, as the API answers it */
export type Correction = components['schemas']['Correction'];

/** A `put` that would keep more corrections than the limit: nothing was written */
export class CorrectionsFull extends Error {
  constructor(
    readonly kept: number,
    readonly max: number,
  ) {
    super(`corrections are full: ${kept} kept, at most ${max}`);
  }
}

/** How a `put` replaces and how many it may keep */
export interface PutOptions {
  /** A correction of the same reply stored under another normaliser's text, replaced too */
  replacing?: string;
  /** Corrections kept at most, the new one counted: past it the put throws `CorrectionsFull` */
  maxCount: number;
}

/**
 * Where corrections are kept: a file of one host, or PostgreSQL shared by many. Writes answer what they replaced or
 * removed; `watch` hears of every change, this host's and other hosts', and the listener re-reads `list`
 */
export interface CorrectionStore {
  /** Every correction, oldest first */
  list(): Promise<Correction[]>;
  /** The newest `limit` corrections, oldest first, and how many there are in all */
  newest(limit: number): Promise<{ corrections: Correction[]; total: number }>;
  /**
   * Stores a correction, replacing one of the same normalised text (and `replacing`), in one change: answers the
   * replaced one
   */
  put(correction: Correction, options: PutOptions): Promise<Correction | undefined>;
  /** Removes one: answers it, or undefined when no correction has this id */
  delete(id: string): Promise<Correction | undefined>;
  /**
   * Calls `listener` after each change, once the store listens; a lost connection counts as a change. For a change of
   * this host's, before the write resolves: a writer that awaits the read the listener starts sees its own change
   */
  watch(listener: () => void): Promise<void>;
  close(): Promise<void>;
}
