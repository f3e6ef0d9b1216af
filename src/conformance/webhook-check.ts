// The webhook checks of a run with --webhook-receiver HOST:PORT: listen there, register an
// endpoint for it in the document's endpoint registry, make the write that sends each declared
// event (webhook-registry.ts), and hold every message the deployment sends to the document:
// signed with the secret the registration answered (Standard Webhooks), the documented headers,
// the media type, the body valid for the event's schema, and the id the run wrote, digit for
// digit. The endpoint and what the run wrote are deleted again before the step ends.
import { Webhook } from "standardwebhooks";
import { schemaValidators } from "./contract-check.ts";
import { bodyOf } from "./examples.ts";
import { idOf, withId } from "./int64.ts";
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
      const expected = [];
      for (const event of events) expected.push(await sendEvent(run, event, receiver));
      checkMessages(run, events, endpoint, receiver.messages, receiver.url);
      for (const { cleanUp } of expected) await cleanUp();
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

/** Makes the write that sends `event`, waits for its message; what to delete afterwards. */
async function sendEvent(
  run: ConformanceRun,
  event: DeclaredEvent,
  receiver: Receiver,
): Promise<{ cleanUp: () => Promise<void> }> {
  const none = { cleanUp: async () => {} };
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
  if (created.status >= 300) return { cleanUp };
  if (sentBy.on !== "create") {
    const change = Object.values(bodyOf(sentBy.write).examples)[0]?.value;
    await run.check(sentBy.write.operationId, `${sentBy.on} ${id} for ${event.name}`, {
      method: sentBy.write.method,
      target: itemPath,
      headers: sentBy.on === "delete" ? auth(run.options.token) : headers,
      ...(sentBy.on === "delete" ? {} : { body: JSON.stringify(change ?? {}) }),
    });
  }
  const wait = Math.min(run.options.timeoutMs, run.sender.timeLeft());
  const arrived = await receiver.waitFor(
    (messages) => messages.some((message) => idOf(message.body) === String(id)),
    wait,
  );
  if (!arrived) {
    const seen = receiver.messages.map((message) => idOf(message.body) ?? "no id");
    run.record(event.operationId, `event ${event.name} for id ${id}`, nothingSent, [
      `no message for id ${id} within ${wait} ms${seen.length > 0 ? `; the messages carried ids ${seen.join(", ")}` : ""}`,
    ]);
  }
  return { cleanUp };
}

/** Every message received, held to the document: one check each. */
function checkMessages(
  run: ConformanceRun,
  events: readonly DeclaredEvent[],
  endpoint: Endpoint,
  messages: readonly Message[],
  url: string,
): void {
  const { validator, ajv } = schemaValidators(asDocument(run.document), () => {});
  const verifier = new Webhook(endpoint.secret);
  for (const message of messages) {
    const body = parseObject(message.body);
    // The event whose payload the body fits; the first declared, when none does.
    const event =
      events.find((e) => e.payload !== undefined && validator(e.payload)(body)) ?? events[0];
    if (event === undefined) continue;
    const broken: string[] = [];
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
    const check: Check = {
      operationId: event.operationId,
      name: `message ${message.headers["webhook-id"] ?? "(no webhook-id)"}`,
      request: { method: "POST", target: url, headers: message.headers, body: message.body },
      answer: { status: 200, headers: {}, body: "" },
      broken,
      received: true,
    };
    run.checks.push(check);
  }
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
