// Two instances on one PostgreSQL database share the outbox: every event is delivered, and
// claims (FOR UPDATE SKIP LOCKED, with a lease) keep the two from sending one message twice;
// a delete raced through both records its event once, in the transaction that deleted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyWebhook } from "../../src/client/webhooks.ts";
import { AUTH, JSON_TYPE } from "../helpers/app.ts";
import { TEST_DATABASE_URL } from "../helpers/postgres.ts";
import { killLeftoverServers, type ServerProcess, startServer } from "../helpers/server-process.ts";
import { postgresEngine, type TestStore } from "../helpers/stores.ts";
import { eventually, type Receiver, startReceiver } from "../helpers/webhook-receiver.ts";

const CREATES = 3000;
const DELETES = 1000;
const ENV = { PLANTSTORE_WEBHOOK_SEND: "true", PLANTSTORE_WEBHOOK_ALLOW_PRIVATE: "true" };

describe.skipIf(TEST_DATABASE_URL === undefined)(
  "webhooks: two instances, one PostgreSQL database",
  () => {
    let db: TestStore;
    let servers: ServerProcess[] = [];
    let got: Receiver;
    let deletions: Receiver;
    beforeAll(async () => {
      db = await postgresEngine.create();
      servers = [
        await startServer({ databaseUrl: db.url, env: ENV }),
        await startServer({ databaseUrl: db.url, env: ENV }),
      ];
      got = await startReceiver();
      deletions = await startReceiver();
    });
    afterAll(async () => {
      for (const server of servers) await server.stop();
      await killLeftoverServers();
      await got?.close();
      await deletions?.close();
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

    it(`when ${DELETES} of them are deleted through both at once, then each delete is announced exactly once, signed, and no 404 is`, async () => {
      const [first] = servers as [ServerProcess];
      const registered = await fetch(`${first.url}/webhook-endpoints`, {
        method: "POST",
        headers: { ...AUTH, ...JSON_TYPE },
        body: JSON.stringify({ url: deletions.url, events: ["plantDeleted"] }),
      });
      expect(registered.status).toBe(201);
      const { secret } = (await registered.json()) as { secret: string };
      const ids = Array.from({ length: DELETES }, (_, n) => 800_000 + n);
      // Each plant is deleted through both instances at once: one 204 and one 404 apiece.
      for (let at = 0; at < ids.length; at += 4) {
        await Promise.all(
          ids.slice(at, at + 4).map(async (id) => {
            const statuses = await Promise.all(
              servers.map(async (server) => {
                const answer = await fetch(`${server.url}/plants/${id}`, {
                  method: "DELETE",
                  headers: AUTH,
                });
                await answer.text();
                return answer.status;
              }),
            );
            expect(statuses.sort()).toEqual([204, 404]);
          }),
        );
      }
      // Messages by plant: a repeat of one message (same webhook-id) is an attempt again.
      const messages = () => {
        const byPlant = new Map<string, Set<string>>();
        for (const { headers, body } of deletions.received) {
          const event = verifyWebhook(body, headers, secret);
          expect(event.event).toBe("plantDeleted");
          const plant = String(event.body.id);
          byPlant.set(plant, (byPlant.get(plant) ?? new Set()).add(event.id));
        }
        return byPlant;
      };
      await eventually(
        () => messages().size >= DELETES,
        60_000,
        () => `${messages().size} of ${DELETES}`,
      );
      const byPlant = messages();
      expect([...byPlant.keys()].sort()).toEqual(ids.map(String).sort());
      expect([...byPlant.values()].filter((ids) => ids.size !== 1)).toEqual([]);
    }, 180_000);
  },
);
