// What a conformance run may do, and its bounds. Defaults keep a run against a healthy local
// server under a minute and touch nothing on a live one (read-only operations only).

export interface ConformanceOptions {
  /** The deployment, e.g. https://plants.example.com (a path prefix is kept). */
  baseUrl: string;
  /** A bearer token with every scope the checked operations need. */
  token?: string;
  /** A bearer token without the operations' scopes: scoped operations must answer 403. */
  tokenWithoutScope?: string;
  /** Where the document comes from: "deployment" (its /openapi.json) or a YAML/JSON file. */
  document: "deployment" | { file: string };
  maxRequests: number;
  /** Requests per second, at most. */
  rate: number;
  /** Per request, milliseconds: the answer's headers and body within it. */
  timeoutMs: number;
  /** An answer's body is read up to this many bytes; a longer one fails its check unread. */
  maxBodyBytes: number;
  /** The whole run, milliseconds: no request starts after it (the clean-up excepted). */
  maxTimeMs: number;
  seed: number;
  /** operationIds to check; all when empty. */
  operations: readonly string[];
  allowWrites: boolean;
  /**
   * Writes even while the deployment has webhook endpoints registered (or cannot tell): what
   * the run creates is then sent to real subscribers.
   */
  allowWebhooks: boolean;
  /** HOST:PORT to listen on for the run's own webhook endpoint; undefined: no webhook checks. */
  webhookReceiver?: { host: string; port: number };
  maxWrites: number;
  /** The ids a run with --allow-writes creates, inclusive; exact (int64). */
  idRange: { from: bigint; to: bigint };
  /**
   * The deployment is empty and disposable: the document's examples run in document order as a
   * scenario (writes and all, with the examples' own ids), and every answer is compared in full.
   */
  fresh: boolean;
  /** Schema-driven probes per operation. */
  probesPerOperation: number;
}

// Past 2^53 from the first id: every id a run creates checks that ids travel exactly.
const FIRST_ID = 2n ** 53n + 1n;

export const DEFAULT_OPTIONS: Omit<ConformanceOptions, "baseUrl"> = {
  document: "deployment",
  maxRequests: 500,
  rate: 50,
  timeoutMs: 10_000,
  // The largest answer of this API is the reference page's script (about 1.7 MB).
  maxBodyBytes: 4 * 1024 * 1024,
  maxTimeMs: 300_000,
  seed: 20_260_107,
  operations: [],
  allowWrites: false,
  allowWebhooks: false,
  maxWrites: 50,
  idRange: { from: FIRST_ID, to: FIRST_ID + 999n },
  fresh: false,
  probesPerOperation: 12,
};
