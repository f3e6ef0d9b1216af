// The storage interface for webhook endpoints and their outbox of deliveries. Every change is a
// write of the store's one write path (writes.ts: the webhook entries below); reads are each
// engine's (sqlite-webhooks.ts, postgres-webhooks.ts). The create's transaction records its
// event (outbox.ts), so a 200 can never outlive its message; a claim fans events out into one
// delivery per endpoint, each referencing the event's one copy of the body.
import { randomBytes } from "node:crypto";
import type { WriteArgs, WriteName, WriteResult } from "./writes.ts";

export interface WebhookEndpoint {
  /** `ep_`, 12 hex digits of its creation time in ms, 10 random hex: listed in creation order. */
  id: string;
  url: string;
  description: string | null;
  createdAt: Date;
  /** Set when the endpoint answered 410 Gone; a manual retry of a delivery clears it. */
  disabledAt: Date | null;
  /** The events it subscribes to, by type, sorted: it is sent those recorded since each subscription. */
  events: string[];
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface WebhookDelivery {
  /** `msg_…`: the `webhook-id` of every attempt. */
  id: string;
  endpointId: string;
  /** The event's type (its x-event's), as the message's webhook-event header names it. */
  event: string;
  plantId: bigint;
  status: DeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  /** Null unless pending; while an attempt is under way, when its claim (lease) runs out. */
  nextAttemptAt: Date | null;
  createdAt: Date;
}

/** A delivery claimed for one attempt: what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  /** The event's type: the message's webhook-event header. */
  event: string;
  endpointId: string;
  url: string;
  /** The exact JSON sent, made when the plant was created. */
  body: string;
  /** Attempts made before this one. */
  attempts: number;
  /** The secrets to sign with: the current one, and the previous one during a rotation. */
  secrets: string[];
}

/** How an attempt ended, as the deliverer decided from the answer and the retry schedule. */
export type AttemptRecord =
  | { kind: "delivered"; status: number }
  | { kind: "retry"; status: number | null; error: string | null; delayMs: number }
  | { kind: "failed"; status: number | null; error: string | null }
  /** 410 Gone: the delivery fails and its endpoint is disabled. */
  | { kind: "gone"; status: number };

export interface KeysetPage {
  after?: string | undefined;
  limit: number;
}

export interface ClaimRequest {
  /** Who holds the claims (one per deliverer). */
  owner: string;
  leaseMs: number;
  /** Most deliveries claimed in all. */
  limit: number;
  /** Most claimed for one endpoint, unless `free` says fewer. */
  perEndpoint: number;
  /** Endpoints with fewer free slots than perEndpoint (some in flight), by id. */
  free: Readonly<Record<string, number>>;
  /**
   * Endpoints are taken in order of id, starting after this one and coming round to it, so
   * that successive claims serve every endpoint in turn.
   */
  after?: string | undefined;
}

