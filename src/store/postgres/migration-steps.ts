// One step of a generated migration on PostgreSQL (migrations/migration.ts), run so that the
// instances serving meanwhile keep writing: a step that takes a table's lock gives up after
// LOCK_TIMEOUT rather than queue every write behind it while a long transaction finishes, and is
// tried again; a concurrent index build that failed (leaving an invalid index) is made again.
// A step already done (a migration stopped half-way, run again) is taken as done.
import { setTimeout as sleep } from "node:timers/promises";
import type { PostgresStep } from "../migrations/migration.ts";
import type { PostgresClient } from "./connect.ts";

const LOCK_TIMEOUT = "500ms";
const LOCK_ATTEMPTS = 40;
const RETRY_PAUSE_MS = 250;
/** What a step made before says when it runs again: a relation, column or constraint exists. */
const ALREADY_DONE = new Set(["42P07", "42701", "42710"]);
const LOCK_NOT_AVAILABLE = "55P03";

const codeOf = (error: unknown) => (error as { code?: unknown }).code;

export async function runStep(sql: PostgresClient, step: PostgresStep): Promise<void> {
  if (step.concurrently === true) {
    await concurrently(sql, step.sql);
    return;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await sql.begin(async (tx) => {
        await tx.unsafe(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT}'`);
        await tx.unsafe(step.sql);
      });
      return;
    } catch (error) {
      if (ALREADY_DONE.has(String(codeOf(error)))) return;
      if (codeOf(error) !== LOCK_NOT_AVAILABLE || attempt >= LOCK_ATTEMPTS) throw error;
      await sleep(RETRY_PAUSE_MS);
    }
  }
}

/** A statement that runs outside a transaction; an index it builds must end up valid. */
async function concurrently(sql: PostgresClient, statement: string): Promise<void> {
  const index = statement.match(/INDEX CONCURRENTLY IF NOT EXISTS "([^"]+)"/)?.[1];
  for (let attempt = 1; ; attempt++) {
    await sql.unsafe(statement);
    if (index === undefined) return;
    const [found] = await sql<{ valid: boolean }[]>`
      SELECT i.indisvalid AS valid FROM pg_index AS i JOIN pg_class AS c ON c.oid = i.indexrelid
      WHERE c.relname = ${index} AND pg_table_is_visible(c.oid)`;
    if (found?.valid === true) return;
    // A build that failed (a deadlock, a cancel) leaves the index invalid, and IF NOT EXISTS
    // would keep it so: drop it and build it again.
    if (attempt >= 2) throw new Error(`the index ${index} could not be built (it stays invalid)`);
    await sql.unsafe(`DROP INDEX CONCURRENTLY IF EXISTS "${index}"`);
  }
}
