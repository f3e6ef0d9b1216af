// The request metrics are counted without prom-client's Counter and Histogram, but must read
// exactly as those would: the same exposition text for the same observations.
import { Counter, Histogram, Registry, type RegistryContentType } from "prom-client";
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/ops/metrics.ts";
import { LabelledSeries, type Labels } from "../../src/ops/series.ts";

const BOUNDS = [0.001, 0.01, 0.1, 1, 10];
const LABEL_NAMES = ["route", "method", "status"];

// Keys as the request metrics make them: the route may hold spaces, the rest may not.
const keyOf = ({ route, method, status }: Labels) => `${route} ${method} ${status}`;
function labelsOf(key: string): Labels {
  const [status = "", method = "", ...route] = key.split(" ").reverse();
  return { route: route.reverse().join(" "), method, status };
}

function observations(): [Labels, number][] {
  const routes = ["createPlant", "getPlant", "an operation with spaces", 'quote"and\\slash'];
  const values = [0, 0.001, 0.0010001, 0.01, 0.5, 1, 10, 10.5, 1e6, 2.5e-7];
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    // The high bits: an LCG's low bits repeat with a short period.
    return Math.floor((seed / 2 ** 31) * n);
  };
  return Array.from({ length: 500 }, () => [
    {
      route: routes[next(routes.length)] ?? "",
      method: ["GET", "POST", "DELETE"][next(3)] ?? "",
      status: String([200, 201, 404, 429][next(4)]),
    },
    values[next(values.length)] ?? 0,
  ]);
}

describe("LabelledSeries", () => {
  it("when the same requests are observed, then the exposition text is prom-client's own", async () => {
    const theirs = new Registry<RegistryContentType>();
    const registers = [theirs];
    const counter = new Counter({ name: "c_total", help: "c", labelNames: LABEL_NAMES, registers });
    const histogram = new Histogram({
      name: "h_seconds",
      help: "h",
      labelNames: LABEL_NAMES,
      buckets: BOUNDS,
      registers,
    });
    const ours = new Registry<RegistryContentType>();
    const series = new LabelledSeries(BOUNDS, labelsOf);
    series.registerCounter(ours, "c_total", "c");
    series.registerHistogram(ours, "h_seconds", "h");

    for (const [labels, value] of observations()) {
      counter.inc(labels);
      histogram.observe(labels, value);
      series.observe(keyOf(labels), value);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
    expect(text).toContain('h_seconds_bucket{le="0.001",route="an operation with spaces"');
    // OpenMetrics, where the registry renames counters before it asks for them.
    theirs.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    ours.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    expect(await ours.metrics()).toBe(await theirs.metrics());
  });

  it("when the registry's metrics are reset, then the series start again from nothing", async () => {
    const registry = new Registry();
    const series = new LabelledSeries(BOUNDS, (outcome) => ({ outcome }));
    series.registerHistogram(registry, "h", "h");
    series.observe("created", 0.5);
    expect(await registry.metrics()).toContain('h_count{outcome="created"} 1');
    registry.resetMetrics();
    expect(await registry.metrics()).not.toContain("h_count");
  });

  it("when the service's metrics are written, then they come in the order they always have", async () => {
    const text = await createMetrics().registry.metrics();
    expect([...text.matchAll(/^# TYPE (\S+)/gm)].map((match) => match[1])).toEqual([
      "plantstore_http_requests_total",
      "plantstore_http_request_duration_seconds",
      "plantstore_plants_created_total",
      "plantstore_store_commit_seconds",
      "plantstore_auth_failures_total",
      "plantstore_connections_dropped_total",
    ]);
  });
});
