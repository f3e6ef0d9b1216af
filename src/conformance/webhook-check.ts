// The webhook checks of a run with --webhook-receiver HOST:PORT: listen there, register an
// endpoint for it in the document's endpoint registry, make the write that sends each declared
// event (webhook-registry.ts), and hold every message the deployment sends to the document:
// signed with the secret the registration answered (Standard Webhooks), the documented headers,
// the media type, the body valid for the event's schema, and the id the run wrote, digit for
// digit; sent for a write of the run that declares that event, one message per write. A
// message is the event whose webhook documents a header const it carries (webhook-event),
// else the one whose payload its body fits. The endpoint and what the run wrote are deleted
// again before the step ends.
import { Webhook } from "standardwebhooks";
import { schemaValidators } from "./contract-check.ts";
import { bodyOf } from "./examples.ts";
import { type Collection, idOf, withId } from "./int64.ts";
import { asDocument } from "./operations.ts";
import type { Check } from "./results.ts";
import { auth, type ConformanceRun } from "./run-context.ts";
import type { Request } from "./sender.ts";
import { type Message, type Receiver, startReceiver } from "./webhook-receiver.ts";
import {
  type DeclaredEvent,
  declaredEvents,
  type EndpointRegistry,
  endpointRegistry,
  type Trigger,
} from "./webhook-registry.ts";

const STEP = "(webhooks)";

interface Endpoint {
  path: string;
  secret: string;
}

export async function checkWebhooks(run: ConformanceRun): Promise<void> {
  const listen = run.options.webhookReceiver;
  if (listen === undefined) return;
  const document = asDocument(run.document);
  const events = declaredEvents(document);
  const registry = endpointRegistry(document);
  if (events.length === 0) {
    run.notes.push("--webhook-receiver: the document declares no webhook");
    return;
  }
  const refuse = (why: string) => run.record(STEP, "webhooks checked", nothingSent, [why]);
  if (!run.writing) {
    return refuse(`webhooks not checked: ${run.writesRefused ?? "they need --allow-writes"}`);
  }
  if (registry?.remove === undefined) {
    return refuse("webhooks not checked: the document has no endpoint registry to register in");
  }
  let receiver: Receiver;
  try {
    receiver = await startReceiver(listen.host, listen.port);
  } catch (error) {
    return refuse(`cannot listen on ${listen.host}:${listen.port}: ${(error as Error).message}`);
  }
  try {
    const endpoint = await register(run, registry, receiver.url, events);
    if (endpoint === undefined) return;
    try {
      const eventOf = eventReader(run, events);
      const writes: Write[] = [];
      const cleanUps = [];
      for (const event of events) {
        cleanUps.push(await sendEvent(run, event, receiver, eventOf, writes));
      }
      checkMessages(run, eventOf, writes, endpoint, receiver.messages, receiver.url);
      for (const cleanUp of cleanUps) await cleanUp();
    } finally {
      run.sender.allowCleanUp();
      await run.check(registry.remove.operationId, "delete the run's webhook endpoint", {
        method: "DELETE",
        target: endpoint.path,
        headers: auth(run.options.token),
      });
    }
  } finally {
    await receiver.close();
  }
}

const nothingSent: Request = { method: "-", target: "", headers: {} };

/** A write the run made: the events declared for it (and only those) may be sent. */
interface Write {
  collection: Collection;
  on: Trigger;
  id: string;
}

type EventOf = (message: Message) => DeclaredEvent | undefined;

/**
 * The declared event a message is: the one whose webhook documents a header with a const that
 * the message carries (webhook-event), else, where no webhook names itself, the one it fits.
 */
function eventReader(run: ConformanceRun, events: readonly DeclaredEvent[]): EventOf {
  const { validator } = schemaValidators(asDocument(run.document), () => {});
  const naming = (event: DeclaredEvent) =>
    event.headers.flatMap((h) => {
      const value = (h.schema as { const?: unknown } | undefined)?.const;
      return typeof value === "string" ? [{ name: (h.name ?? "").toLowerCase(), value }] : [];
    });
  const named = events.some((event) => naming(event).length > 0);
  return (message) =>
    named
      ? events.find((e) => naming(e).some((h) => message.headers[h.name] === h.value))
      : events.find(
          (e) => e.payload !== undefined && validator(e.payload)(parseObject(message.body)),
        );
}

