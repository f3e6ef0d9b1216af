// PlantStore on an SQLite file (better-sqlite3). One connection per process; several
// processes may share the file (WAL, busy timeout), since a stored plant never changes.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { migrateSqlite } from "./sqlite-migrations.ts";
import {
  assertStorableText,
  type CreateResult,
  type NewPlant,
  type Plant,
  type PlantStore,
  samePlant,
} from "./store.ts";

interface Row {
  name: string;
  tag: string | null;
}

export function openSqliteStore(path: string): PlantStore {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // WAL + synchronous=FULL: a commit is on disk (fsync) before create() resolves,
  // so an acknowledged plant survives a crash or power loss.
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("busy_timeout = 5000");
  migrateSqlite(db);

  const insert = db.prepare<[bigint, string, string | null]>(
    "INSERT INTO plants (id, name, tag) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING",
  );
  const select = db.prepare<[bigint], Row>("SELECT name, tag FROM plants WHERE id = ?");

  const read = (id: bigint): Plant | undefined => {
    const row = select.get(id);
    return row === undefined ? undefined : toPlant(row);
  };

  return {
    async create(plant: NewPlant): Promise<CreateResult> {
      const wanted: Plant = toPlant({ name: plant.name, tag: plant.tag ?? null });
      assertStorableText(wanted);
      if (insert.run(plant.id, plant.name, plant.tag ?? null).changes === 1) {
        return { kind: "created", plant: wanted };
      }
      const existing = read(plant.id);
      if (existing === undefined) throw new Error(`plant ${plant.id} vanished after a conflict`);
      return samePlant(existing, wanted)
        ? { kind: "replayed", plant: existing }
        : { kind: "conflict", existing };
    },
    async get(id) {
      return read(id);
    },
    describe() {
      const journal = String(db.pragma("journal_mode", { simple: true }));
      const synchronous = SYNCHRONOUS[Number(db.pragma("synchronous", { simple: true }))];
      return `sqlite ${path} (journal_mode=${journal}, synchronous=${synchronous ?? "unknown"})`;
    },
    async close() {
      db.close();
    },
  };
}

const SYNCHRONOUS = ["off", "normal", "full", "extra"];

const toPlant = (row: Row): Plant =>
  row.tag === null ? { name: row.name } : { name: row.name, tag: row.tag };
