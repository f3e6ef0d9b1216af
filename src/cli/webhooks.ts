// `plantstore webhooks add|list|remove|rotate`: webhook endpoints in DATABASE_URL's database,
// through the same store and address rules as the API's operations.
import { SECRET_OVERLAP_MS } from "../handlers/webhook-answers.ts";
import type { WebhookEndpoint, WebhookStore } from "../store/webhooks.ts";
import { checkEndpointUrl } from "../webhooks/endpoint-address.ts";
import { printable } from "./printable.ts";
import { unknownName } from "./suggest.ts";
import { type Output, UsageError } from "./tokens.ts";

interface Settings {
  allowPrivate: boolean;
  maxEndpoints: number;
  /** The events the document declares: what an endpoint may subscribe to. */
  events: readonly string[];
}

export type WebhooksCommand = (
  store: WebhookStore,
  io: Output,
  settings: Settings,
) => Promise<void>;

export const WEBHOOKS_USAGE = `usage:
  plantstore webhooks add URL [DESCRIPTION] [--events EVENT,EVENT...]
  plantstore webhooks list [--json]
  plantstore webhooks subscribe ID EVENT,EVENT...
  plantstore webhooks remove ID
  plantstore webhooks rotate ID

add prints the endpoint's signing secret on stdout, once; it is sent the events named, or every
event the API declares when none is named. subscribe sets the events an endpoint is sent.
rotate prints the new secret (the old one keeps signing for 24 hours). list prints a
tab-separated table, control characters in any field escaped (\\n, \\u001b, ...); --json
prints the endpoints as a JSON array instead.`;

const WEBHOOKS_COMMANDS = ["add", "list", "subscribe", "remove", "rotate"];

/** Checks the arguments before anything opens the database. */
export function parseWebhooksCommand(args: readonly string[]): WebhooksCommand {
  const [command, ...rest] = args;
  const expect = (min: number, max: number, what: string) => {
    if (rest.length < min || rest.length > max) throw new UsageError(`expected ${what}`);
  };
  switch (command) {
    case "add": {
      const at = rest.indexOf("--events");
      const events = at === -1 ? undefined : eventList(rest[at + 1]);
      const positional = at === -1 ? rest : [...rest.slice(0, at), ...rest.slice(at + 2)];
      if (positional.length < 1 || positional.length > 2) {
        throw new UsageError("expected a URL, an optional description and optional --events");
      }
      return (store, io, settings) =>
        add(store, io, settings, {
          url: positional[0] ?? "",
          description: positional[1] ?? null,
          events,
        });
    }
    case "subscribe":
      expect(2, 2, "one endpoint ID and its events, comma-separated");
      return async (store, io, settings) => {
        const events = eventList(rest[1]);
        checkEvents(events, settings.events);
        const endpoint = await store.updateEndpoint(rest[0] ?? "", { events });
        if (endpoint === undefined)
          throw new Error(`no webhook endpoint ${printable(rest[0] ?? "")}`);
        io.out(`webhook endpoint ${endpoint.id} is sent ${endpoint.events.join(", ")}\n`);
      };
    case "list":
      expect(0, 1, "no arguments, or --json");
      if (rest[0] !== undefined && rest[0] !== "--json") {
        throw new UsageError(`unknown option ${printable(rest[0])}`);
      }
      return (store, io) => list(store, io, rest[0] === "--json");
    case "remove":
      expect(1, 1, "one endpoint ID");
      return async (store, io) => {
        if (!(await store.deleteEndpoint(rest[0] ?? ""))) {
          throw new Error(`no webhook endpoint ${rest[0]}`);
        }
        io.out(`removed webhook endpoint ${rest[0]} and its deliveries\n`);
      };
    case "rotate":
      expect(1, 1, "one endpoint ID");
      return async (store, io) => {
        const secret = await store.rotateSecret(rest[0] ?? "", SECRET_OVERLAP_MS);
        if (secret === undefined) throw new Error(`no webhook endpoint ${rest[0]}`);
        io.out(`${secret}\n`);
        io.err("plantstore: the previous secret keeps signing for 24 hours\n");
      };
    default:
      throw new UsageError(
        command === undefined
          ? "a webhooks command is needed"
          : unknownName("webhooks command", command, WEBHOOKS_COMMANDS),
      );
  }
}

/** EVENT,EVENT... as a list; a usage error when there is none. */
function eventList(text: string | undefined): string[] {
  const events = (text ?? "").split(",").filter((event) => event !== "");
  if (events.length === 0) throw new UsageError("expected events, comma-separated");
  return events;
}

/** Refuses an event the document does not declare, naming it and those it does. */
function checkEvents(events: readonly string[], declared: readonly string[]): void {
  const unknown = events.find((event) => !declared.includes(event));
  if (unknown !== undefined) {
    throw new Error(
      `${printable(unknown)} is not an event this API sends (it sends ${declared.join(", ")})`,
    );
  }
}

async function add(
  store: WebhookStore,
  io: Output,
  settings: Settings,
  endpoint: { url: string; description: string | null; events: readonly string[] | undefined },
): Promise<void> {
  const { url, description, events } = endpoint;
  if (events !== undefined) checkEvents(events, settings.events);
  const refused = await checkEndpointUrl(url, settings.allowPrivate);
  if (refused !== undefined) throw new Error(refused);
  const created = await store.createEndpoint({
    url,
    description,
    events,
    maxEndpoints: settings.maxEndpoints,
  });
  // The secret alone on stdout, so that SECRET=$(plantstore webhooks add ...) works.
  io.out(`${created.secret}\n`);
  io.err(
    `plantstore: registered webhook endpoint ${created.id} for ${url}; its secret is shown only this once\n`,
  );
}

async function list(store: WebhookStore, io: Output, json: boolean): Promise<void> {
  const all: WebhookEndpoint[] = [];
  for (let after: string | undefined; ; ) {
    const { endpoints, full } = await store.listEndpoints({ after, limit: 100 });
    all.push(...endpoints);
    after = endpoints.at(-1)?.id;
    if (!full || after === undefined) break;
  }
  if (json) {
    const rows = all.map((e) => ({
      id: e.id,
      url: e.url,
      description: e.description,
      enabled: e.disabledAt === null,
      events: e.events,
      createdAt: e.createdAt.toISOString(),
    }));
    io.out(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  io.out("ID\tSTATUS\tCREATED\tURL\tDESCRIPTION\tEVENTS\n");
  for (const e of all) {
    const fields = [
      e.id,
      e.disabledAt === null ? "enabled" : "disabled",
      `${e.createdAt.toISOString().slice(0, 19)}Z`,
      e.url,
      e.description ?? "",
      e.events.join(","),
    ];
    io.out(`${fields.map(printable).join("\t")}\n`);
  }
}
