// Counts and durations by label set, for the metrics observed on every request. prom-client's
// Counter and Histogram check and hash their labels on every call (about 0.8 µs a request,
// BENCHMARKS.md); here an observation finds its series by a key the caller already has, and
// prom-client gets the totals, in its own exported form, only when /metrics is scraped.
import type { Metric, Registry, RegistryContentType } from "prom-client";

export type Labels = Readonly<Record<string, string>>;

interface Series {
  labels: Labels;
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative): at index i, those ≤ bounds[i] and > bounds[i-1]. */
  inBucket: Float64Array;
}

/** A value as prom-client's own metrics give it (getMetricsAsJSON). */
interface ExportedValue {
  labels: Readonly<Record<string, string | number>>;
  value: number;
  metricName?: string;
  exemplar?: null;
}

export class LabelledSeries {
  readonly #series = new Map<string, Series>();

  /**
   * @param labelsOf reads a series' labels out of its key, the first time the key is seen: a
   *   key must name one set of labels, and no two sets may share a key.
   */
  constructor(
    private readonly bounds: readonly number[],
    private readonly labelsOf: (key: string) => Labels,
  ) {}

  /** One observation, of the series `key` names. */
  observe(key: string, value: number): void {
    let series = this.#series.get(key);
    if (series === undefined) {
      series = {
        labels: this.labelsOf(key),
        count: 0,
        sum: 0,
        inBucket: new Float64Array(this.bounds.length),
      };
      this.#series.set(key, series);
    }
    series.count += 1;
    series.sum += value;
    const { bounds } = this;
    for (let at = 0; at < bounds.length; at++) {
      if (value <= (bounds[at] as number)) {
        (series.inBucket[at] as number) += 1;
        return;
      }
    }
  }

  /** A histogram of the observations, for `registry`. */
  registerHistogram(registry: Registry<RegistryContentType>, name: string, help: string): void {
    register(
      registry,
      { name, help, type: "histogram" },
      {
        values: () => this.histogramValues(name),
        reset: () => this.#series.clear(),
      },
    );
  }

  /** A counter of the observations (the histogram's _count, as a metric of its own). */
  registerCounter(registry: Registry<RegistryContentType>, name: string, help: string): void {
    register(
      registry,
      { name, help, type: "counter" },
      {
        values: () =>
          Array.from(this.#series.values(), ({ labels, count }) => ({ labels, value: count })),
        reset: () => this.#series.clear(),
      },
    );
  }

  private histogramValues(name: string): ExportedValue[] {
    const values: ExportedValue[] = [];
    for (const { labels, count, sum, inBucket } of this.#series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, at) => {
        cumulative += inBucket[at] as number;
        values.push({
          labels: { le: bound, ...labels },
          value: cumulative,
          metricName: `${name}_bucket`,
          exemplar: null,
        });
      });
      values.push(
        {
          labels: { le: "+Inf", ...labels },
          value: count,
          metricName: `${name}_bucket`,
          exemplar: null,
        },
        { labels, value: sum, metricName: `${name}_sum` },
        { labels, value: count, metricName: `${name}_count` },
      );
    }
    return values;
  }
}

/**
 * Registers a metric with prom-client in the form its registry reads from its own metrics
 * (`get`, as getMetricsAsJSON returns it), so that it writes the exposition text itself.
 */
function register(
  registry: Registry<RegistryContentType>,
  about: { name: string; help: string; type: "counter" | "histogram" },
  { values, reset }: { values: () => ExportedValue[]; reset: () => void },
): void {
  type About = typeof about;
  const metric: About & { aggregator: "sum"; reset(): void; get(): Promise<unknown> } = {
    ...about,
    // Summed across a cluster's workers, as prom-client's own counters and histograms are.
    aggregator: "sum",
    reset,
    // The registry renames a counter for OpenMetrics (without `_total`) before it asks, so
    // the name is read from the metric at the time, as prom-client's own metrics do.
    get: async () => {
      const { name, help, type, aggregator } = metric;
      return { name, help, type, aggregator, values: values() };
    },
  };
  registry.registerMetric(metric as unknown as Metric);
}
