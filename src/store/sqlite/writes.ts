// The writes of src/store/writes.ts on SQLite: for each, its statements, prepared once on the
// write thread's connection, and what it does with one submitted write inside its batch's
// transaction. The thread runs whatever is listed here by name.
import type { Database } from "better-sqlite3";
import type { OutboxEvent } from "../outbox.ts";
import type { WriteArgs, WriteName, WriteResult } from "../writes.ts";
import { sqliteWebhookWrites } from "./webhook-writes.ts";

interface PlantColumns {
  name: string;
  tag: string | null;
}

type Prepare<N extends WriteName> = (db: Database) => (args: WriteArgs<N>) => WriteResult<N>;

export const sqliteWrites: { [N in WriteName]: Prepare<N> } = {
  createPlant(db) {
    const insert = db.prepare<[bigint, string, string | null]>(
      "INSERT INTO plants (id, name, tag) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
    );
    const select = db.prepare<[bigint], PlantColumns>("SELECT name, tag FROM plants WHERE id = ?");
    return ({ id, name, tag }) => {
      if (insert.run(id, name, tag).changes === 1) return { outcome: "created" };
      const stored = select.get(id);
      if (stored === undefined) throw new Error(`plant ${id} vanished after a conflict`);
      const same = stored.name === name && stored.tag === tag;
      return { outcome: same ? "replayed" : "conflict", name: stored.name, tag: stored.tag };
    };
  },
  deletePlant(db) {
    const remove = db.prepare<[bigint]>("DELETE FROM plants WHERE id = ?");
    return ({ id }) => ({ outcome: remove.run(id).changes === 1 ? "deleted" : "absent" });
  },
  updatePlant(db) {
    // A member not given keeps the stored value: name by coalesce, tag by its own flag, as a
    // given tag may be null (removed).
    const update = db.prepare<[string | null, number, string | null, bigint], PlantColumns>(
      `UPDATE plants SET name = coalesce(?, name), tag = CASE WHEN ? THEN ? ELSE tag END
       WHERE id = ? RETURNING name, tag`,
    );
    return ({ id, name, tag }) => {
      const row = update.get(name ?? null, tag === undefined ? 0 : 1, tag ?? null, id);
      return row === undefined ? { outcome: "absent" } : { outcome: "updated", ...row };
    };
  },
  ...sqliteWebhookWrites,
};

/**
 * Records a write's events (outbox.ts) in its transaction: one row each, and none while no
 * endpoint is enabled to receive them.
 */
export function recordSqliteEvents(db: Database): (events: readonly OutboxEvent[]) => void {
  const insert = db.prepare<[string, bigint | null, string, number]>(
    `INSERT INTO webhook_events (type, subject_id, body, created_at)
     SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE disabled_at IS NULL)`,
  );
  return (events) => {
    for (const { type, subjectId, body } of events) insert.run(type, subjectId, body, Date.now());
  };
}