/** Registers the receiver's URL, subscribed to every declared event; its path and secret. */
async function register(
  run: ConformanceRun,
  registry: EndpointRegistry,
  url: string,
  events: readonly DeclaredEvent[],
): Promise<Endpoint | undefined> {
  const example = Object.values(bodyOf(registry.create).examples)[0]?.value;
  const body: Record<string, unknown> = { ...(example as Record<string, unknown> | undefined) };
  body[registry.urlMember] = url;
  // A list of event names in the example is the endpoint's subscriptions: all of them, here.
  const names = events.map((event) => event.name);
  for (const [member, value] of Object.entries(body)) {
    if (Array.isArray(value) && value.some((v) => names.includes(String(v)))) body[member] = names;
  }
  let endpoint: Endpoint | undefined;
  await run.check(
    registry.create.operationId,
    "register the run's webhook endpoint",
    {
      method: "POST",
      target: registry.create.template,
      headers: { ...auth(run.options.token), "content-type": "application/json" },
      body: JSON.stringify(body),
    },
    (answer) => {
      if (answer.status >= 300) return [`the endpoint for ${url} is answered ${answer.status}`];
      const made = parseObject(answer.body);
      const parameter = /\{([^{}/]+)\}$/.exec(registry.remove?.template ?? "")?.[1] ?? "id";
      const id = made?.[parameter];
      const secret = made?.["secret"];
      if ((typeof id !== "string" && typeof id !== "number") || typeof secret !== "string") {
        return [`the registration's answer has no ${parameter} and secret`];
      }
      endpoint = {
        path: (registry.remove?.template ?? "").replace(
          `{${parameter}}`,
          encodeURIComponent(String(id)),
        ),
        secret,
      };
      return [];
    },
  );
  return endpoint;
}

/** Makes the write that sends `event` (kept in `writes`), waits for its message; the clean-up. */
async function sendEvent(
  run: ConformanceRun,
  event: DeclaredEvent,
  receiver: Receiver,
  eventOf: EventOf,
  writes: Write[],
): Promise<() => Promise<void>> {
  const none = async () => {};
  const { sentBy } = event;
  if (sentBy === undefined) {
    run.record(event.operationId, `event ${event.name}`, nothingSent, [
      "no write of the document is known to send this event (x-event, or a create whose body is its payload)",
    ]);
    return none;
  }
  const { collection } = sentBy;
  const id = run.nextId();
  const example = Object.values(bodyOf(collection.create ?? sentBy.write).examples)[0]?.value;
  if (collection.create === undefined || id === undefined || example === undefined) {
    run.record(event.operationId, `event ${event.name}`, nothingSent, [
      "the run cannot create an item to send it for (no create with an example, or --id-range used up)",
    ]);
    return none;
  }
  const itemPath = collection.item.template.replace(`{${collection.parameter}}`, String(id));
  const headers = { ...auth(run.options.token), "content-type": "application/json" };
  const created = await run.check(collection.create.operationId, `create ${id} for ${event.name}`, {
    method: "POST",
    target: collection.create.template,
    headers,
    body: withId(JSON.stringify(example), id),
  });
  const cleanUp = async () => {
    if (sentBy.on === "delete" || created.status >= 300 || collection.remove === undefined) return;
    run.sender.allowCleanUp();
    await run.check(collection.remove.operationId, `delete ${id} made for ${event.name}`, {
      method: "DELETE",
      target: itemPath,
      headers: auth(run.options.token),
    });
  };
  if (created.status >= 300) return cleanUp;
  writes.push({ collection, on: "create", id: String(id) });
  if (sentBy.on !== "create") {
    const change = Object.values(bodyOf(sentBy.write).examples)[0]?.value;
    const written = await run.check(
      sentBy.write.operationId,
      `${sentBy.on} ${id} for ${event.name}`,
      {
        method: sentBy.write.method,
        target: itemPath,
        headers: sentBy.on === "delete" ? auth(run.options.token) : headers,
        ...(sentBy.on === "delete" ? {} : { body: JSON.stringify(change ?? {}) }),
      },
    );
    if (written.status < 300) writes.push({ collection, on: sentBy.on, id: String(id) });
  }
  const wait = Math.min(run.options.timeoutMs, run.sender.timeLeft());
  const arrived = await receiver.waitFor(
    (messages) =>
      messages.some((m) => idOf(m.body) === String(id) && eventOf(m)?.name === event.name),
    wait,
  );
  if (!arrived) {
    const seen = receiver.messages.map((message) => idOf(message.body) ?? "no id");
    run.record(event.operationId, `event ${event.name} for id ${id}`, nothingSent, [
      `no ${event.name} message for id ${id} within ${wait} ms${seen.length > 0 ? `; the messages carried ids ${seen.join(", ")}` : ""}`,
    ]);
  }
  return cleanUp;
}

