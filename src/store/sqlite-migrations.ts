// Schema versions for the SQLite store, recorded in PRAGMA user_version.
import type { Database } from "better-sqlite3";

const MIGRATIONS: readonly string[] = [
  // 1: plants. id is the rowid (a signed 64-bit integer); STRICT refuses values of the
  // wrong type instead of converting them; tag NULL means "not sent".
  `CREATE TABLE plants (
     id   INTEGER PRIMARY KEY,
     name TEXT NOT NULL,
     tag  TEXT
   ) STRICT`,
];

export function migrateSqlite(db: Database): void {
  // BEGIN IMMEDIATE takes the write lock first, so processes starting together migrate once.
  db.transaction(() => {
    const current = db.pragma("user_version", { simple: true }) as number;
    if (current > MIGRATIONS.length) {
      throw new Error(
        `the database schema is version ${current}, newer than this plantstore knows (${MIGRATIONS.length}); upgrade plantstore`,
      );
    }
    for (const [index, sql] of MIGRATIONS.entries()) {
      if (index < current) continue;
      db.exec(sql);
      db.pragma(`user_version = ${index + 1}`);
    }
  }).immediate();
}
