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
import { parseTokensCommand, TOKENS_USAGE, UsageError } from "./tokens.ts";
import { parseWebhooksCommand, WEBHOOKS_USAGE } from "./webhooks.ts";

const io = {
  out: (text: string) => void process.stdout.write(text),
  err: (text: string) => void process.stderr.write(text),
};

const fail = (message: string, code = 1): number => {
  io.err(`plantstore: ${message}\n`);
  return code;
};

const usageOf = (group: string | undefined): string =>
  group === "webhooks"
    ? WEBHOOKS_USAGE
    : group === "conformance"
      ? CONFORMANCE_USAGE
      : TOKENS_USAGE;

async function main(args: readonly string[]): Promise<number> {
  const [group, ...rest] = args;
  if (group === "--help" || group === "-h" || rest.includes("--help")) {
    io.out(`${usageOf(group)}\n`);
    return 0;
  }
  // Against a deployment over HTTP: no database, no server configuration.
  if (group === "conformance") {
    try {
      return await runConformanceCommand(parseConformanceCommand(rest, process.env), io);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      return fail(`${error.message}\n${CONFORMANCE_USAGE}`, 2);
    }
  }
  let run: (store: Store, config: Config) => Promise<void>;
  try {
    if (group === "tokens") {
      const command = parseTokensCommand(rest);
      run = (store) => command(store.tokens, io);
    } else if (group === "webhooks") {
      const command = parseWebhooksCommand(rest);
      run = (store, config) =>
        command(store.webhooks, io, {
          allowPrivate: config.webhooks.allowPrivate,
          maxEndpoints: config.ops.maxWebhookEndpoints,
        });
    } else {
      throw new UsageError(
        group === undefined ? "a command is needed" : `unknown command "${group}"`,
      );
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return fail(`${error.message}\n${usageOf(group)}`, 2);
  }
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
    await run(store, config);
    return 0;
  } catch (error) {
    return fail((error as Error).message);
  } finally {
    await store.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
