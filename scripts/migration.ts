// The migration `npm run generate` writes when the document's tables differ from those the
// committed migrations make (their snapshot, src/store/migrations/tables.json): the changes
// (src/store/migrations/diff.ts) as each engine's statements, in a new file beside the others,
// listed in src/store/migrations/index.ts, and the snapshot brought up to date. A change that
// would lose or rewrite data is refused with a sentence (DestructiveChangeError); a migration
// already written is never touched.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { apiData } from "../src/openapi/data.ts";
import {
  DestructiveChangeError,
  describeChanges,
  tableChanges,
} from "../src/store/migrations/diff.ts";
import type { GeneratedMigration } from "../src/store/migrations/migration.ts";
import { SNAPSHOT_FILE, snapshotText } from "../src/store/migrations/snapshot.ts";
import { postgresSteps } from "../src/store/postgres/ddl.ts";
import { sqliteStatements } from "../src/store/sqlite/ddl.ts";
import type { Table } from "../src/store/tables.ts";

const root = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url));
const FOLDER = "src/store/migrations";
const MIGRATION_FILE = /^(\d{4})-[a-z0-9-]+\.ts$/;
/** What --by-hand NAME may be: a file name's part. */
export const BY_HAND_NAME = /^[a-z0-9][a-z0-9-]{0,59}$/;
const NOTHING_BY_HAND =
  "--by-hand: every change the document makes to its tables can be made safely, so npm run generate writes that migration itself";

export interface Output {
  path: string;
  rendered: string;
}

/**
 * The files that bring the migrations up to the document (dereferenced): a new migration and
 * the index when a table changes, the snapshot whenever it differs; none when all is current.
 */
export function migrationOutputs(document: unknown, byHand?: string): Output[] {
  const tables = apiData(document).tables;
  const snapshot = readFileSync(root(SNAPSHOT_FILE), "utf8");
  if (snapshot === snapshotText(tables)) {
    if (byHand !== undefined) throw new DestructiveChangeError(NOTHING_BY_HAND);
    return [];
  }
  const todo: string[] = [];
  const changes = tableChanges(
    JSON.parse(snapshot) as Table[],
    tables,
    byHand === undefined ? undefined : (sentence) => void todo.push(sentence),
  );
  if (byHand !== undefined && todo.length === 0) {
    throw new DestructiveChangeError(NOTHING_BY_HAND);
  }
  const outputs: Output[] = [{ path: root(SNAPSHOT_FILE), rendered: snapshotText(tables) }];
  if (changes.length === 0 && todo.length === 0) return outputs;
  const existing = migrationFiles();
  const number = String(existing.length + 1).padStart(4, "0");
  const { slug, summary } = describeChanges(changes);
  const migration: GeneratedMigration = {
    id: `${number}-${byHand ?? slug}`,
    summary:
      byHand === undefined
        ? summary
        : `by hand: ${[...todo, ...(changes.length === 0 ? [] : [summary])].join("; ")}`,
    sqlite: changes.flatMap(sqliteStatements),
    postgres: changes.flatMap(postgresSteps),
    ...(todo.length === 0 ? {} : { todo }),
  };
  const file = `${migration.id}.ts`;
  return [
    { path: root(`${FOLDER}/${file}`), rendered: migrationSource(migration) },
    { path: root(`${FOLDER}/index.ts`), rendered: indexSource([...existing, file]) },
    ...outputs,
  ];
}

/** The migration files there are, in order. */
function migrationFiles(): string[] {
  return readdirSync(root(FOLDER))
    .filter((name) => MIGRATION_FILE.test(name))
    .sort();
}

const migrationSource = (migration: GeneratedMigration): string =>
  `// Written by \`npm run generate\` from openapi/plants.yaml: ${migration.summary}
${
  migration.todo === undefined
    ? ""
    : `// To complete by hand: add to \`sqlite\` and \`postgres\` the statements that make each change
// in \`todo\` keeping the rows (see docs/editing-the-api.md, "Migrations follow"), then delete
// \`todo\`; the build refuses the document until then.
`
}// Commit it with the document; never edit it once released (a database that ran it keeps it).
import type { GeneratedMigration } from "./migration.ts";

export const migration: GeneratedMigration = ${JSON.stringify(migration, null, 2)};
`;

/** The index: every migration file, in order. */
export function indexSource(files: readonly string[]): string {
  const names = files.map((file, at) => ({ file, name: `m${at + 1}` }));
  return `// Written by \`npm run generate\` (scripts/migration.ts): the migrations derived from the
// document, in order. Do not edit; a migration already released is never changed.
${names.map(({ file, name }) => `import { migration as ${name} } from "./${file}";\n`).join("")}import type { GeneratedMigration } from "./migration.ts";

export const GENERATED_MIGRATIONS: readonly GeneratedMigration[] = [${names.map(({ name }) => name).join(", ")}];
`;
}
