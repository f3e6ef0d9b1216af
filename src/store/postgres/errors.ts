// Which PostgreSQL failures mean "the database is away or busy" (503, retry later) rather
// than a fault in this code (500). Codes are postgres.js's own and PostgreSQL's SQLSTATEs.
import { StoreFaultError, StoreUnavailableError } from "../store.ts";

const CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "CONNECT_TIMEOUT",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
]);

const UNAVAILABLE_SQLSTATES = new Set([
  "3D000", // the database does not exist (dropped, or being restored)
  "57014", // query cancelled (our deadline, or statement_timeout)
  "57P01", // admin shutdown
  "57P02", // crash shutdown
  "57P03", // cannot connect now (starting up, recovering)
  "40001", // serialization failure that outlived our retries (distributed engines)
  "40P01", // deadlock detected
]);

// Connection exception (08), insufficient resources (53), invalid authorization (28).
const UNAVAILABLE_CLASSES = ["08", "53", "28"];

// The server cannot write, and will not by itself in a moment: not ready until a test write
// succeeds (src/store/fault-latch.ts).
const FAULT_SQLSTATES = new Set([
  "53100", // disk full
  "25006", // read-only transaction: a standby, or default_transaction_read_only after a failover
  "58030", // I/O error
  "XX001", // data corrupted
  "XX002", // index corrupted
]);

/**
 * The connection the statement ran on is gone: the driver lost it, or the server ended the
 * session (a FATAL error, as on shutdown or when killed).
 */
export function isConnectionLost(error: unknown): boolean {
  if (CONNECTION_CODES.has(codeOf(error) ?? "")) return true;
  const severity = (error as { severity?: unknown } | null)?.severity;
  return severity === "FATAL" || severity === "PANIC";
}

/** Serialization failures and deadlocks: the same statement may succeed if run again. */
/** A rule of the schema broken (SQLSTATE class 23): a foreign key, a check, a unique key. */
export const isViolation = (error: unknown): boolean => codeOf(error)?.startsWith("23") === true;

export const isRetryableTransaction = (error: unknown): boolean =>
  ["40001", "40P01"].includes(codeOf(error) ?? "");

export function isUnavailable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  const code = codeOf(error);
  if (code === undefined) return false;
  return (
    FAULT_SQLSTATES.has(code) ||
    CONNECTION_CODES.has(code) ||
    UNAVAILABLE_SQLSTATES.has(code) ||
    UNAVAILABLE_CLASSES.some((cls) => code.length === 5 && code.startsWith(cls))
  );
}

/** Rethrows a database-away failure as StoreUnavailableError; anything else unchanged. */
export function asStoreError(error: unknown): unknown {
  if (error instanceof StoreUnavailableError || !isUnavailable(error)) return error;
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  const kind = FAULT_SQLSTATES.has(code ?? "") ? StoreFaultError : StoreUnavailableError;
  return new kind(`${code}: ${message}`, { cause: error });
}

function codeOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}
