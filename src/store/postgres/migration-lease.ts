// Who may run the generated migrations' steps (migrations.ts): a lease on the migration lock's
// row, not a lock held by an open transaction, since an index built CONCURRENTLY waits for every
// transaction open when it starts, the lock's holder's too. Taken and given back by single
// statements, so it holds through a pooler; renewed while the steps run, and taken over once it
// runs out (a migrating instance that died).
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { PostgresClient } from "./connect.ts";

const LEASE_S = 60;
const RENEW_EVERY_MS = 15_000;
const WAIT_MS = 500;

/** `work` while this process holds the lease; others wait for it. */
export async function withMigrationLease<T>(
  sql: PostgresClient,
  work: () => Promise<T>,
): Promise<T> {
  const holder = randomBytes(8).toString("hex");
  for (;;) {
    const taken = await sql`
      UPDATE plantstore_migration_lock
      SET holder = ${holder}, held_until = now() + ${`${LEASE_S} seconds`}::interval
      WHERE id = 1 AND (holder IS NULL OR held_until < now())
      RETURNING id`;
    if (taken.length > 0) break;
    await sleep(WAIT_MS);
  }
  const renewing = setInterval(() => {
    sql`UPDATE plantstore_migration_lock
        SET held_until = now() + ${`${LEASE_S} seconds`}::interval WHERE id = 1 AND holder = ${holder}`.catch(
      () => undefined,
    );
  }, RENEW_EVERY_MS);
  try {
    return await work();
  } finally {
    clearInterval(renewing);
    await sql`UPDATE plantstore_migration_lock SET holder = NULL, held_until = NULL
              WHERE id = 1 AND holder = ${holder}`;
  }
}
