// Fills a store with N plants before a run, with the same id spread as the load itself, so
// that "1,000,000 plants already stored" is the shape the requests then meet.

import type { PostgresClient } from "../../src/store/postgres/store.ts";
import { openSqliteDatabase } from "../../src/store/sqlite/store.ts";
import { benchId, benchIdSql, benchName } from "./ids.ts";

const ROWS_PER_TRANSACTION = 50_000;

export function preloadSqlite(path: string, count: number): void {
  const { db } = openSqliteDatabase(path);
  try {
    const insert = db.prepare("INSERT INTO plants (id, name, tag) VALUES (?, ?, ?)");
    const insertMany = db.transaction((from: number, to: number) => {
      for (let x = from; x < to; x++)
        insert.run(benchId(x), benchName(x), x % 2 === 0 ? "bench" : null);
    });
    for (let from = 0; from < count; from += ROWS_PER_TRANSACTION) {
      insertMany(from, Math.min(count, from + ROWS_PER_TRANSACTION));
    }
  } finally {
    db.close();
  }
}

export async function preloadPostgres(sql: PostgresClient, count: number): Promise<void> {
  if (count === 0) return;
  await sql.unsafe(
    `INSERT INTO plants (id, name, tag)
     SELECT ${benchIdSql("g")}, 'bench plant ' || g, CASE WHEN g % 2 = 0 THEN 'bench' END
     FROM generate_series(0, ${count - 1}) AS g`,
  );
  await sql.unsafe("ANALYZE plants");
}
