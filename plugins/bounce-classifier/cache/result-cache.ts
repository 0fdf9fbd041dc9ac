import { LRUCache } from 'lru-cache';
import type { components } from '../../../generated/types/bounce-classifier.ts';
import type { Classification, ClassifierModel, Logger } from '../../../runtime/mod.ts';
import { FileLog } from './file-log.ts';
import type { LogRecord } from './file-log.ts';

/** Cache settings after the environment and config are merged */
export interface CacheSettings {
  enabled: boolean;
  /** Folder of the persisted log */
  folder: string;
  /** Bytes the memory tier may hold, and the files on disk */
  maxSize: number;
}

/** Body of `GET /v1/cache/stats` */
export type CacheStats = components['schemas']['CacheStats'];

/** Body of `GET /v1/cache/info` */
export type CacheInfo = components['schemas']['CacheInfo'];

/** Results below this probability go to the small tier, so they never crowd out confident ones */
const UNSURE_BELOW = 0.5;
/** Share of `maxSize` given to unsure results */
const UNSURE_SHARE = 1 / 8;
/** Estimated bytes of an entry beside its UTF-16 key: the result object and the LRU's bookkeeping */
const ENTRY_OVERHEAD = 64;

/**
 * The classification cache: two byte-bounded LRUs in memory (confident and unsure results) in front of the
 * classifier, and an append-only log on disk behind them that refills them at start. Keys are the model and
 * the normalised text; the model's version names the whole cache, and persisted records of other versions
 * are dropped, so a new model never answers with an old class.
 */
export class ResultCache {
  readonly settings: CacheSettings;
  readonly #confident: LRUCache<string, Classification>;
  readonly #unsure: LRUCache<string, Classification>;
  #file: FileLog | undefined;
  #hits = 0;
  #misses = 0;
  #sets = 0;
  #getMs = 0;
  #setMs = 0;

  private constructor(settings: CacheSettings) {
    this.settings = settings;
    const sizeCalculation = (_value: Classification, key: string) => key.length * 2 + ENTRY_OVERHEAD;
    const unsureSize = Math.max(1, Math.floor(settings.maxSize * UNSURE_SHARE));
    this.#confident = new LRUCache({ maxSize: Math.max(1, settings.maxSize - unsureSize), sizeCalculation });
    this.#unsure = new LRUCache({ maxSize: unsureSize, sizeCalculation });
  }

  /** Opens the cache for classifier `version`, reading back what the folder holds when enabled */
  static async open(settings: CacheSettings, options: { version: string; log: Logger }): Promise<ResultCache> {
    const cache = new ResultCache(settings);
    if (settings.enabled) {
      cache.#file = await FileLog.open(settings.folder, options, ([model, text, label, probability]) => {
        cache.#remember(cacheKey(model, text), { label, probability });
      });
    }
    return cache;
  }

  /** Looks each text up; `undefined` marks a miss. Every lookup counts in the statistics; a disabled cache misses */
  lookup(model: ClassifierModel, texts: readonly string[]): (Classification | undefined)[] {
    if (!this.settings.enabled) return new Array<undefined>(texts.length);
    const started = performance.now();
    const results = new Array<Classification | undefined>(texts.length);
    let hits = 0;
    for (let i = 0; i < texts.length; i++) {
      const key = cacheKey(model, texts[i]!);
      const found = this.#confident.get(key) ?? this.#unsure.get(key);
      if (found !== undefined) hits++;
      results[i] = found;
    }
    this.#hits += hits;
    this.#misses += texts.length - hits;
    this.#getMs += performance.now() - started;
    return results;
  }

  /** Stores results of `texts`, in memory now and on disk shortly */
  store(model: ClassifierModel, texts: readonly string[], results: readonly Classification[]): void {
    if (!this.settings.enabled) return;
    const started = performance.now();
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      const result = results[i]!;
      this.#remember(cacheKey(model, text), result);
      this.#file?.append([model, text, result.label, result.probability]);
    }
    this.#sets += texts.length;
    this.#setMs += performance.now() - started;
    if (this.#file && this.#file.bytes > this.settings.maxSize) this.#compact(this.#file);
  }

  /** Statistics since start */
  stats(): CacheStats {
    const enabled = this.settings.enabled;
    const lookups = this.#hits + this.#misses;
    return {
      cache_enabled: enabled,
      stats_enabled: enabled,
      timer_enabled: enabled,
      hit_requests: this.#hits,
      miss_requests: this.#misses,
      size_in_bytes: this.#confident.calculatedSize + this.#unsure.calculatedSize,
      number_of_elements: this.#confident.size + this.#unsure.size,
      avg_get_time_ms: lookups === 0 ? 0 : this.#getMs / lookups,
      avg_set_time_ms: this.#sets === 0 ? 0 : this.#setMs / this.#sets,
    };
  }

  /** Settings as `GET /v1/cache/info` reports them */
  info(): CacheInfo {
    const { enabled, folder, maxSize } = this.settings;
    return { cache_enabled: enabled, folder, max_size: String(maxSize) };
  }

  /** Writes what is pending and closes the files */
  async close(): Promise<void> {
    await this.#file?.close();
  }

  #remember(key: string, result: Classification): void {
    const tier = result.probability < UNSURE_BELOW ? this.#unsure : this.#confident;
    (tier === this.#unsure ? this.#confident : this.#unsure).delete(key);
    tier.set(key, result);
  }

  // Keeps the most recently used entries that fill half the budget, so compactions stay rare; the log
  // snapshots the records now and writes them in order with other appends
  #compact(file: FileLog): void {
    const budget = this.settings.maxSize / 2;
    const newestFirst: LogRecord[] = [];
    let bytes = 0;
    for (const tier of [this.#confident, this.#unsure]) {
      for (const [key, { label, probability }] of tier.entries()) {
        const split = key.indexOf('\0');
        const text = key.slice(split + 1);
        bytes += text.length + 32;
        if (bytes > budget) break;
        newestFirst.push([key.slice(0, split), text, label, probability]);
      }
    }
    void file.compact(newestFirst.reverse());
  }
}

function cacheKey(model: string, text: string): string {
  return `${model}\0${text}`;
}