export interface WebhookStore {
  /** The events the document declares (tables.ts), by type: what an endpoint may subscribe to. */
  readonly events: readonly string[];
  /** Throws EndpointLimitError when the store already holds `maxEndpoints` (if given). */
  createEndpoint(input: {
    url: string;
    description: string | null;
    /** The events it subscribes to, by type: every event declared when absent. */
    events?: readonly string[] | undefined;
    maxEndpoints?: number;
  }): Promise<WebhookEndpoint & { secret: string }>;
  /**
   * Changes what is given: the events subscribed to (one kept keeps its start; one added gets
   * the events recorded from now on; one dropped fails its pending deliveries, claimed ones
   * too, with EVENT_UNSUBSCRIBED) and the description. Undefined if no such endpoint.
   */
  updateEndpoint(
    id: string,
    change: { events?: readonly string[]; description?: string | null },
  ): Promise<WebhookEndpoint | undefined>;
  getEndpoint(id: string): Promise<WebhookEndpoint | undefined>;
  listEndpoints(page: KeysetPage): Promise<{ endpoints: WebhookEndpoint[]; full: boolean }>;
  /** Removes the endpoint and its deliveries; false if there was none. */
  deleteEndpoint(id: string): Promise<boolean>;
  /**
   * A new secret; the old one, like every one rotated away before it, keeps signing for
   * `overlapMs`. Undefined if no such endpoint; throws RotationLimitError while
   * MAX_RETIRED_SECRETS still sign.
   */
  rotateSecret(id: string, overlapMs: number): Promise<string | undefined>;
  /**
   * Undefined when there is no such endpoint. Fans the events recorded so far out first, so
   * the log holds a delivery of every event since the endpoint was registered.
   */
  listDeliveries(
    endpointId: string,
    page: KeysetPage,
  ): Promise<{ deliveries: WebhookDelivery[]; full: boolean } | undefined>;
  /** Pending again, due now, attempts from 0, its endpoint enabled; undefined if none. */
  retryDelivery(endpointId: string, id: string): Promise<WebhookDelivery | undefined>;
  /**
   * Fans recorded events out into deliveries (FAN_OUT_ROWS at a time), then claims due
   * deliveries of enabled endpoints, each for `leaseMs`.
   */
  claim(request: ClaimRequest): Promise<ClaimedDelivery[]>;
  /** Fans recorded events out into deliveries, FAN_OUT_ROWS at a time; how many it made. */
  fanOut(): Promise<number>;
  /** Records an attempt; false when the claim was lost (its lease ran out and was taken over). */
  complete(id: string, owner: string, record: AttemptRecord): Promise<boolean>;
  /** Gives claims back (shutdown): due now, for any instance. */
  release(owner: string, ids: readonly string[]): Promise<void>;
  /**
   * Deletes at most `limit` delivered or failed deliveries last changed before `before` (how
   * many), and their events once no delivery of them is left.
   */
  purge(before: Date, limit: number): Promise<number>;
  /**
   * For metrics: pending deliveries and events not fanned out yet, counted up to
   * BACKLOG_COUNTED_UP_TO, and when the oldest of them was made.
   */
  backlog(): Promise<{ pending: number; oldestCreatedAt: Date | null }>;
  /**
   * Milliseconds until the first pending delivery of an enabled endpoint is due (0 or less:
   * due now; so is an event not fanned out yet), or null when none is pending. A read, so an idle deliverer polls without writing.
   */
  nextDueInMs(): Promise<number | null>;
}

/** The write entries of writes.ts for webhooks: their arguments and results. */
export interface WebhookWrites {
  createWebhookEndpoint: {
    args: {
      id: string;
      url: string;
      description: string | null;
      secret: string;
      createdAt: number;
      events: readonly string[];
      /** Refused ("full") when the store holds this many already. */
      maxEndpoints: number;
    };
    result: { outcome: "created" | "full" };
  };
  updateWebhookEndpoint: {
    args: { id: string; events?: readonly string[]; description?: string | null };
    result: { outcome: "updated" | "absent" };
  };
  deleteWebhookEndpoint: { args: { id: string }; result: { outcome: "deleted" | "absent" } };
  rotateWebhookSecret: {
    args: { id: string; secret: string; overlapMs: number };
    result: { outcome: "rotated" | "absent" | "full" };
  };
  fanOutWebhookEvents: {
    args: Record<string, never>;
    result: { outcome: "fanned"; count: number };
  };
  claimWebhookDeliveries: {
    args: ClaimRequest;
    result: { outcome: "claimed"; deliveries: ClaimedDelivery[] };
  };
  completeWebhookDelivery: {
    args: { id: string; owner: string; record: AttemptRecord };
    result: { outcome: "recorded" | "lost" };
  };
  releaseWebhookDeliveries: {
    args: { owner: string; ids: readonly string[] };
    result: { outcome: "released" };
  };
  retryWebhookDelivery: {
    args: { endpointId: string; id: string };
    result: { outcome: "retried"; delivery: WebhookDelivery } | { outcome: "absent" };
  };
  purgeWebhookDeliveries: {
    args: { before: number; limit: number };
    result: { outcome: "purged"; count: number };
  };
}

