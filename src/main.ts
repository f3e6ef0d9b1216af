// Process entry: read configuration, open the store, listen, and shut down gracefully; with
// PLANTSTORE_WORKERS > 1, prepare the database once and supervise that many such processes.
import cluster from "node:cluster";
import { buildApp } from "./app.ts";
import { createAuthenticator } from "./auth/authenticator.ts";
import { hasUsableToken, issueInitialToken } from "./auth/issue-token.ts";
import { deliversWebhooks, isSupervisedWorker, superviseWorkers } from "./cluster.ts";
import { type Config, ConfigError, loadConfig } from "./config/config.ts";
import { settingsTable, USAGE } from "./config/help.ts";
import { nameOf } from "./config/settings.ts";
import { loadCompiledData, StaleBuildError } from "./openapi/compiled-api.ts";
import { boundHeapGrowth } from "./ops/heap-growth.ts";
import { workerMetricsText } from "./ops/worker-metrics.ts";
import { databaseLocation, openStore } from "./store/open.ts";
import { type Store, StoreUnavailableError } from "./store/store.ts";

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

/** First start with nothing configured: a managed token "initial", printed once. */
async function firstStart(config: Config, store: Store): Promise<void> {
  if (config.tokens !== undefined || config.jwt !== undefined) return;
  try {
    const issued = await issueInitialToken(store.tokens);
    if (issued === undefined) {
      if (!(await hasUsableToken(store.tokens))) {
        process.stderr.write(
          `plantstore: no usable token: every managed token is revoked or expired, and neither ${nameOf("tokens")} nor JWTs are set; create one with \`npm run plantstore -- tokens create --name NAME\`\n`,
        );
      }
      return;
    }
    process.stderr.write(
      `plantstore: no tokens yet; created the managed token "initial" (${issued.record.id}). It is shown this once:\n  ${issued.token}\n`,
    );
  } catch (error) {
    await store.close();
    fail(`cannot create the initial token: ${(error as Error).message}`);
  }
}

async function open(config: Config): Promise<Store> {
  const where = databaseLocation(config.database);
  const data = await loadCompiledData().catch((error: unknown) => {
    if (error instanceof StaleBuildError) fail(error.message);
    throw error;
  });
  try {
    return await openStore(config.database, {
      data,
      startupTimeoutMs: config.startupTimeoutMs,
      onRetry: (reason, retryInMs, giveUpInMs) =>
        process.stderr.write(
          `plantstore: database at ${where} unreachable (${reason}); retrying in ${seconds(retryInMs)}, giving up in ${seconds(giveUpInMs)}\n`,
        ),
    });
  } catch (error) {
    if (error instanceof StoreUnavailableError) {
      fail(
        `cannot reach the database at ${where} within ${seconds(config.startupTimeoutMs)} (${nameOf("startupTimeoutMs")}): ${error.message}`,
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
boundHeapGrowth();
if (cluster.isPrimary && config.workers > 1) {
  // Migrations and the first-start token happen once, here, before any worker opens the store.
  const store = await open(config);
  await firstStart(config, store);
  await store.close();
  superviseWorkers({ workers: config.workers, shutdownTimeoutMs: config.ops.shutdownTimeoutMs });
} else {
  await serve(config);
}

async function serve(config: Config): Promise<void> {
  const store = await open(config);
  // Under our supervisor the first-start token was issued before the workers were forked.
  if (!isSupervisedWorker()) await firstStart(config, store);
  const app = await buildApp({
    store,
    authenticator: (log) =>
      createAuthenticator({
        staticTokens: config.tokens ?? [],
        tokens: store.tokens,
        jwt: config.jwt,
        managed: { retentionMs: config.tokenRetentionMs },
        log,
      }),
    logLevel: config.logLevel,
    ops: config.ops,
    publicUrl: config.publicUrl,
    allowPrivateWebhooks: config.webhooks.allowPrivate,
    deliverWebhooks: config.webhooks.send && deliversWebhooks() ? config.webhooks : undefined,
    // One scrape through the shared port answers for every worker, not one chosen at random.
    shareMetrics: isSupervisedWorker() ? workerMetricsText : undefined,
  }).catch(async (error: unknown) => {
    await store.close();
    if (error instanceof StaleBuildError) fail(error.message);
    fail(`cannot set up authentication: ${(error as Error).message}`);
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
  // A worker whose supervisor is gone stops too, rather than serve on unsupervised.
  if (isSupervisedWorker()) process.on("disconnect", () => void shutdown("disconnect"));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await store.close();
    fail(`cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
}
