// A webhook body read as the event its webhook-event header names, by the event's entry in the
// document's eventTable (generated/plants.ts): a JSON object with the members it always has,
// its int64s exact, and, when the event's schema is closed, no member the schema does not allow.
// The table is an argument so that a test can read a body by a document's table of its own.
import { eventTable } from "../../generated/plants.ts";
import { fromJson, type Location } from "./exact-json.ts";

/** A delivery that is not genuine, too old or too new, or not the event it names. */
export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError";
}

/** An event as eventTable describes it. */
export interface DescribedEvent {
  readonly int64InBody: readonly Location[];
  readonly required: readonly string[];
  /** The only members it may have (its schema is closed), or null when any may be added. */
  readonly members: readonly string[] | null;
}

/** The body as the named event's; throws a WebhookVerificationError when it is not one. */
export function eventBody(
  event: string,
  body: Uint8Array,
  table: Readonly<Record<string, DescribedEvent>> = eventTable,
): Record<string, unknown> {
  const described = Object.hasOwn(table, event) ? table[event] : undefined;
  if (described === undefined) {
    throw new WebhookVerificationError(
      `the webhook is a ${event} event, which this client does not know (it knows ${Object.keys(table).join(", ")})`,
    );
  }
  let parsed: unknown;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(body);
    // The int64 locations are read from the webhook's schema, so a member added there is exact.
    parsed = fromJson(text, described.int64InBody);
  } catch (error) {
    throw new WebhookVerificationError(
      `the webhook body is not JSON with its int64s as integers: ${error}`,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new WebhookVerificationError(`the webhook body is not a ${event} event (an object)`);
  }
  const members = parsed as Record<string, unknown>;
  const missing = described.required.find((member) => !(member in members));
  if (missing !== undefined) {
    throw new WebhookVerificationError(`the webhook body is not a ${event} event: no ${missing}`);
  }
  const allowed = described.members;
  const undeclared =
    allowed === null ? undefined : Object.keys(members).find((m) => !allowed.includes(m));
  if (undeclared !== undefined) {
    throw new WebhookVerificationError(
      `the webhook body is not a ${event} event: its schema allows no member ${undeclared}`,
    );
  }
  // fromJson made every number at an int64 place a bigint; anything else there is not one.
  const notInt64 = described.int64InBody.find(
    ([member, ...deeper]) =>
      deeper.length === 0 &&
      typeof member === "string" &&
      member in members &&
      typeof members[member] !== "bigint",
  );
  if (notInt64 !== undefined) {
    throw new WebhookVerificationError(
      `the webhook body is not a ${event} event: ${String(notInt64[0])} is not an integer`,
    );
  }
  return members;
}
