// What handlers are built with: the app's store and its other parts, passed in explicitly.
import type { FastifyInstance } from "fastify";
import type { Metrics } from "../ops/metrics.ts";
import type { Store } from "../store/store.ts";

export interface HandlerDeps {
  /** The store, a repository per resource; its writes are timed by the write path itself. */
  store: Store;
  metrics: Metrics;
  /** PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: http:// and private addresses may be registered. */
  allowPrivateWebhooks: boolean;
  /** PLANTSTORE_WEBHOOK_MAX_ENDPOINTS: most endpoints the store holds. */
  maxWebhookEndpoints: number;
  /** The app, for what depends on where it listens (the published document's servers). */
  app: FastifyInstance;
  /** PLANTSTORE_PUBLIC_URL, when set: the base URL clients use. */
  publicUrl: string | undefined;
  /** PLANTSTORE_METRICS_TOKEN is unset, so GET /metrics is open (and published as such). */
  metricsOpen: boolean;
  /** The values the published document's descriptions state (`{{NAME}}`). */
  published: Readonly<Record<string, string>>;
}