/** Every message received, held to the document: one check each. */
function checkMessages(
  run: ConformanceRun,
  eventOf: EventOf,
  writes: readonly Write[],
  endpoint: Endpoint,
  messages: readonly Message[],
  url: string,
): void {
  const { validator, ajv } = schemaValidators(asDocument(run.document), () => {});
  const verifier = new Webhook(endpoint.secret);
  /** The webhook-ids seen per event and id: a write's event is one message, however often sent. */
  const sent = new Map<string, Set<string>>();
  for (const message of messages) {
    const body = parseObject(message.body);
    const event = eventOf(message);
    const id = idOf(message.body);
    const broken: string[] = [];
    if (event === undefined) {
      run.checks.push({
        ...received(message, url, ["the message is none of the events the document declares"]),
        operationId: STEP,
      });
      continue;
    }
    const declared = writes.some(
      (w) => w.id === id && w.on === event.sentBy?.on && w.collection === event.sentBy.collection,
    );
    if (!declared) {
      broken.push(`sent for id ${id ?? "(none)"}, which no write declaring ${event.name} made`);
    }
    const key = `${event.name} ${id}`;
    const ids = sent.get(key) ?? new Set<string>();
    sent.set(key, ids.add(message.headers["webhook-id"] ?? ""));
    if (ids.size === 2)
      broken.push(`a second ${event.name} message for id ${id} (one write, one event)`);
    try {
      verifier.verify(message.body, message.headers);
    } catch (error) {
      broken.push(
        `the signature does not verify with the endpoint's secret: ${(error as Error).message}`,
      );
    }
    for (const header of event.headers) {
      const value = message.headers[(header.name ?? "").toLowerCase()];
      if (value === undefined) {
        if (header.required === true) broken.push(`the ${header.name} header is missing`);
      } else if (header.schema !== undefined && !validator(header.schema)(value)) {
        broken.push(`the ${header.name} header "${value}" does not match its schema`);
      }
    }
    const type = message.headers["content-type"]?.split(";")[0]?.trim();
    if (type !== event.media) broken.push(`content type ${type ?? "(none)"}, not ${event.media}`);
    if (body === undefined) broken.push("the body is not a JSON object");
    else if (event.payload !== undefined) {
      const validate = validator(event.payload);
      if (!validate(body)) {
        broken.push(
          `the body does not match ${event.name}'s schema: ${ajv.errorsText(validate.errors)}`,
        );
      }
    }
    run.checks.push({ ...received(message, url, broken), operationId: event.operationId });
  }
}

/** A message held to the document, as a check of the run. */
function received(message: Message, url: string, broken: string[]): Omit<Check, "operationId"> {
  return {
    name: `message ${message.headers["webhook-id"] ?? "(no webhook-id)"}`,
    request: { method: "POST", target: url, headers: message.headers, body: message.body },
    answer: { status: 200, headers: {}, body: "" },
    broken,
    received: true,
  };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
