// The service started on a fresh store of its own for a paired run: a SQLite file, or a
// PostgreSQL database on TEST_DATABASE_URL's server dropped when the server stops; preloaded
// with plants and, through `prepare`, anything else a bench needs there before it starts.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { createPostgresDatabase } from "./postgres-database.ts";
import { preloadSqlite } from "./preload.ts";
import { type BenchServer, startServer } from "./server.ts";
import { serviceEnv } from "./service.ts";

/** Where a service's store is, for a bench to fill or read it directly. */
export type StoreLocation =
  | { engine: "sqlite"; path: string }
  | { engine: "postgres"; url: string };

export interface ServiceSpec {
  engine: "sqlite" | "postgres";
  /** TEST_DATABASE_URL, for postgres. */
  adminUrl: string | undefined;
  /** The directory for SQLite files and logs. */
  work: string;
  command: string[];
  /** Names the file, database and log; unique among the servers running at once. */
  name: string;
  plants: number;
  /** Cores to pin the server to. */
  cores: string;
  /** Settings added to serviceEnv's. */
  env?: Record<string, string>;
  /** Runs on the migrated, preloaded store before the server starts. */
  prepare?: (store: StoreLocation) => Promise<void>;
}

export interface ServiceOnStore {
  server: BenchServer;
  store: StoreLocation;
}

export async function startServiceOnStore(spec: ServiceSpec): Promise<ServiceOnStore> {
  const logFile = join(spec.work, `${spec.name}.log`);
  const start = (url: string) =>
    startServer({
      command: spec.command,
      env: { ...serviceEnv(url), ...spec.env },
      cores: spec.cores,
      logFile,
    });
  if (spec.engine === "sqlite") {
    const path = join(spec.work, `${spec.name}.db`);
    // A fresh file each time, with no WAL left by a server that had to be killed.
    for (const file of [path, `${path}-wal`, `${path}-shm`]) rmSync(file, { force: true });
    const store: StoreLocation = { engine: "sqlite", path };
    // Creates the file and its schema even with no plants, for `prepare`. With neither, the
    // service makes its own: another checkout's may know fewer migrations than this one.
    if (spec.plants > 0 || spec.prepare !== undefined) {
      preloadSqlite(path, spec.plants);
      await spec.prepare?.(store);
    }
    return { server: await start(`sqlite:${path}`), store };
  }
  const database = await createPostgresDatabase(
    spec.adminUrl ?? "",
    `plantstore_paired_${process.pid}_${spec.name}`,
    spec.plants > 0 || spec.prepare !== undefined ? spec.plants : undefined,
  );
  const store: StoreLocation = { engine: "postgres", url: database.url };
  let server: BenchServer;
  try {
    await spec.prepare?.(store);
    server = await start(database.url);
  } catch (error) {
    await database.drop();
    throw error;
  }
  return {
    store,
    server: {
      ...server,
      stop: async () => {
        try {
          await server.stop();
        } finally {
          await database.drop();
        }
      },
    },
  };
}
