// What an SQLite error code means for a create: a file another process kept locked past the
// busy timeout is busy, not broken (503, retry); anything else is a fault (500).
import { StoreUnavailableError } from "./store.ts";

const LOCKED_CODES: ReadonlySet<string> = new Set(["SQLITE_BUSY", "SQLITE_LOCKED"]);

/** StoreUnavailableError for a lock held past busy_timeout; undefined for any other code. */
export function lockedError(code: unknown, message: string): StoreUnavailableError | undefined {
  return typeof code === "string" && LOCKED_CODES.has(code)
    ? new StoreUnavailableError(`the SQLite file stayed locked: ${message}`)
    : undefined;
}
