// The plants on SQLite: reads on the connection given (WAL: a read sees the last commit and
// never waits for a write), writes through the write path.
import type Database from "better-sqlite3";
import { PageBuilder, plantWrites, toPlant, toStoredPlant } from "../rows.ts";
import type { PlantStore } from "../store.ts";
import type { WritePath } from "../writes.ts";

interface Row {
  name: string;
  tag: string | null;
}

/** A page's row as a raw statement gives it: the columns in the order selected. */
type StoredColumns = [id: bigint, name: string, tag: string | null];

export function sqlitePlantStore(
  db: Database.Database,
  run: WritePath["run"],
  asStoreErrors: <T>(work: () => T) => T,
): PlantStore {
  const select = db.prepare<[bigint], Row>("SELECT name, tag FROM plants WHERE id = ?");
  // Keyset pages on the rowid (the primary key): a range scan from `after`, whatever the size
  // of the table. Ids come back as bigints (safeIntegers), never through a double. Rows come
  // as arrays (raw): better-sqlite3 builds an object row property by property from C++, and
  // a page of 100 took half as long again that way (BENCHMARKS.md, "List pages from raw rows").
  const firstPage = db
    .prepare<[number], StoredColumns>("SELECT id, name, tag FROM plants ORDER BY id LIMIT ?")
    .safeIntegers(true)
    .raw(true);
  const pageAfter = db
    .prepare<[bigint, number], StoredColumns>(
      "SELECT id, name, tag FROM plants WHERE id > ? ORDER BY id LIMIT ?",
    )
    .safeIntegers(true)
    .raw(true);

  return {
    ...plantWrites(run),
    async get(id) {
      return asStoreErrors(() => {
        const row = select.get(id);
        return row === undefined ? undefined : toPlant(row);
      });
    },
    async list({ after, limit, maxTextBytes }) {
      return asStoreErrors(() => {
        // Row by row, so that rows past the byte bound are never read.
        const rows =
          after === undefined ? firstPage.iterate(limit) : pageAfter.iterate(after, limit);
        const page = new PageBuilder(limit, maxTextBytes);
        for (const [id, name, tag] of rows) {
          if (!page.add(toStoredPlant({ id, name, tag }))) break;
        }
        return page.done();
      });
    },
  };
}
