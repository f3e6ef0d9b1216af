// Process entry: read configuration, open the store, listen, and shut down gracefully.
import { randomBytes } from "node:crypto";
import { buildApp } from "./app.ts";
import { type Config, ConfigError, loadConfig } from "./config.ts";
import { settingsTable, USAGE } from "./ops/settings-table.ts";
import { databaseLocation, openStore } from "./store/open.ts";
import { type PlantStore, StoreUnavailableError } from "./store/store.ts";

function fail(message: string): never {
  process.stderr.write(`plantstore: ${message}\n`);
  process.exit(1);
}

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) fail(`invalid configuration: ${error.message}`);
    throw error;
  }
}

function tokensFor(config: Config): readonly string[] {
  if (config.tokens !== undefined) return config.tokens;
  const token = randomBytes(32).toString("base64url");
  process.stderr.write(
    `plantstore: PLANTSTORE_TOKENS is not set; this run accepts one generated bearer token:\n  ${token}\n`,
  );
  return [token];
}

async function open(config: Config): Promise<PlantStore> {
  const where = databaseLocation(config.database);
  try {
    return await openStore(config.database, {
      startupTimeoutMs: config.startupTimeoutMs,
      onRetry: (reason, retryInMs, giveUpInMs) =>
        process.stderr.write(
          `plantstore: database at ${where} unreachable (${reason}); retrying in ${seconds(retryInMs)}, giving up in ${seconds(giveUpInMs)}\n`,
        ),
    });
  } catch (error) {
    if (error instanceof StoreUnavailableError) {
      fail(
        `cannot reach the database at ${where} within ${seconds(config.startupTimeoutMs)} (DATABASE_STARTUP_TIMEOUT_MS): ${error.message}`,
      );
    }
    fail(`cannot open the database at ${where}: ${(error as Error).message}`);
  }
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

const flags = process.argv.slice(2);
const unknownFlag = flags.find((flag) => flag !== "--help" && flag !== "--print-config");
if (unknownFlag !== undefined) fail(`unknown option ${unknownFlag}; see --help`);
if (flags.includes("--help")) {
  process.stdout.write(`${USAGE}\n${settingsTable(process.env)}`);
  process.exit(0);
}
const config = readConfig();
if (flags.includes("--print-config")) {
  process.stdout.write(settingsTable(process.env));
  process.exit(0);
}
const store = await open(config);
const app = await buildApp({
  store,
  tokens: tokensFor(config),
  logLevel: config.logLevel,
  ops: config.ops,
});
app.log.info({ store: store.describe() }, "store opened");

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  app.log.info({ signal }, "shutting down: finishing in-flight requests");
  const deadline = setTimeout(() => {
    app.log.error("shutdown deadline passed; exiting with requests unfinished");
    process.exit(1);
  }, config.ops.shutdownTimeoutMs);
  deadline.unref();
  try {
    await app.close();
    await store.close();
    app.log.info("stopped");
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, "shutdown failed");
    process.exit(1);
  }
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));

try {
  await app.listen({ port: config.port, host: config.host });
} catch (error) {
  await store.close();
  fail(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
}
