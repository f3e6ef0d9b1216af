// `plantstore webhooks add|list|remove|rotate`: webhook endpoints in DATABASE_URL's database,
// through the same store and address rules as the API's operations.
import { SECRET_OVERLAP_MS } from "../handlers/webhook-answers.ts";
import type { WebhookStore } from "../store/webhooks.ts";
import { checkEndpointUrl } from "../webhooks/endpoint-address.ts";
import { type Output, UsageError } from "./tokens.ts";

export type WebhooksCommand = (
  store: WebhookStore,
  io: Output,
  settings: { allowPrivate: boolean },
) => Promise<void>;

export const WEBHOOKS_USAGE = `usage:
  plantstore webhooks add URL [DESCRIPTION]
  plantstore webhooks list
  plantstore webhooks remove ID
  plantstore webhooks rotate ID

add prints the endpoint's signing secret on stdout, once; rotate prints the new one (the old
one keeps signing for 24 hours).`;

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
      expect(0, 0, "no arguments");
      return (store, io) => list(store, io);
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
          : `unknown webhooks command "${command}"`,
      );
  }
}

async function add(
  store: WebhookStore,
  io: Output,
  settings: { allowPrivate: boolean },
  url: string,
  description: string | null,
): Promise<void> {
  const refused = await checkEndpointUrl(url, settings.allowPrivate);
  if (refused !== undefined) throw new Error(refused);
  const created = await store.createEndpoint({ url, description });
  // The secret alone on stdout, so that SECRET=$(plantstore webhooks add ...) works.
  io.out(`${created.secret}\n`);
  io.err(
    `plantstore: registered webhook endpoint ${created.id} for ${url}; its secret is shown only this once\n`,
  );
}

async function list(store: WebhookStore, io: Output): Promise<void> {
  io.out("ID\tSTATUS\tCREATED\tURL\tDESCRIPTION\n");
  for (let after: string | undefined; ; ) {
    const { endpoints, full } = await store.listEndpoints({ after, limit: 100 });
    for (const e of endpoints) {
      const status = e.disabledAt === null ? "enabled" : "disabled";
      io.out(
        `${e.id}\t${status}\t${e.createdAt.toISOString().slice(0, 19)}Z\t${e.url}\t${e.description ?? ""}\n`,
      );
    }
    after = endpoints.at(-1)?.id;
    if (!full || after === undefined) return;
  }
}
