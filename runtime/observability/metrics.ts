import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type {
  Logger,
  MetricCounter,
  MetricGauge,
  MetricHistogram,
  MetricLabels,
  MetricOptions,
  PluginMetrics,
} from '../core/types.ts';
import { hostErrors } from '../core/host-errors.ts';
import { CounterFamily, HistogramFamily } from './metric-families.ts';

/** Prefix of every metric of the host and its plugins; process and Node.js metrics keep their standard names */
const METRIC_PREFIX = 'capstan_';

const NAME = /^[a-z][a-z0-9_]*$/;
const LABEL = /^[a-z][a-z0-9_]*$/;

/** Seconds; finer than Prometheus' default below 5 ms, where a cached classification answers */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

/** Prometheus' default bounds, for plugin histograms that name none */
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

type Family = {
  owner: string;
  signature: string;
  metric: CounterFamily | Gauge | HistogramFamily;
  collects: ((gauge: MetricGauge) => void | Promise<void>)[];
};

/** Records one answered request of a route: its status and seconds taken */
export type RequestObserver = (status: number, seconds: number) => void;

/**
 * The host's Prometheus registry: Node.js process metrics, the request metrics of the route layer, and the families
 * plugins declare through `ctx.metrics`, each name owned by one declaration shape
 */
export class HostMetrics {
  readonly registry = new Registry();
  readonly #families = new Map<string, Family>();
  readonly #requests: CounterFamily;
  readonly #duration: HistogramFamily;

  readonly #log: Logger | undefined;
  /** Counters kept elsewhere, copied in at each scrape */
  readonly #reads: (() => void)[] = [];

