// The plants on PostgreSQL: reads as one statement each on the pool, writes through the write
// path (postgres.ts gives each its caller's deadline).
import { plantWrites, toPlant, toStoredPlant } from "../rows.ts";
import type { PlantStore } from "../store.ts";
import type { WritePath } from "../writes.ts";

interface PlantRow {
  name: string;
  tag: string | null;
}

interface PageRow extends PlantRow {
  id: bigint;
  upto: string;
  fetched: string;
}

/** One read whose values are whole numbers, its failures as the store's errors. */
export type ReadNumbers = <T extends object>(
  text: string,
  values: readonly (bigint | number)[],
) => Promise<T[]>;

const GET_PLANT = "SELECT name, tag FROM plants WHERE id = $1::int8";
// Keyset pages on the primary key: an index range scan from `after`, whatever the table's
// size (OFFSET would read and drop every row before the page). The server cuts the page at
// the byte bound ($2), so that rows past it are never sent.
const page = (where: string) => `
  SELECT id, name, tag, upto, fetched FROM (
    SELECT id, name, tag, count(*) OVER () AS fetched,
           sum(octet_length(name) + coalesce(octet_length(tag), 0)) OVER (ORDER BY id) AS upto
    FROM (SELECT id, name, tag FROM plants ${where} ORDER BY id LIMIT $1::int4) AS candidates
  ) AS page
  WHERE upto <= $2::int8 OR upto = octet_length(name) + coalesce(octet_length(tag), 0)
  ORDER BY id`;
const PAGE = page("");
const PAGE_AFTER = page("WHERE id > $3::int8");

export function postgresPlantStore(readNumbers: ReadNumbers, run: WritePath["run"]): PlantStore {
  return {
    ...plantWrites(run),
    async get(id) {
      const [row] = await readNumbers<PlantRow>(GET_PLANT, [id]);
      return row === undefined ? undefined : toPlant(row);
    },
    async list({ after, limit, maxTextBytes }) {
      const rows = await readNumbers<PageRow>(
        after === undefined ? PAGE : PAGE_AFTER,
        after === undefined ? [limit, maxTextBytes] : [limit, maxTextBytes, after],
      );
      const fetched = Number(rows[0]?.fetched ?? 0);
      return {
        plants: rows.map(toStoredPlant),
        full: rows.length < fetched || fetched >= limit,
      };
    },
  };
}
