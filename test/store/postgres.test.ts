import { readFileSync } from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig, type PostgresDatabase } from "../../src/config/config.ts";
import { migratePostgres, POSTGRES_MIGRATIONS } from "../../src/store/postgres/migrations.ts";
import { openPostgresStore } from "../../src/store/postgres/store.ts";
import {
  SchemaTooNewError,
  type Store,
  StoreFaultError,
  StoreUnavailableError,
} from "../../src/store/store.ts";
import { uniqueId } from "../helpers/app.ts";
import { sleep, waitUntil } from "../helpers/load.ts";
import {
  expectUpgradedDelivery,
  expectUpgradedOutbox,
  expectUpgradedSubscriptions,
  V5_ROWS,
  V6_ROWS,
  V7_ROWS,
} from "../helpers/outbox-upgrade.ts";
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from "../helpers/postgres.ts";
import { expectRelease6Kept, RELEASE_6_FIXTURES } from "../helpers/release-upgrade.ts";
import { DATA, postgresEngine } from "../helpers/stores.ts";
import { hostAndPort, startTcpProxy, type TcpProxy, throughProxy } from "../helpers/tcp-proxy.ts";
import { storedEvents } from "../helpers/token-rows.ts";
import { describeStoreContract } from "./store-contract.ts";

const enabled = TEST_DATABASE_URL !== undefined;

if (enabled) describeStoreContract(postgresEngine);

function settingsFor(url: string, env: Record<string, string> = {}): PostgresDatabase {
  const { database } = loadConfig({ DATABASE_URL: url, ...env });
  if (database.engine !== "postgres") throw new Error(`${url} is not a PostgreSQL URL`);
  return database;
}

