import { LRUCache } from 'lru-cache';
import type { components } from '../../../generated/types/bounce-classifier.ts';
import type { Classification, ClassifierModel, Logger } from '../../../runtime/mod.ts';
import { CLASSES } from '../classes.ts';
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
/**
 * Bytes of an entry beside its key: the result object, the key's string header, the map slot and the LRU's
 * arrays. Measured at 190-210 on Node 20 (x64) with `--expose-gc`; rounded up so the budget is never exceeded.
 */
const ENTRY_OVERHEAD = 256;
/** Share of `maxSize` a compaction may hold in its snapshot, counted as in the memory tier */
const SNAPSHOT_SHARE = 1 / 2;

// V8 keeps a string in one byte a character only when every character fits, and may keep even those in two;
// two bytes a UTF-16 unit is what any text can take
function entrySize(_value: Classification, key: string): number {
  return key.length * 2 + ENTRY_OVERHEAD;
}

/** Each model's class names, keyed by themselves: records read back share these strings instead of holding their own */
const CANONICAL: Record<string, ReadonlyMap<string, string>> = Object.fromEntries(
  Object.entries(CLASSES).map(([model, labels]) => [model, new Map([...labels].map((label) => [label, label]))]),
);

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
  #onLookup: ((model: ClassifierModel, hits: number, misses: number) => void) | undefined;

  private constructor(settings: CacheSettings) {
    this.settings = settings;
    const sizeCalculation = entrySize;
    const unsureSize = Math.max(1, Math.floor(settings.maxSize * UNSURE_SHARE));
    this.#confident = new LRUCache({ maxSize: Math.max(1, settings.maxSize - unsureSize), sizeCalculation });
    this.#unsure = new LRUCache({ maxSize: unsureSize, sizeCalculation });
  }

  /**
   * Opens the cache for classifier `version`, reading back what the folder holds when enabled. Records whose
   * model or class the API does not know are skipped and logged. The cache never stops start-up: a folder that
   * cannot be used (a file in its place, no permission) is logged and the cache works in memory only.
   */
  static async open(
    settings: CacheSettings,
    options: {
      version: string;
      log: Logger;
      onLookup?: (model: ClassifierModel, hits: number, misses: number) => void;
    },
  ): Promise<ResultCache> {
    const cache = new ResultCache(settings);
    cache.#onLookup = options.onLookup;
    if (!settings.enabled) return cache;
    const { folder } = settings;
    let misfits = 0;
    const onRecord = ([model, text, label, probability]: LogRecord) => {
      const canonicalLabel = CANONICAL[model]?.get(label);
      if (canonicalLabel === undefined) misfits++;
      else cache.#remember(model as ClassifierModel, text, { label: canonicalLabel, probability });
    };
    try {
      const onFull = () => cache.#compact();
      const { fileLog, report } = await FileLog.open(
        folder,
        { ...options, maxBytes: settings.maxSize, onFull },
        onRecord,
      );
      cache.#file = fileLog;
      if (report.otherVersion > 0) {
        options.log.info('Ignored cached results of another classifier version', {
          folder,
          count: report.otherVersion,
        });
      }
    } catch (error) {
      options.log.error('Cannot use cache folder: the cache works in memory only until restart', {
        folder,
        error: String(error),
      });
    }
    if (misfits > 0)
      options.log.warn('Skipped cached results with a model or class the API does not know', {
        folder,
        count: misfits,
      });
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
    this.#onLookup?.(model, hits, texts.length - hits);
    return results;
  }

  /** Stores results of `texts`, in memory now and on disk shortly */
  store(model: ClassifierModel, texts: readonly string[], results: readonly Classification[]): void {
    if (!this.settings.enabled) return;
    const started = performance.now();
    for (let i = 0; i < texts.length; i++) {
      const text = texts[i]!;
      const result = results[i]!;
      this.#remember(model, text, result);
      this.#file?.append([model, text, result.label, result.probability]);
    }
    this.#sets += texts.length;
    this.#setMs += performance.now() - started;
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

  // A copy holding only what the cache needs: a classifier's result may carry more, and its label string may
  // keep a larger one alive
  #remember(model: ClassifierModel, text: string, { label, probability }: Classification): void {
    const key = cacheKey(model, text);
    const tier = probability < UNSURE_BELOW ? this.#unsure : this.#confident;
    (tier === this.#unsure ? this.#confident : this.#unsure).delete(key);
    tier.set(key, { label: CANONICAL[model]?.get(label) ?? label, probability });
  }

  // The snapshot holds references only, and no more than the memory tier counts for half its budget, so what
  // it keeps alive after eviction stays bounded while the log writes it
  #compact(): void {
    const keys: string[] = [];
    const results: Classification[] = [];
    let size = 0;
    for (const tier of [this.#confident, this.#unsure]) {
      for (const [key, result] of tier.entries()) {
        size += entrySize(result, key);
        if (size > this.settings.maxSize * SNAPSHOT_SHARE) break;
        keys.push(key);
        results.push(result);
      }
    }
    this.#file?.compact(keys.length, (index) => {
      const key = keys[index]!;
      const split = key.indexOf('\0');
      return [key.slice(0, split), key.slice(split + 1), results[index]!.label, results[index]!.probability];
    });
  }
}

function cacheKey(model: string, text: string): string {
  return `${model}\0${text}`;
}
