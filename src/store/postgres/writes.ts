// The writes of src/store/writes.ts on PostgreSQL: for each, how a run of them (consecutive
// writes of one name in a batch) is applied inside the batch's transaction, in as few
// statements as it can, with one result per write in the order given. Ids travel as text and
// are cast on the server, so none passes through a double.
import type { TransactionSql } from "postgres";
import type { OutboxEvent } from "../outbox.ts";
import type {
  PlantChange,
  PlantRow,
  UpdateOutcome,
  WriteArgs,
  WriteName,
  WriteResult,
} from "../writes.ts";
import { postgresWebhookWrites } from "./webhook-writes.ts";

export type PostgresTransaction = TransactionSql<{ bigint: bigint }>;

type ApplyRun<N extends WriteName> = (
  tx: PostgresTransaction,
  run: readonly WriteArgs<N>[],
) => Promise<WriteResult<N>[]>;

export const postgresWrites: { [N in WriteName]: ApplyRun<N> } = {
  async createPlant(tx, plants) {
    // One INSERT for the run; for an id given twice, the first in order is the one inserted and
    // the later ones meet it, exactly as if they had come one after the other.
    const ids = plants.map((plant) => String(plant.id));
    const inserted = await tx<{ id: bigint }[]>`
      INSERT INTO plants (id, name, tag)
      SELECT DISTINCT ON (id) id, name, tag
      FROM unnest(${ids}::int8[], ${plants.map((p) => p.name)}::text[],
                  ${plants.map((p) => p.tag)}::text[]) WITH ORDINALITY AS t(id, name, tag, n)
      ORDER BY id, n
      ON CONFLICT (id) DO NOTHING RETURNING id`;
    const insertedIds = new Set(inserted.map((row) => String(row.id)));
    const missing = ids.filter((id) => !insertedIds.has(id));
    // A statement of its own, so it sees rows other transactions committed after ours began.
    const stored =
      missing.length === 0
        ? []
        : await tx<PlantRow[]>`
            SELECT id, name, tag FROM plants WHERE id = ANY(${missing}::int8[])`;
    const rows = new Map<string, { name: string; tag: string | null }>(
      stored.map((row) => [String(row.id), row]),
    );
    const first = new Set<string>();
    const results = plants.map((plant, at): WriteResult<"createPlant"> => {
      const id = ids[at] as string;
      const isFirst = !first.has(id);
      first.add(id);
      if (isFirst && insertedIds.has(id)) {
        rows.set(id, plant);
        return { outcome: "created" };
      }
      const row = rows.get(id);
      if (row === undefined) throw new Error(`plant ${id} vanished after a conflict`);
      const same = row.name === plant.name && row.tag === plant.tag;
      return { outcome: same ? "replayed" : "conflict", name: row.name, tag: row.tag };
    });
    return results;
  },
  async deletePlant(tx, deletes) {
    const ids = deletes.map(({ id }) => String(id));
    const deleted = new Set(
      (
        await tx<{ id: bigint }[]>`DELETE FROM plants WHERE id = ANY(${ids}::int8[]) RETURNING id`
      ).map((row) => String(row.id)),
    );
    // An id given twice is deleted by the first; the later ones find nothing.
    return ids.map((id) => ({ outcome: deleted.delete(id) ? "deleted" : "absent" }));
  },
  async updatePlant(tx, changes) {
    // One UPDATE per round, where round r holds the r-th change of each id: one UPDATE cannot
    // apply two changes to one row, and rounds in order keep each id's changes in order (a
    // later one sees the earlier). Mostly a run has each id once: one statement.
    const rounds: PlantChange[][] = [];
    const seen = new Map<string, number>();
    const roundOf = changes.map((change) => {
      const id = String(change.id);
      const round = seen.get(id) ?? 0;
      seen.set(id, round + 1);
      if (round === rounds.length) rounds.push([]);
      rounds[round]?.push(change);
      return round;
    });
    const stored: Map<string, UpdateOutcome>[] = [];
    for (const round of rounds) stored.push(await updateRound(tx, round));
    return changes.map(
      (change, at) =>
        stored[roundOf[at] as number]?.get(String(change.id)) ?? { outcome: "absent" },
    );
  },
  ...postgresWebhookWrites,
};

/**
 * Records a batch's events (outbox.ts) in its transaction: one INSERT, one row each, and none
 * while no endpoint is enabled to receive them.
 */
export async function recordPostgresEvents(
  tx: PostgresTransaction,
  events: readonly OutboxEvent[],
): Promise<void> {
  if (events.length === 0) return;
  await tx`
    INSERT INTO webhook_events (type, subject_id, body, created_at)
    SELECT type, subject_id, body, clock_timestamp()
    FROM unnest(${events.map((e) => e.type)}::text[],
                ${events.map((e) => (e.subjectId === null ? null : String(e.subjectId)))}::int8[],
                ${events.map((e) => e.body)}::text[]) WITH ORDINALITY AS t(type, subject_id, body, n)
    WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE disabled_at IS NULL)
    ORDER BY n`;
}

/** Changes of distinct ids in one statement; what each stored plant became, by id. */
async function updateRound(
  tx: PostgresTransaction,
  changes: readonly PlantChange[],
): Promise<Map<string, UpdateOutcome>> {
  // A member not given keeps the stored value: name by coalesce, tag by its own flag, as a
  // given tag may be null (removed). The flag is text: the ids, names and tags show that
  // text arrays arrive intact, where postgres.js mistypes a boolean array.
  const updated = await tx<PlantRow[]>`
    UPDATE plants AS p
    SET name = coalesce(c.name, p.name), tag = CASE c.tag_is WHEN 'set' THEN c.tag ELSE p.tag END
    FROM unnest(${changes.map((c) => String(c.id))}::int8[],
                ${changes.map((c) => c.name ?? null)}::text[],
                ${changes.map((c) => (c.tag === undefined ? "keep" : "set"))}::text[],
                ${changes.map((c) => c.tag ?? null)}::text[]) AS c(id, name, tag_is, tag)
    WHERE p.id = c.id
    RETURNING p.id, p.name, p.tag`;
  return new Map(
    updated.map(({ id, name, tag }) => [String(id), { outcome: "updated", name, tag }]),
  );
}
