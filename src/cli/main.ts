// The plantstore command line: `plantstore tokens …` and `webhooks …` against DATABASE_URL's
// database, read with the same rules as the server (src/config/config.ts); `conformance`
// against a deployment's URL. Exit 2 for a usage mistake, 1 for a failure.

import { type Config, ConfigError, loadConfig } from "../config/config.ts";
import { documentData } from "../openapi/backend.ts";
import { databaseLocation, openStore } from "../store/open.ts";
import type { Store } from "../store/store.ts";
import {
  CONFORMANCE_USAGE,
  parseConformanceCommand,
  runConformanceCommand,
} from "./conformance.ts";
import { printable } from "./printable.ts";
import { unknownName } from "./suggest.ts";
import { type Output, parseTokensCommand, TOKENS_USAGE, UsageError } from "./tokens.ts";
import { parseWebhooksCommand, WEBHOOKS_USAGE } from "./webhooks.ts";

/** A command whose arguments were accepted: run over HTTP, or on the database. */
type Run =
  | { over: "http"; run: () => Promise<number> }
  | { over: "store"; run: (store: Store, config: Config) => Promise<void> };

interface Command {
  /** Its line in `plantstore --help`. */
  summary: string;
  usage: string;
  /** Checks the arguments (throwing UsageError) before anything is opened. */
  parse(args: readonly string[], io: Output): Run;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  tokens: {
    summary: "create, list and revoke the API's managed bearer tokens",
    usage: TOKENS_USAGE,
    parse(args, io) {
      const command = parseTokensCommand(args);
      return { over: "store", run: (store) => command(store.tokens, io) };
    },
  },
  webhooks: {
    summary: "add, list and remove webhook endpoints, set their events, rotate their secrets",
    usage: WEBHOOKS_USAGE,
    parse(args, io) {
      const command = parseWebhooksCommand(args);
      return {
        over: "store",
        run: (store, config) =>
          command(store.webhooks, io, {
            allowPrivate: config.webhooks.allowPrivate,
            maxEndpoints: config.ops.maxWebhookEndpoints,
            events: store.webhooks.events,
          }),
      };
    },
  },
  conformance: {
    summary: "check a running deployment against its OpenAPI document, over HTTP",
    usage: CONFORMANCE_USAGE,
    parse(args, io) {
      const options = parseConformanceCommand(args, process.env);
      return { over: "http", run: () => runConformanceCommand(options, io) };
    },
  },
};

const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
const USAGE = `usage: plantstore COMMAND [ARGUMENTS]
  (in a checkout: npm run -s plantstore -- COMMAND [ARGUMENTS])

commands:
${Object.entries(COMMANDS)
  .map(([name, { summary }]) => `  ${name.padEnd(width)}  ${summary}`)
  .join("\n")}

plantstore COMMAND --help shows a command's usage. tokens and webhooks work on the database
DATABASE_URL names, reading the server's settings from the environment as the server does;
conformance needs only the deployment's URL.`;

const io: Output = {
  out: (text: string) => void process.stdout.write(text),
  err: (text: string) => void process.stderr.write(text),
};

/** The reason on one line (what it quotes of the arguments made printable), then `usage`. */
const fail = (message: string, code = 1, usage?: string): number => {
  io.err(`plantstore: ${printable(message)}\n${usage === undefined ? "" : `${usage}\n`}`);
  return code;
};

const asksHelp = (arg: string): boolean => arg === "--help" || arg === "-h";

async function main(args: readonly string[]): Promise<number> {
  const [name, ...rest] = args;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (command === undefined) {
    if (name !== undefined && (asksHelp(name) || name === "help")) {
      io.out(`${USAGE}\n`);
      return 0;
    }
    const reason =
      name === undefined
        ? "a command is needed"
        : unknownName("command", name, Object.keys(COMMANDS));
    return fail(reason, 2, USAGE);
  }
  if (rest.some(asksHelp)) {
    io.out(`${command.usage}\n`);
    return 0;
  }
  let parsed: Run;
  try {
    parsed = command.parse(rest, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return fail(error.message, 2, command.usage);
  }
  // Against a deployment over HTTP: no database, no server configuration.
  if (parsed.over === "http") return await parsed.run();
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return fail(`invalid configuration: ${error.message}`);
  }
  let store: Store;
  try {
    store = await openStore(config.database, { startupTimeoutMs: 0, data: await documentData() });
  } catch (error) {
    const where = databaseLocation(config.database);
    return fail(`cannot open the database at ${where}: ${(error as Error).message}`);
  }
  try {
    await parsed.run(store, config);
    return 0;
  } catch (error) {
    return fail((error as Error).message);
  } finally {
    await store.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
