// Which database failures are the store's faults (503, not ready until a test write passes),
// which are a passing unavailability (503), and which are faults in this code (500).
import { describe, expect, it } from "vitest";
import { asStoreError } from "../../src/store/postgres/errors.ts";
import { sqliteStoreError } from "../../src/store/sqlite/errors.ts";
import { StoreFaultError, StoreUnavailableError } from "../../src/store/store.ts";

const kindOf = (error: unknown): string =>
  error instanceof StoreFaultError
    ? "fault"
    : error instanceof StoreUnavailableError
      ? "unavailable"
      : "other";

describe("SQLite error codes", () => {
  it.each([
    ["SQLITE_BUSY", "unavailable"],
    ["SQLITE_BUSY_SNAPSHOT", "unavailable"],
    ["SQLITE_LOCKED", "unavailable"],
    ["SQLITE_FULL", "fault"],
    ["SQLITE_IOERR", "fault"],
    ["SQLITE_IOERR_WRITE", "fault"],
    ["SQLITE_IOERR_FSYNC", "fault"],
    ["SQLITE_READONLY", "fault"],
    ["SQLITE_READONLY_DBMOVED", "fault"],
    ["SQLITE_CANTOPEN", "fault"],
    ["SQLITE_CORRUPT", "fault"],
    ["SQLITE_NOTADB", "fault"],
    ["SQLITE_CONSTRAINT_UNIQUE", "other"],
    ["SQLITE_ERROR", "other"],
    [undefined, "other"],
  ])("when a write fails with %s, then it is %s", (code, kind) => {
    expect(kindOf(sqliteStoreError(code, "failed") ?? new Error("failed"))).toBe(kind);
  });
});

describe("PostgreSQL SQLSTATEs", () => {
  const failing = (code: string) => Object.assign(new Error(`failed with ${code}`), { code });
  it.each([
    ["53100", "fault"],
    ["25006", "fault"],
    ["58030", "fault"],
    ["XX001", "fault"],
    ["53300", "unavailable"],
    ["57P01", "unavailable"],
    ["08006", "unavailable"],
    ["ECONNREFUSED", "unavailable"],
    ["23505", "other"],
    ["42P01", "other"],
  ])("when a statement fails with %s, then it is %s", (code, kind) => {
    expect(kindOf(asStoreError(failing(code)))).toBe(kind);
  });
});
