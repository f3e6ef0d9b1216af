// Two instances on one PostgreSQL database share the outbox: every event is delivered, and
// claims (FOR UPDATE SKIP LOCKED, with a lease) keep the two from sending one message twice.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH, JSON_TYPE } from "../helpers/app.ts";
import { TEST_DATABASE_URL } from "../helpers/postgres.ts";
import { killLeftoverServers, type ServerProcess, startServer } from "../helpers/server-process.ts";
import { postgresEngine, type TestStore } from "../helpers/stores.ts";
import { eventually, type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";

const CREATES = 3000;
const ENV = { PLANTSTORE_WEBHOOK_SEND: "true", PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: "true" };

describe.skipIf(TEST_DATABASE_URL === undefined)(
  "webhooks: two instances, one PostgreSQL database",
  () => {
    let db: TestStore;
    let servers: ServerProcess[] = [];
    let got: Receiver;
    beforeAll(async () => {
      db = await postgresEngine.create();
      servers = [
        await startServer({ databaseUrl: db.url, env: ENV }),
        await startServer({ databaseUrl: db.url, env: ENV }),
      ];
      got = await startReceiver();
    });
    afterAll(async () => {
      for (const server of servers) await server.stop();
      await killLeftoverServers();
      await got?.close();
      await db?.destroy();
    });

    it(`when ${CREATES} plants are created through both, then each is delivered, with fewer than 1 % twice`, async () => {
      const [first, second] = servers as [ServerProcess, ServerProcess];
      const registered = await fetch(`${first.url}/webhook-endpoints`, {
        method: "POST",
        headers: { ...AUTH, ...JSON_TYPE },
        body: JSON.stringify({ url: got.url }),
      });
      expect(registered.status).toBe(201);
      const ids = Array.from({ length: CREATES }, (_, n) => 800_000 + n);
      // Eight callers at a time, alternating between the instances.
      for (let at = 0; at < ids.length; at += 8) {
        await Promise.all(
          ids.slice(at, at + 8).map(async (id, n) => {
            const server = n % 2 === 0 ? first : second;
            const answer = await fetch(`${server.url}/plants`, {
              method: "POST",
              headers: { ...AUTH, ...JSON_TYPE },
              body: JSON.stringify({ id, name: `p${id}` }),
            });
            expect(answer.status).toBe(200);
            await answer.text();
          }),
        );
      }
      const delivered = () => new Set(got.received.map((r) => r.headers["webhook-id"]));
      const plants = () =>
        new Set(got.received.map((r) => (JSON.parse(r.body) as { id: number }).id));
      await eventually(
        () => plants().size >= CREATES,
        60_000,
        () => `${plants().size} of ${CREATES}`,
      );
      const duplicates = got.received.length - delivered().size;
      console.info(`two instances: ${CREATES} created, ${duplicates} delivered twice`);
      expect(duplicates).toBeLessThan(CREATES / 100);
    }, 180_000);
  },
);
