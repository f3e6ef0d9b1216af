// The deliverer's Prometheus metrics (src/webhooks/deliverer-metrics.ts) in a registry of their
// own: an attempt counts under its outcome and its time lands in the histogram's buckets; the
// backlog sets both gauges.
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createDelivererMetrics } from "../../src/webhooks/deliverer-metrics.ts";

describe("the deliverer's metrics", () => {
  it("when attempts are recorded, then each counts under its outcome and its time is observed in the buckets", async () => {
    const registry = new Registry();
    const metrics = createDelivererMetrics(registry);
    metrics.attempt("delivered", 0.2);
    metrics.attempt("delivered", 3);
    metrics.attempt("retry", 40);
    const text = await registry.metrics();
    expect(text).toContain('plantstore_webhook_attempts_total{outcome="delivered"} 2');
    expect(text).toContain('plantstore_webhook_attempts_total{outcome="retry"} 1');
    expect(text).toContain('plantstore_webhook_attempt_seconds_bucket{le="0.1"} 0');
    expect(text).toContain('plantstore_webhook_attempt_seconds_bucket{le="0.25"} 1');
    expect(text).toContain('plantstore_webhook_attempt_seconds_bucket{le="5"} 2');
    expect(text).toContain('plantstore_webhook_attempt_seconds_bucket{le="30"} 2');
    expect(text).toContain("plantstore_webhook_attempt_seconds_count 3");
  });

  it("when the backlog is read, then the pending count and the oldest's age are set", async () => {
    const registry = new Registry();
    const metrics = createDelivererMetrics(registry);
    metrics.backlog(7, 30);
    const text = await registry.metrics();
    expect(text).toContain("plantstore_webhook_pending_deliveries 7");
    expect(text).toContain("plantstore_webhook_oldest_pending_age_seconds 30");
  });
});