/** What each webhook write touches: the order-keeping keys of writes.ts. */
export const WEBHOOK_WRITE_KEYS: {
  [N in keyof WebhookWrites]: (args: WebhookWrites[N]["args"]) => string | readonly string[];
} = {
  // One key for every registration: the count and the insert are one step (the cap).
  createWebhookEndpoint: () => "webhook-endpoints",
  deleteWebhookEndpoint: ({ id }) => `webhook-endpoint:${id}`,
  updateWebhookEndpoint: ({ id }) => `webhook-endpoint:${id}`,
  rotateWebhookSecret: ({ id }) => `webhook-endpoint:${id}`,
  // Beside claims (which fan out first): on PostgreSQL, SKIP LOCKED shares the events out.
  fanOutWebhookEvents: () => "webhook-claims",
  claimWebhookDeliveries: () => "webhook-claims",
  completeWebhookDelivery: ({ id }) => `webhook-delivery:${id}`,
  releaseWebhookDeliveries: () => "webhook-claims",
  // It enables its endpoint again: ordered with that endpoint's delete and rotation too.
  retryWebhookDelivery: ({ endpointId, id }) => [
    `webhook-delivery:${id}`,
    `webhook-endpoint:${endpointId}`,
  ],
  purgeWebhookDeliveries: () => "webhook-purge",
};

/** The store already holds the most webhook endpoints it may. */
export class EndpointLimitError extends Error {
  override name = "EndpointLimitError";
  constructor(readonly max: number) {
    super(`the store already holds ${max} webhook endpoints, the most it takes`);
  }
}

/** Every secret rotated away in the overlap still signs, and MAX_RETIRED_SECRETS of them do. */
export class RotationLimitError extends Error {
  override name = "RotationLimitError";
  constructor() {
    super(
      `the endpoint's secret was rotated ${MAX_RETIRED_SECRETS} times within the overlap, and each of those secrets still signs: rotate again once the oldest stops signing`,
    );
  }
}

/** Why the pending deliveries of an endpoint that answered 410 Gone were failed. */
export const ENDPOINT_DISABLED =
  "not sent: the endpoint answered 410 Gone and is disabled; retrying a delivery enables it again";

/**
 * Why the pending deliveries of an event an endpoint no longer subscribes to were failed (a
 * change of its subscriptions). A retry is an operator's explicit ask, so it sends one anyway.
 */
export const EVENT_UNSUBSCRIBED =
  "not sent: the endpoint no longer subscribes to this event; retrying the delivery sends it all the same";

/** A new endpoint secret: `whsec_` and 24 random bytes in base64, as Standard Webhooks writes them. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString("base64")}`;

/** An id that sorts by creation time: prefix, 12 hex digits of ms, 10 random hex. */
export const timeOrderedId = (prefix: string, now = Date.now()): string =>
  `${prefix}${now.toString(16).padStart(12, "0")}${randomBytes(5).toString("hex")}`;

/** A secret rotated away, and until when (ms) it still signs. */
export interface RetiredSecret {
  secret: string;
  until: number;
}

/**
 * Pending deliveries are counted up to this many and no further: the count costs a bounded
 * read however large the backlog (counting 2,000,000 stalled the event loop for half a second).
 */
export const BACKLOG_COUNTED_UP_TO = 100_000;

/**
 * A claim fans events out into at most this many deliveries (and at least one event), so one
 * claim's transaction stays short whatever the number of endpoints.
 */
export const FAN_OUT_ROWS = 5_000;

/** Secrets rotated away that sign at once, at most: one more rotation waits for the oldest. */
export const MAX_RETIRED_SECRETS = 10;

/** The secrets that sign now: the current one, and each rotated away whose overlap lasts. */
export const signingSecrets = (
  secret: string,
  retired: readonly RetiredSecret[],
  now: number,
): string[] => [secret, ...retired.filter((r) => r.until > now).map((r) => r.secret)];

