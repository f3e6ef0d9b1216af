// The snapshot: the tables the committed migrations make (tables.json), as `npm run generate`
// last wrote it. A document whose tables differ has changes no migration makes yet: the build
// refuses it, naming the command that writes the migration.
import type { Table } from "../tables.ts";
import type { GeneratedMigration } from "./migration.ts";

/** Where the snapshot is, from the repository's root. */
export const SNAPSHOT_FILE = "src/store/migrations/tables.json";

/** The snapshot's text for `tables`, as generate writes it and the build compares it. */
export const snapshotText = (tables: readonly Table[]): string =>
  `${JSON.stringify(tables, null, 2)}\n`;

/**
 * Throws unless the committed migrations (their snapshot's text) make exactly `tables`, and each
 * written by hand has been completed.
 */
export function checkMigrations(
  tables: readonly Table[],
  snapshot: string,
  migrations: readonly GeneratedMigration[],
): void {
  if (snapshot !== snapshotText(tables)) {
    throw new Error(
      `openapi/plants.yaml declares tables that the committed migrations do not make (${SNAPSHOT_FILE} differs): run \`npm run generate\``,
    );
  }
  const open = migrations.find((migration) => (migration.todo ?? []).length > 0);
  if (open !== undefined) {
    throw new Error(
      `src/store/migrations/${open.id}.ts is to be completed by hand: write its statements for ${(open.todo ?? []).join("; ")}, then delete its todo`,
    );
  }
}
