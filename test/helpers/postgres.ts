// PostgreSQL for tests: TEST_DATABASE_URL names a server (any database on it); each test
// store gets a database of its own, created here and dropped when the test is done.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { markRan } from "./ran-marker.ts";

// Empty is unset (`npm run test:quick` runs one engine so).
export const TEST_DATABASE_URL = process.env["TEST_DATABASE_URL"] || undefined;

export const POSTGRES_SKIP_NOTICE =
  "PostgreSQL suites skipped: set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres to run them";

export interface TestDatabase {
  /** DATABASE_URL for the new, empty database. */
  url: string;
  name: string;
  /** Drops the database, ending any connection still open to it. */
  drop(): Promise<void>;
}

function requireServerUrl(): string {
  if (TEST_DATABASE_URL === undefined) throw new Error(POSTGRES_SKIP_NOTICE);
  return TEST_DATABASE_URL;
}

/** One short-lived admin connection per call: CREATE/DROP DATABASE cannot run in a pool's transaction. */
async function admin(statement: string): Promise<void> {
  const sql = postgres(requireServerUrl(), { max: 1, onnotice: () => undefined });
  try {
    await sql.unsafe(statement);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** `options` are appended to CREATE DATABASE, e.g. "ENCODING 'LATIN1' TEMPLATE template0". */
export async function createTestDatabase(options = ""): Promise<TestDatabase> {
  const name = `plantstore_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await admin(`CREATE DATABASE ${name} ${options}`);
  // The suite ran on PostgreSQL: CI requires each one that does by name (test/required-runs.txt).
  markRan();
  const url = new URL(requireServerUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