  constructor(options: { processMetrics: boolean; log?: Logger }) {
    this.#log = options.log;
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
    this.#requests = this.#family(
      'host',
      'counter',
      {
        name: 'http_requests_total',
        help: 'Requests answered by a route of an API, by API, operationId and status',
        labelNames: ['api', 'operation', 'status'],
      },
      false,
    ).metric as CounterFamily;
    this.#duration = this.#family(
      'host',
      'histogram',
      {
        name: 'http_request_duration_seconds',
        help: 'Time from routing a request to its answer, by API and operationId',
        labelNames: ['api', 'operation'],
        buckets: LATENCY_BUCKETS,
      },
      false,
    ).metric as HistogramFamily;
  }

  /** The observer of one route: its series are found once, so that a request only adds to numbers */
  route(api: string, operation: string): RequestObserver {
    const timing = this.#duration.series({ api, operation });
    const byStatus = new Map<number, { value: number }>();
    return (status, seconds) => {
      let count = byStatus.get(status);
      if (!count) byStatus.set(status, (count = this.#requests.series({ api, operation, status })));
      count.value += 1;
      this.#duration.record(timing, seconds);
    };
  }

  /** A gauge the host sets at every scrape through `collect` */
  hostGauge(options: MetricOptions, collect: (gauge: MetricGauge) => void | Promise<void>): void {
    this.#family('host', 'gauge', options, true).collects.push(collect);
  }

  /** A counter kept outside the registry (such as the log lines the process dropped), read at every scrape */
  hostCounter(options: MetricOptions, read: () => number): void {
    const series = (this.#family('host', 'counter', options, true).metric as CounterFamily).series(undefined);
    this.#reads.push(() => (series.value = read()));
  }

  /** `ctx.metrics` of plugin instance `plugin`: its samples carry `plugin="<id>"` */
  forPlugin(plugin: string): PluginMetrics {
    return {
      counter: (options): MetricCounter => {
        const counter = this.#family(plugin, 'counter', withPlugin(options), false).metric as CounterFamily;
        return { inc: (labels, value) => counter.inc(labels, value ?? 1, plugin) };
      },
      gauge: (options): MetricGauge => {
        const family = this.#family(plugin, 'gauge', withPlugin(options), options.collect !== undefined);
        const view = gaugeOf(family.metric as Gauge, plugin);
        if (options.collect) family.collects.push(() => options.collect!(view));
        return view;
      },
      histogram: (options): MetricHistogram => {
        const histogram = this.#family(plugin, 'histogram', withPlugin(options), false).metric as HistogramFamily;
        return { observe: (labels, value) => histogram.observe(labels, value, plugin) };
      },
    };
  }

  /** The exposition text and its content type */
  async scrape(): Promise<{ text: string; contentType: string }> {
    for (const read of this.#reads) read();
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  #family(
    owner: string,
    type: 'counter' | 'gauge' | 'histogram',
    options: MetricOptions & { buckets?: readonly number[] },
    collected: boolean,
  ): Family & { collects: ((gauge: MetricGauge) => void | Promise<void>)[] } {
    const refuse = (reason: string) => hostErrors.PLUGIN_ERR_METRIC(options.name, owner, reason);
    if (typeof options.name !== 'string' || !NAME.test(options.name))
      throw refuse('a name is lower case letters, digits and "_", starting with a letter');
    const labelNames = [...(options.labelNames ?? [])];
    const bad = labelNames.find((l) => !LABEL.test(l) || l.startsWith('__'));
    if (bad !== undefined) throw refuse(`label "${bad}" is not lower case letters, digits and "_"`);
    // A histogram's buckets carry `le`
    if (type === 'histogram' && labelNames.includes('le'))
      throw refuse('label "le" belongs to the buckets of a histogram');
    const name = METRIC_PREFIX + options.name;
    const signature = JSON.stringify([type, options.help, labelNames, options.buckets ?? null, collected]);
    const existing = this.#families.get(name);
    if (existing) {
      // Instances of one plugin, or plugins of one kind (stores), share a family; anything else is a clash
      if (existing.owner === 'host' || owner === 'host' || existing.signature !== signature)
        throw refuse(`the name is taken by "${existing.owner}" with another type, help or labels`);
      return existing;
    }
    const collects: Family['collects'] = [];
    const log = this.#log;
    let metric: CounterFamily | Gauge | HistogramFamily;
    if (type === 'gauge') {
      metric = new Gauge({
        name,
        help: options.help,
        labelNames,
        registers: [this.registry],
        // A collected gauge holds only what this scrape's collect functions set: a label set that went away is dropped
        ...(collected
          ? {
              collect(this: Gauge) {
                return collectAll(this, collects, (error) =>
                  log?.warn('metric collect failed', { metric: name, error }),
                );
              },
            }
          : {}),
      });
    } else {
      metric =
        type === 'counter'
          ? new CounterFamily(name, options.help, labelNames)
          : new HistogramFamily(name, options.help, labelNames, options.buckets ?? DEFAULT_BUCKETS);
      // A collector of the shape prom-client's own metrics have: the registry asks it for its values at scrape time
      this.registry.registerMetric(metric as never);
    }
    const family = { owner, signature, metric, collects };
    this.#families.set(name, family);
    return family;
  }
}

// One failing collect leaves its samples out of this scrape instead of failing the whole scrape
async function collectAll(
  gauge: Gauge,
  collects: Family['collects'],
  onError: (error: unknown) => void,
): Promise<void> {
  gauge.reset();
  const view = gaugeOf(gauge);
  for (const collect of collects) {
    try {
      await collect(view);
    } catch (error) {
      onError(error);
    }
  }
}

function gaugeOf(gauge: Gauge, plugin?: string): MetricGauge {
  const bind = (labels: MetricLabels | undefined) => (plugin === undefined ? { ...labels } : { ...labels, plugin });
  return {
    set: (labels, value) => gauge.set(bind(labels), value),
    inc: (labels, value) => gauge.inc(bind(labels), value ?? 1),
    dec: (labels, value) => gauge.dec(bind(labels), value ?? 1),
  };
}

function withPlugin<T extends MetricOptions>(options: T): T {
  if (options.labelNames?.includes('plugin')) return options;
  return { ...options, labelNames: [...(options.labelNames ?? []), 'plugin'] };
}