describe.skipIf(!enabled)("PostgreSQL specifics", () => {
  let db: TestDatabase;
  let admin: postgres.Sql;
  const opened: Store[] = [];
  const open = async (url = db.url, env: Record<string, string> = {}): Promise<Store> => {
    const store = await openPostgresStore(settingsFor(url, env), { data: DATA });
    opened.push(store);
    return store;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    admin = postgres(db.url, { max: 2, onnotice: () => undefined });
  });
  afterAll(async () => {
    await Promise.all(opened.map((s) => s.close().catch(() => undefined)));
    await admin?.end({ timeout: 1 });
    await db?.drop();
  });

  it("when eight instances open a fresh database at once, then each migration is applied once", async () => {
    const fresh = await createTestDatabase();
    try {
      const stores = await Promise.all(
        Array.from({ length: 8 }, () => openPostgresStore(settingsFor(fresh.url), { data: DATA })),
      );
      await Promise.all(stores.map((s) => s.close()));
      const check = postgres(fresh.url, { max: 1 });
      const rows = await check`SELECT version, name FROM plantstore_migrations ORDER BY version`;
      await check.end();
      expect(rows.map((r) => ({ ...r }))).toEqual(POSTGRES_MIGRATIONS);
    } finally {
      await fresh.drop();
    }
  });

  it("when the store is open, then ids are BIGINT and commits are synchronous", async () => {
    const store = await open();
    const [column] = await admin`
      SELECT data_type FROM information_schema.columns
      WHERE table_name = 'plants' AND column_name = 'id'`;
    expect(column?.["data_type"]).toBe("bigint");
    expect(store.describe()).toMatch(
      new RegExp(
        `^postgres postgres://postgres@.*schema version ${POSTGRES_MIGRATIONS.length}, .*synchronous_commit=on\\)$`,
      ),
    );
  });

  it("when a version-1 database is opened, then it gains the token table and keeps its plants", async () => {
    const old = await createTestDatabase();
    try {
      const sql = postgres(old.url, { max: 1, onnotice: () => undefined });
      await sql`CREATE TABLE plantstore_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,
                  applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`;
      await sql`CREATE TABLE plants (id BIGINT PRIMARY KEY, name TEXT NOT NULL, tag TEXT)`;
      await sql`INSERT INTO plantstore_migrations (version, name)
                VALUES (1, ${POSTGRES_MIGRATIONS[0]?.name ?? ""})`;
      await sql`INSERT INTO plants (id, name) VALUES (5, 'Kept')`;
      await sql.end();
      const store = await openPostgresStore(settingsFor(old.url), { data: DATA });
      try {
        expect(await store.resources.plants.get(5n)).toEqual({ id: 5n, name: "Kept" });
        expect(await store.tokens.list()).toEqual([]);
        expect(store.describe()).toContain(`schema version ${POSTGRES_MIGRATIONS.length}`);
      } finally {
        await store.close();
      }
    } finally {
      await old.drop();
    }
  });

  /** A database migrated to `version` and filled as that version would have, then opened. */
  async function upgradedFrom(
    version: number,
    fill: (sql: postgres.Sql<{ bigint: bigint }>) => Promise<void>,
    check: (store: Store, url: string) => Promise<void>,
  ): Promise<void> {
    const old = await createTestDatabase();
    try {
      const sql = postgres(old.url, {
        max: 1,
        onnotice: () => undefined,
        types: { bigint: postgres.BigInt },
      });
      await migratePostgres(sql, version);
      await fill(sql);
      await sql.end();
      const store = await openPostgresStore(settingsFor(old.url), { data: DATA });
      try {
        await check(store, old.url);
      } finally {
        await store.close();
      }
    } finally {
      await old.drop();
    }
  }

  it("when a version-5 database holds pending deliveries, then each becomes an event of its own and is still sent", async () => {
    const { endpoint, delivery, plantId, body, at } = V5_ROWS;
    await upgradedFrom(
      5,
      async (sql) => {
        await sql`INSERT INTO webhook_endpoints (id, url, secret, created_at)
                  VALUES (${endpoint}, 'https://a.example/h', 'whsec_x', ${new Date(at)})`;
        await sql`INSERT INTO webhook_deliveries (id, endpoint_id, plant_id, body, status, attempts,
                    next_attempt_at, created_at, updated_at)
                  VALUES (${delivery}, ${endpoint}, ${String(plantId)}::int8, ${body}, 'pending', 0,
                          ${new Date(at)}, ${new Date(at)}, ${new Date(at)})`;
      },
      (store) => expectUpgradedDelivery(store),
    );
  });

  it("when a version-6 database holds events, then the endpoint gets those recorded after its registration, and a leftover event goes", async () => {
    const { endpoint, registeredAt, events, delivery } = V6_ROWS;
    const at = new Date(registeredAt);
    await upgradedFrom(
      6,
      async (sql) => {
        await sql`INSERT INTO webhook_endpoints (id, url, secret, created_at)
                  VALUES (${endpoint}, 'https://a.example/h', 'whsec_x', ${at})`;
        for (const e of events) {
          await sql`INSERT INTO webhook_events (id, type, subject_id, body, created_at, fanned_out)
                    VALUES (${e.id}, 'newPlant', ${String(e.subject)}::int8, '{}',
                            ${new Date(e.at)}, ${e.fannedOut})`;
        }
        await sql`SELECT setval('webhook_events_id_seq', ${events.length})`;
        await sql`INSERT INTO webhook_deliveries (id, endpoint_id, event_id, status, attempts,
                    next_attempt_at, created_at, updated_at)
                  VALUES (${delivery.id}, ${endpoint}, ${delivery.event}, 'pending', 0, ${at},
                          ${at}, ${at})`;
      },
      (store, url) => expectUpgradedOutbox(store, () => storedEvents(url)),
    );
  });

  it("when a version-7 database holds an endpoint, then it keeps exactly the event it was sent, and a later one only once it subscribes", async () => {
    await upgradedFrom(
      7,
      async (sql) => {
        await sql`INSERT INTO webhook_endpoints (id, url, secret, created_at, first_event_id)
                  VALUES (${V7_ROWS.endpoint}, 'https://a.example/h', 'whsec_x',
                          ${new Date(V7_ROWS.registeredAt)}, 1)`;
      },
      (store) => expectUpgradedSubscriptions(store),
    );
  });

  it("when a dump of a database the release before declared tables made is restored and opened, then every row reads back as stored and new writes and webhooks work", async () => {
    const old = await createTestDatabase();
    try {
      const dump = readFileSync(new URL("plants.sql", RELEASE_6_FIXTURES), "utf8");
      const sql = postgres(old.url, { max: 1, onnotice: () => undefined });
      // pg_dump's plain SQL, less psql's own commands (\restrict): INSERTs, no COPY.
      await sql.unsafe(dump.replace(/^\\.*$/gm, "")).simple();
      await sql.end();
      const store = await openPostgresStore(settingsFor(old.url), { data: DATA });
      try {
        expect(store.describe()).toContain(`schema version ${POSTGRES_MIGRATIONS.length}`);
        await expectRelease6Kept(store, "postgres");
      } finally {
        await store.close();
      }
    } finally {
      await old.drop();
    }
  });

  it("when the URL carries a password, then describe() masks it", async () => {
    const url = new URL(db.url);
    url.password = "not-checked-under-trust";
    const store = await open(url.toString());
    expect(store.describe()).toContain(":***@");
    expect(store.describe()).not.toContain("not-checked-under-trust");
  });

  it("when the schema is newer than this version knows, then opening is refused", async () => {
    const newer = await createTestDatabase();
    try {
      await (await openPostgresStore(settingsFor(newer.url), { data: DATA })).close();
      const sql = postgres(newer.url, { max: 1 });
      await sql`INSERT INTO plantstore_migrations (version, name) VALUES (99, 'from the future')`;
      await sql.end();
      const opening = openPostgresStore(settingsFor(newer.url), { data: DATA });
      await expect(opening).rejects.toBeInstanceOf(SchemaTooNewError);
      await expect(opening).rejects.toThrow(/schema is version 99, newer than this plantstore/);
    } finally {
      await newer.drop();
    }
  });

  it("when the database's encoding is not UTF8, then opening is refused with the reason", async () => {
    const latin1 = await createTestDatabase(
      "ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0",
    );
    try {
      await expect(openPostgresStore(settingsFor(latin1.url), { data: DATA })).rejects.toThrow(
        /encoding is LATIN1; plantstore needs UTF8/,
      );
    } finally {
      await latin1.drop();
    }
  });

  it("when the store has been closed, then a create reports the store unavailable", async () => {
    const store = await openPostgresStore(settingsFor(db.url), { data: DATA });
    await store.close();
    await expect(
      store.resources.plants.create({ id: uniqueId(), name: "late" }),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it("when a create waits on a row lock past the query timeout, then it is unavailable and nothing is stored", async () => {
    // Long enough for opening the store on a loaded machine; the lock below is held until the
    // create has given up, however long that is.
    const store = await open(db.url, { DATABASE_QUERY_TIMEOUT_MS: "1000" });
    const id = uniqueId();
    // Another session inserts the same id and holds its transaction open.
    const holder = postgres(db.url, { max: 1 });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: () => void = () => undefined;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const locking = holder.begin(async (tx) => {
      await tx`INSERT INTO plants (id, name) VALUES (${String(id)}, 'held')`;
      locked();
      await held;
      throw new Error("roll back");
    });
    await isLocked;
    await expect(store.resources.plants.create({ id, name: "waiting" })).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    release();
    await expect(locking).rejects.toThrow("roll back");
    await holder.end();
    expect(await store.resources.plants.get(id)).toBeUndefined();
    expect((await store.resources.plants.create({ id, name: "after" })).kind).toBe("created");
  });

  it("when the database turns read-only (a standby after a failover), then creates fail as faults and ping too until it is writable again", async () => {
    const readOnly = await createTestDatabase();
    const control = postgres(TEST_DATABASE_URL ?? "", { max: 1, onnotice: () => undefined });
    // New sessions get the setting; the pool's current ones are ended so it reconnects.
    const setReadOnly = async (on: boolean) => {
      await control.unsafe(
        `ALTER DATABASE ${readOnly.name} ${on ? "SET default_transaction_read_only = on" : "RESET default_transaction_read_only"}`,
      );
      await control`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                    WHERE datname = ${readOnly.name} AND pid <> pg_backend_pid()`;
    };
    /** The first failure that is not the ended connection the pool reports once. */
    const settled = async (attempt: () => Promise<unknown>): Promise<unknown> => {
      for (let tries = 0; tries < 10; tries++) {
        const error = await attempt().then(
          () => undefined,
          (reason: unknown) => reason,
        );
        if (error === undefined || error instanceof StoreFaultError) return error;
      }
      return "no fault after 10 tries";
    };
    try {
      const store = await openPostgresStore(settingsFor(readOnly.url), { data: DATA });
      opened.push(store);
      expect((await store.resources.plants.create({ id: uniqueId(), name: "writable" })).kind).toBe(
        "created",
      );
      await setReadOnly(true);
      const id = uniqueId();
      expect(
        await settled(() => store.resources.plants.create({ id, name: "refused" })),
      ).toBeInstanceOf(StoreFaultError);
      await expect(store.ping()).rejects.toBeInstanceOf(StoreFaultError);
      expect(await store.resources.plants.get(id)).toBeUndefined();

      await setReadOnly(false);
      expect(await settled(() => store.ping())).toBeUndefined();
      expect((await store.resources.plants.create({ id, name: "written" })).kind).toBe("created");
    } finally {
      await control.end({ timeout: 1 });
      await readOnly.drop();
    }
  });

  describe("when the database goes away and comes back", () => {
    let proxy: TcpProxy;
    let store: Store;
    beforeAll(async () => {
      proxy = await startTcpProxy(hostAndPort(db.url));
      // A stopped proxy refuses at once; the timeout only has to let a loaded machine connect.
      store = await open(throughProxy(db.url, proxy), { DATABASE_CONNECT_TIMEOUT_MS: "2000" });
    });
    afterAll(async () => {
      await proxy?.close();
    });

    it("then creates and pings fail as unavailable while it is away and succeed once it is back, without reopening", async () => {
      const before = uniqueId();
      expect((await store.resources.plants.create({ id: before, name: "before" })).kind).toBe(
        "created",
      );

      await proxy.stop();
      const during = uniqueId();
      await expect(
        store.resources.plants.create({ id: during, name: "during" }),
      ).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(store.resources.plants.get(before)).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );
      await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);

      await proxy.start();
      await store.ping();
      expect(await store.resources.plants.create({ id: during, name: "during" })).toEqual({
        kind: "created",
        row: { id: during, name: "during" },
      });
      expect(await store.resources.plants.get(before)).toEqual({ id: before, name: "before" });
    });
  });

  it("when the network to the database goes silent, then reads, writes, token reads and pings each give up at their deadline, and what had not begun is not done once it answers again", async () => {
    const proxy = await startTcpProxy(hostAndPort(db.url));
    try {
      const store = await open(throughProxy(db.url, proxy), { DATABASE_QUERY_TIMEOUT_MS: "500" });
      const kept = uniqueId();
      expect((await store.resources.plants.create({ id: kept, name: "kept" })).kind).toBe(
        "created",
      );
      proxy.freeze();
      const unwritten = uniqueId();
      const outcomes = await Promise.allSettled([
        store.resources.plants.get(kept),
        store.resources.plants.list({ limit: 10, maxTextBytes: 1000 }),
        store.tokens.findByHashes(["no such hash"]),
        store.resources.plants.create({ id: unwritten, name: "never" }),
        store.resources.plants.delete(kept),
        store.ping(),
      ]);
      for (const outcome of outcomes) {
        expect(outcome.status).toBe("rejected");
        expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(StoreUnavailableError);
      }
      proxy.thaw();
      // The statements held by the silent network reach the server now, past their deadline.
      await store.ping();
      expect(await store.resources.plants.get(kept)).toEqual({ id: kept, name: "kept" });
      expect(await store.resources.plants.get(unwritten)).toBeUndefined();
    } finally {
      await proxy.close();
    }
  });

  it("when calls wait through an outage, then each is answered once the database is back, not at its deadline", async () => {
    const proxy = await startTcpProxy(hostAndPort(db.url));
    try {
      // A deadline far past every bound below: what ends a call here is the database's return.
      const store = await open(throughProxy(db.url, proxy), {
        DATABASE_QUERY_TIMEOUT_MS: "120000",
        DATABASE_POOL_MAX: "3",
      });
      const kept = uniqueId();
      await store.resources.plants.create({ id: kept, name: "kept" });
      await proxy.stop();
      // Calls keep coming while it is away, as requests would: each connection attempt that
      // fails answers one of them at once, the rest wait.
      const calls: Promise<unknown>[] = [];
      let settled = 0;
      const call = (work: Promise<unknown>) =>
        calls.push(
          work
            .then(
              (value) => ({ value }),
              (reason: unknown) => ({ reason }),
            )
            .finally(() => settled++),
        );
      for (let i = 0; i < 30; i++) {
        call(store.resources.plants.get(kept));
        call(store.resources.plants.create({ id: uniqueId(), name: "during" }));
        await sleep(100);
      }
      await proxy.start();
      await waitUntil(() => settled === calls.length, "every call is answered", 10_000);
      for (const outcome of (await Promise.all(calls)) as { reason?: unknown }[]) {
        if ("reason" in outcome) expect(outcome.reason).toBeInstanceOf(StoreUnavailableError);
      }
      expect(await store.resources.plants.get(kept)).toEqual({ id: kept, name: "kept" });
    } finally {
      await proxy.close();
    }
  });

  it("when the URL lists a host that will not do before the database, then the store uses the database, and while no host will do it tries them at a bounded pace", async () => {
    // A "host" that accepts and hangs up at once, counting how often it is tried.
    let attempts = 0;
    const hangUp = createServer((socket) => {
      attempts++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => hangUp.listen(0, "127.0.0.1", resolve));
    const proxy = await startTcpProxy(hostAndPort(db.url));
    try {
      const { port } = hangUp.address() as AddressInfo;
      const url = new URL(throughProxy(db.url, proxy));
      const multiHost = `postgres://${url.username}@127.0.0.1:${port},127.0.0.1:${url.port}${url.pathname}`;
      const store = await open(multiHost, { DATABASE_QUERY_TIMEOUT_MS: "500" });
      const id = uniqueId();
      expect((await store.resources.plants.create({ id, name: "found" })).kind).toBe("created");
      expect(await store.resources.plants.get(id)).toEqual({ id, name: "found" });

      await proxy.stop();
      attempts = 0;
      const outcomes = await Promise.allSettled(
        Array.from({ length: 20 }, () => store.resources.plants.get(id)),
      );
      expect(outcomes.every((o) => o.status === "rejected")).toBe(true);
      // 1.5 s of both hosts refusing: paced, ten attempts a second after a burst of one per
      // host and pool slot; unpaced, postgres.js made hundreds.
      expect(attempts).toBeLessThan(100);
      await proxy.start();
      expect(await firstAnswer(() => store.resources.plants.get(id))).toEqual({
        id,
        name: "found",
      });
    } finally {
      await proxy.close();
      await new Promise<void>((resolve) => hangUp.close(() => resolve()));
    }
  });
});

/** The first result of `call` that is not StoreUnavailableError, within ten tries. */
async function firstAnswer<T>(call: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof StoreUnavailableError) || tries >= 10) throw error;
    }
  }
}
