// What an SQLite error code means for a write: a file another process kept locked past the
// busy timeout is busy, not broken (503, retry); a full disk, a read-only or unopenable file,
// an I/O error or a damaged file is a fault of the store, not of the request (503, and not
// ready until a test write succeeds); anything else is a fault in this code (500).
import { StoreFaultError, StoreUnavailableError } from "../store.ts";

const LOCKED_CODES: ReadonlySet<string> = new Set(["SQLITE_BUSY", "SQLITE_LOCKED"]);
// Primary result codes; better-sqlite3 reports extended ones such as SQLITE_IOERR_WRITE.
const FAULT_CODES: readonly string[] = [
  "SQLITE_FULL",
  "SQLITE_IOERR",
  "SQLITE_READONLY",
  "SQLITE_CANTOPEN",
  "SQLITE_CORRUPT",
  "SQLITE_NOTADB",
  "SQLITE_PERM",
];

/** The StoreUnavailableError (or StoreFaultError) an SQLite code stands for, or undefined. */
export function sqliteStoreError(
  code: unknown,
  message: string,
): StoreUnavailableError | undefined {
  if (typeof code !== "string") return undefined;
  const primary = code.split("_", 2).join("_");
  if (LOCKED_CODES.has(primary)) {
    return new StoreUnavailableError(`the SQLite file stayed locked: ${message}`);
  }
  if (FAULT_CODES.includes(primary)) {
    return new StoreFaultError(`the SQLite file cannot be written (${code}): ${message}`);
  }
  return undefined;
}
