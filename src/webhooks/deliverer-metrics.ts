// The deliverer's Prometheus metrics: attempts by outcome, and the backlog as the store holds
// it (pending deliveries, age of the oldest), read every few seconds rather than per scrape.
import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import { BACKLOG_COUNTED_UP_TO } from "../store/webhooks.ts";

export interface DelivererMetrics {
  attempt(outcome: string, seconds: number): void;
  backlog(pending: number, oldestAgeSeconds: number): void;
}

export function createDelivererMetrics(registry: Registry): DelivererMetrics {
  const registers = [registry];
  const attempts = new Counter({
    name: "plantstore_webhook_attempts_total",
    help: "Webhook delivery attempts, by outcome (delivered, retry, failed, gone)",
    labelNames: ["outcome"],
    registers,
  });
  const durations = new Histogram({
    name: "plantstore_webhook_attempt_seconds",
    help: "Time one webhook delivery attempt took, answer included",
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const pending = new Gauge({
    name: "plantstore_webhook_pending_deliveries",
    help: `Webhook deliveries pending in the store (every instance's), as last read; counted up to ${BACKLOG_COUNTED_UP_TO}, so ${BACKLOG_COUNTED_UP_TO} means at least that many`,
    registers,
  });
  const oldest = new Gauge({
    name: "plantstore_webhook_oldest_pending_age_seconds",
    help: "Age of the oldest pending webhook delivery, as last read; 0 when none is pending",
    registers,
  });
  return {
    attempt(outcome, seconds) {
      attempts.inc({ outcome });
      durations.observe(seconds);
    },
    backlog(count, ageSeconds) {
      pending.set(count);
      oldest.set(ageSeconds);
    },
  };
}
