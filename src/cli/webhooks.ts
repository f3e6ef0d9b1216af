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
}

export type WebhooksCommand = (
  store: WebhookStore,
  io: Output,
  settings: Settings,
) => Promise<void>;

export const WEBHOOKS_USAGE = `usage:
  plantstore webhooks add URL [DESCRIPTION]
  plantstore webhooks list [--json]
  plantstore webhooks remove ID
  plantstore webhooks rotate ID

add prints the endpoint's signing secret on stdout, once; rotate prints the new one (the old
one keeps signing for 24 hours). list prints a tab-separated table, control characters in any
field escaped (\\n, \\u001b, ...); --json prints the endpoints as a JSON array instead.`;

const WEBHOOKS_COMMANDS = ["add", "list", "remove", "rotate"];

/** Checks the arguments before anything opens the database. */
export function parseWebhooksCommand(args: readonly string[]): WebhooksCommand {
  const [command, ...rest] = args;
  const expect = (min: number, max: number, what: string) => {
    if (rest.length < min || rest.length > max) throw new UsageError(`expected ${what}`);
  };
  switch (command) {
    case "add":
      expect(1, 2, "a URL and an optional description");
      return (store, io, settings) => add(store, io, settings, rest[0] ?? "", rest[1] ?? null);
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

async function add(
  store: WebhookStore,
  io: Output,
  settings: Settings,
  url: string,
  description: string | null,
): Promise<void> {
  const refused = await checkEndpointUrl(url, settings.allowPrivate);
  if (refused !== undefined) throw new Error(refused);
  const created = await store.createEndpoint({
    url,
    description,
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
      createdAt: e.createdAt.toISOString(),
    }));
    io.out(`${JSON.stringify(rows, null, 2)}\n`);
    return;
  }
  io.out("ID\tSTATUS\tCREATED\tURL\tDESCRIPTION\n");
  for (const e of all) {
    const fields = [
      e.id,
      e.disabledAt === null ? "enabled" : "disabled",
      `${e.createdAt.toISOString().slice(0, 19)}Z`,
      e.url,
      e.description ?? "",
    ];
    io.out(`${fields.map(printable).join("\t")}\n`);
  }
}
