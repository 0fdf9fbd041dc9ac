import type { MetricLabels } from '../core/types.ts';

/**
 * Counter and histogram families that count in plain numbers and are formatted only at scrape time, registered in
 * prom-client's registry as collectors (`name`, `help`, `type`, `get()`, the shape its own metrics have). prom-client's
 * own counters hash and validate the labels on every increment: about 0.5 µs each, which several times per request
 * was over 1 % of a cached classification. Here a series is found once by its label values and then only added to.
 */

type Labels = Record<string, string>;

/** One series: the label values it was found by, and what it holds */
interface Series {
  labels: Labels;
}

abstract class Family<S extends Series> {
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly string[];
  readonly aggregator = 'sum';
  /** Series by plugin, then by each label's value in `labelNames` order: lookups of strings, no key to build */
  readonly #tree = new Map<string, any>();
  readonly #series: S[] = [];
  readonly #known: ReadonlySet<string>;

  constructor(name: string, help: string, labelNames: readonly string[]) {
    this.name = name;
    this.help = help;
    this.labelNames = labelNames;
    this.#known = new Set(labelNames);
  }

  /** The series of these label values (and `plugin`, when given), made on first use */
  series(labels: MetricLabels | undefined, plugin?: string): S {
    let node: Map<string, any> = this.#tree;
    let key = plugin ?? '';
    for (const name of this.labelNames) {
      let next = node.get(key);
      if (next === undefined) node.set(key, (next = new Map()));
      node = next;
      const value = labels?.[name];
      key = typeof value === 'string' ? value : value === undefined ? '' : String(value);
    }
    let series: S | undefined = node.get(key);
    if (series === undefined) {
      const values: Labels = {};
      for (const [name, value] of Object.entries(labels ?? {})) {
        if (!this.#known.has(name))
          throw new TypeError(
            `Metric "${this.name}" has no label "${name}": its labels are "${this.labelNames.join('", "')}"`,
          );
        values[name] = String(value);
      }
      if (plugin !== undefined) values.plugin = plugin;
      series = this.create(values);
      node.set(key, series);
      this.#series.push(series);
    }
    return series;
  }

  protected abstract create(labels: Labels): S;

  protected all(): readonly S[] {
    return this.#series;
  }
}

/** A counter family; `get()` is what prom-client's registry formats */
export class CounterFamily extends Family<Series & { value: number }> {
  readonly type = 'counter';

  inc(labels: MetricLabels | undefined, value = 1, plugin?: string): void {
    if (!(value >= 0) || value === Infinity)
      throw new TypeError(`Metric "${this.name}" counts up by a finite number, not "${value}"`);
    this.series(labels, plugin).value += value;
  }

  protected create(labels: Labels) {
    return { labels, value: 0 };
  }

  get() {
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values: [...this.all()].map(({ labels, value }) => ({ labels, value })),
    };
  }
}

/** A histogram family with fixed bucket bounds (ascending); `get()` answers cumulative buckets, `_sum` and `_count` */
export class HistogramFamily extends Family<Series & { counts: Float64Array; sum: number; count: number }> {
  readonly type = 'histogram';
  readonly #bounds: readonly number[];

  constructor(name: string, help: string, labelNames: readonly string[], bounds: readonly number[]) {
    super(name, help, labelNames);
    this.#bounds = [...bounds].sort((a, b) => a - b);
  }

  observe(labels: MetricLabels | undefined, value: number, plugin?: string): void {
    this.record(this.series(labels, plugin), value);
  }

  /** Adds one value to a series found before */
  record(series: { counts: Float64Array; sum: number; count: number }, value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`Metric "${this.name}" observes finite numbers, not "${value}"`);
    const bounds = this.#bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    series.counts[i]! += 1;
    series.sum += value;
    series.count += 1;
  }

  protected create(labels: Labels) {
    return { labels, counts: new Float64Array(this.#bounds.length + 1), sum: 0, count: 0 };
  }

  get() {
    const values: { metricName: string; labels: Labels; value: number }[] = [];
    for (const { labels, counts, sum, count } of this.all()) {
      let cumulative = 0;
      this.#bounds.forEach((bound, i) => {
        cumulative += counts[i]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: String(bound) }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { ...labels, le: '+Inf' }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels, value: sum });
      values.push({ metricName: `${this.name}_count`, labels, value: count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }
}
