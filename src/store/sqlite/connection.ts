// The settings SQLite keeps per connection, applied alike to every connection to the file: the
// main thread's (reads, token writes) and the write thread's, whose page cache alone is its
// own. One place, so that none of them runs with SQLite's defaults.
import type { Database } from "better-sqlite3";

const BUSY_TIMEOUT_MS = 5000;
// The commit that takes the WAL past this many pages copies them into the file and fsyncs it,
// inside that commit on the write thread: that batch's answers and the next batch wait for
// it. Into a million scattered plants SQLite's default, 1,000 pages, came every 60-odd
// batches; at 10,000 a checkpoint comes a tenth as often and writes each page once however
// often it changed, and creates there ran 10-13% faster (BENCHMARKS.md, "WAL checkpoint"). Each
// checkpoint is larger, so the p99 it causes stays, or rises a little. The WAL (about 40 MB,
// more while a reader holds an old snapshot) is reused after each one. Every connection to
// the file gets it: a commit on one with a lower limit would checkpoint there instead, on the
// event loop for the main thread's token writes. Checkpoints on a thread of their own took
// the stall off the commits but cost more CPU on a one-core server than the stall had left
// idle (BENCHMARKS.md, "WAL checkpoint").
export const WAL_CHECKPOINT_PAGES = 10_000;

export function configureConnection(db: Database): void {
  // synchronous=FULL in WAL mode: a commit is on disk (fsync) before it returns, so an
  // acknowledged plant survives a crash or power loss.
  db.pragma("synchronous = FULL");
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
  // No mmap_size: memory-mapped reads made neither creates nor GETs on a million plants
  // cheaper (BENCHMARKS.md, "Memory-mapped reads"), and an I/O error in a mapped page is a signal
  // that ends the process, not an error SQLite can return. The page cache stays at
  // better-sqlite3's 16 MB here; the write thread's is smaller (below).
}

// The write thread's page cache, in KiB: 1,000 pages of 4 KiB. After a B-tree split that
// renumbers pages, SQLite's commit scans the connection's whole page cache (its hash table
// and every page in it); with better-sqlite3's 16 MB that scan was 14.5% of the write
// thread's time on a million plants, and a create there cost 3-7% more CPU than with this
// cache, though the smaller cache reads more pages back (BENCHMARKS.md, "The write thread's
// page cache").
// Large enough to hold a full batch's dirty pages (MAX_BATCH scattered rows, store.ts) without
// spilling them before its commit, beside the B-tree's inner pages of a few
// million plants (some 40 a million); past that, inner pages are read again, not spilled.
export const WRITER_CACHE_KIB = 4000;

/** The write thread's connection: the settings above, and its own page cache. */
export function configureWriterConnection(db: Database): void {
  configureConnection(db);
  db.pragma(`cache_size = -${WRITER_CACHE_KIB}`);
  // Foreign keys a resource's migration declares hold on SQLite as on PostgreSQL.
  db.pragma("foreign_keys = ON");
}
