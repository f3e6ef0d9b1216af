// `plantstore-client/webhooks`: the receiver's half of Standard Webhooks 1.0 for every webhook
// the document declares: checks a delivery's signature and age against the endpoint's
// secret(s), and reads its body as the event its webhook-event header names, int64s exact where
// the document's schema puts them. node:crypto does the checking (one HMAC-SHA256, compared in constant
// time), so this is an entry of its own: `plantstore-client` stays free of node: for browsers.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { eventTable, webhookEvents } from "../../generated/plants.ts";
import { eventBody, WebhookVerificationError } from "./event-body.ts";

export { WebhookVerificationError };

/** The events the document declares, by the name each message's webhook-event header gives. */
export type WebhookEventName = keyof webhookEvents;

/**
 * A verified delivery: its event's name and its body as the document describes that event, and,
 * unless the event's schema is closed, any member a newer server adds (a receiver may know more
 * than this client). Narrow it by `event`: `if (delivery.event === "plantDeleted") delivery.body.id`.
 */
export type WebhookEvent = {
  [E in WebhookEventName]: {
    event: E;
    /** The webhook-id: the same on every attempt; skip one already handled. */
    id: string;
    body: webhookEvents[E] & MembersAdded<E>;
  };
}[WebhookEventName];

/** Members a newer server may add: any, unless the event's schema is closed (it lists them). */
type MembersAdded<E extends WebhookEventName> = (typeof eventTable)[E]["members"] extends null
  ? { readonly [member: string]: unknown }
  : unknown;

export interface VerifyWebhookOptions {
  /** How far the webhook-timestamp may be from now, either way (300 s). */
  toleranceSeconds?: number;
  /** The time now in milliseconds (Date.now). */
  now?: () => number;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

const SECRET_PREFIX = "whsec_";

/**
 * The delivery's event, once its signature matches one of `secrets` (an endpoint's `whsec_…`
 * secret, or two while it is being rotated), its timestamp is recent and its body is the event
 * its webhook-event header names; throws a WebhookVerificationError otherwise. Give it the body's
 * bytes exactly as received.
 */
export function verifyWebhook(
  rawBody: string | Uint8Array,
  headers: HeaderSource,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  const id = header(headers, "webhook-id");
  const event = header(headers, "webhook-event");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  checkTimestamp(timestamp, options);
  const body = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : Buffer.from(rawBody);
  const keys = (typeof secrets === "string" ? [secrets] : secrets).map(secretKey);
  const expected = keys.map((key) =>
    Buffer.from(
      createHmac("sha256", key).update(`${id}.${timestamp}.`).update(body).digest("base64"),
    ),
  );
  const given = signatures
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => Buffer.from(entry.slice(3)));
  // timingSafeEqual needs equal lengths; a length says nothing about the key.
  const genuine = given.some((signature) =>
    expected.some((mine) => mine.length === signature.length && timingSafeEqual(mine, signature)),
  );
  if (!genuine) throw new WebhookVerificationError("no webhook-signature matches the secret");
  return { event, id, body: eventBody(event, body) } as WebhookEvent;
}

function header(headers: HeaderSource, name: string): string {
  let value: string | string[] | null | undefined;
  if (headers instanceof Headers) value = headers.get(name);
  else {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
    value = key === undefined ? undefined : headers[key];
  }
  if (Array.isArray(value)) {
    if (value.length > 1) throw new WebhookVerificationError(`the ${name} header is repeated`);
    value = value[0];
  }
  if (value === undefined || value === null || value === "") {
    throw new WebhookVerificationError(`the ${name} header is missing`);
  }
  return value;
}

function checkTimestamp(timestamp: string, options: VerifyWebhookOptions): void {
  if (!/^\d{1,15}$/.test(timestamp)) {
    throw new WebhookVerificationError("the webhook-timestamp header is not a number of seconds");
  }
  const tolerance = options.toleranceSeconds ?? 300;
  const now = (options.now ?? Date.now)() / 1000;
  const seconds = Number(timestamp);
  // Either way: an old delivery may be a replay, one from the future a skewed or forged clock.
  if (seconds < now - tolerance) throw new WebhookVerificationError("the webhook is too old");
  if (seconds > now + tolerance) {
    throw new WebhookVerificationError("the webhook's timestamp is in the future");
  }
}

function secretKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, "base64");
  if (key.length === 0) throw new TypeError("a webhook secret is whsec_ and base64 key bytes");
  return key;
}