/**
 * The retired secrets after a rotation away from `current`, newest first; undefined when
 * MAX_RETIRED_SECRETS still sign (a rotation then would end one's overlap early).
 */
export function retiredAfterRotation(
  current: string,
  retired: readonly RetiredSecret[],
  now: number,
  overlapMs: number,
): RetiredSecret[] | undefined {
  const signing = retired.filter((r) => r.until > now);
  if (signing.length >= MAX_RETIRED_SECRETS) return undefined;
  return [{ secret: current, until: now + overlapMs }, ...signing];
}

type Run = <N extends WriteName>(name: N, args: WriteArgs<N>) => Promise<WriteResult<N>>;

/** What each engine reads itself. */
export type WebhookReads = Pick<
  WebhookStore,
  "getEndpoint" | "listEndpoints" | "listDeliveries" | "backlog" | "nextDueInMs"
>;

/** A WebhookStore from an engine's reads: every change one named write, the same everywhere. */
export function webhookStore(
  run: Run,
  reads: WebhookReads,
  /** The types of the events the document declares (tables.ts). */
  declared: readonly string[],
  clock: () => number = Date.now,
): WebhookStore {
  const fanOut = async () => (await run("fanOutWebhookEvents", {})).count;
  return {
    ...reads,
    events: declared,
    async listDeliveries(endpointId, page) {
      await fanOut();
      return reads.listDeliveries(endpointId, page);
    },
    fanOut,
    async createEndpoint({ url, description, events, maxEndpoints }) {
      const createdAt = clock();
      const row = { id: timeOrderedId("ep_", createdAt), url, description, createdAt };
      const secret = newWebhookSecret();
      const subscribed = [...new Set(events ?? declared)].sort();
      const { outcome } = await run("createWebhookEndpoint", {
        ...row,
        secret,
        events: subscribed,
        maxEndpoints: maxEndpoints ?? Number.MAX_SAFE_INTEGER,
      });
      if (outcome === "full") throw new EndpointLimitError(maxEndpoints ?? 0);
      return {
        ...row,
        createdAt: new Date(createdAt),
        disabledAt: null,
        events: subscribed,
        secret,
      };
    },
    async updateEndpoint(id, { events, description }) {
      // Events recorded so far are handed out first, as listDeliveries does: one of an event
      // dropped then fails in the log, saying why, rather than never showing there.
      if (events !== undefined) await fanOut();
      const change = {
        id,
        ...(events === undefined ? {} : { events: [...new Set(events)].sort() }),
        ...(description === undefined ? {} : { description }),
      };
      const { outcome } = await run("updateWebhookEndpoint", change);
      return outcome === "updated" ? reads.getEndpoint(id) : undefined;
    },
    async deleteEndpoint(id) {
      return (await run("deleteWebhookEndpoint", { id })).outcome === "deleted";
    },
    async rotateSecret(id, overlapMs) {
      const secret = newWebhookSecret();
      const { outcome } = await run("rotateWebhookSecret", { id, secret, overlapMs });
      if (outcome === "full") throw new RotationLimitError();
      return outcome === "rotated" ? secret : undefined;
    },
    async retryDelivery(endpointId, id) {
      const result = await run("retryWebhookDelivery", { endpointId, id });
      return result.outcome === "retried" ? result.delivery : undefined;
    },
    async claim(request) {
      return (await run("claimWebhookDeliveries", request)).deliveries;
    },
    async complete(id, owner, record) {
      return (await run("completeWebhookDelivery", { id, owner, record })).outcome === "recorded";
    },
    async release(owner, ids) {
      if (ids.length > 0) await run("releaseWebhookDeliveries", { owner, ids });
    },
    async purge(before, limit) {
      return (await run("purgeWebhookDeliveries", { before: before.getTime(), limit })).count;
    },
  };
}
