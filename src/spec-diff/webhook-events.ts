// Webhook events: who a change to the document's `webhooks` section sends a message to.
//
// A webhook that declares `x-event: {type, table, on}` is sent only to the endpoints subscribed
// to that event type. One without it is outside that promise (this service's build refuses it;
// a generic sender would post it to every endpoint). So:
// - a webhook added without `x-event` is breaking: existing receivers may get an event they
//   never asked for and do not know (oasdiff's webhook-added is INFO, as it cannot know who is
//   sent what);
// - a webhook added with `x-event` is a compatible addition: an endpoint gets it only once it
//   subscribes;
// - a webhook removed is breaking for its receivers (oasdiff webhook-removed, ERR);
// - `x-event` removed from or changed on an existing webhook is breaking: endpoints subscribe
//   by event type, and who is sent it changes under them; added to one, it is possibly
//   breaking: an endpoint that does not subscribe to it stops getting it.
// The message itself is judged as an answer is (its receiver reads it): a member removed from
// its payload or a type changed there is breaking for receivers (classify.ts).
import type { Diff } from "api-smart-diff";
import { ADDITION, BREAKING, change, POSSIBLY, type Verdict } from "./classify.ts";

export const EVENT_EXTENSION = "x-event";

/** A webhook operation added or removed. */
export function webhookAddedOrRemoved(diff: Diff): Verdict {
  if (diff.action === "remove") {
    return { ...BREAKING, what: "webhook removed", why: "breaking for receivers that handle it" };
  }
  if (diff.action !== "add") {
    return { ...BREAKING, what: "webhook replaced", why: "breaking for receivers" };
  }
  const event = (diff.after as Record<string, unknown> | undefined)?.[EVENT_EXTENSION];
  return event === undefined
    ? {
        ...BREAKING,
        what: "webhook added",
        why: `breaking: without \`${EVENT_EXTENSION}\` it is sent to every registered endpoint, and their receivers do not know it`,
      }
    : {
        ...ADDITION,
        what: "webhook added",
        why: "compatible (sent only to endpoints that subscribe)",
      };
}

/** `x-event` of an existing webhook added, removed or changed. */
export function eventChanged(diff: Diff): Verdict {
  const what = `\`${EVENT_EXTENSION}\` ${change(diff)}`;
  const declared = diff.path.at(-1) === EVENT_EXTENSION && diff.action === "add";
  return declared
    ? {
        ...POSSIBLY,
        what,
        why: "possibly breaking for receivers whose endpoints do not subscribe to it: they stop getting it",
      }
    : {
        ...BREAKING,
        what,
        why: "breaking for endpoints subscribed by event type: who is sent it changes",
      };
}
