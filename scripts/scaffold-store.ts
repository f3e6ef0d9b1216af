// The store half of the scaffold: for a resource new to the document (a tag whose operations
// have no handler yet and no store module), the repository interface, a stub per engine and
// its store contract suite. The write path, the migrations and the Store are files a change may
// be under way in, so the scaffold writes none of them: it prints the lines to add (and keeps
// them in the interface's header until the resource is written).
import type { ScaffoldedOperation } from "./scaffold.ts";

export interface TagObject {
  name: string;
  /** `false`: the tag's operations need no store of their own (documents, probes). */
  "x-store"?: boolean;
}

export interface ScaffoldedResource {
  /** The tag, as the document names it. */
  tag: string;
  /** children → "children" (files), "Children" (types), "CHILDREN" (constants). */
  file: string;
  type: string;
  constant: string;
  operations: ScaffoldedOperation[];
}

const words = (tag: string): string[] =>
  tag
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== "")
    .map((word) => word.toLowerCase());

/**
 * The resources among `fresh` (operations about to be scaffolded): each tag of theirs that the
 * document declares, that no operation with a handler shares, that has no `x-store: false`,
 * and whose store module does not exist yet.
 */
export function newResources(
  tags: readonly TagObject[],
  all: readonly ScaffoldedOperation[],
  fresh: readonly ScaffoldedOperation[],
  storeModuleExists: (file: string) => boolean,
): ScaffoldedResource[] {
  const freshIds = new Set(fresh.map((operation) => operation.operationId));
  const handled = new Set(
    all.filter((operation) => !freshIds.has(operation.operationId)).flatMap((op) => op.tags),
  );
  return tags.flatMap((tag) => {
    const split = words(tag.name);
    const file = split.join("-");
    const operations = fresh.filter((operation) => operation.tags.includes(tag.name));
    if (operations.length === 0 || handled.has(tag.name) || tag["x-store"] === false) return [];
    if (file === "" || storeModuleExists(file)) return [];
    const type = split.map((word) => `${word[0]?.toUpperCase()}${word.slice(1)}`).join("");
    return [{ tag: tag.name, file, type, constant: split.join("_").toUpperCase(), operations }];
  });
}

const camel = (resource: ScaffoldedResource) =>
  `${resource.type[0]?.toLowerCase()}${resource.type.slice(1)}`;

/** The lines to add to the files the scaffold leaves alone, file by file. */
export function wiringLines(resource: ScaffoldedResource): [string, string[]][] {
  const { file, type, constant } = resource;
  const member = camel(resource);
  return [
    [
      "src/store/writes.ts",
      [
        `import { ${constant}_WRITE_KEYS, type ${type}Writes } from "./${file}.ts";`,
        `export interface Writes extends WebhookWrites, ${type}Writes {`,
        `  ...${constant}_WRITE_KEYS, // in WRITE_KEYS`,
      ],
    ],
    [
      "src/store/sqlite-writes.ts, src/store/postgres-writes.ts",
      [`one entry in sqliteWrites / postgresWrites per member of ${type}Writes`],
    ],
    [
      "src/store/sqlite-migrations.ts (at the end of MIGRATIONS)",
      [
        `// N: ${resource.tag} (src/store/${file}.ts).`,
        `\`CREATE TABLE ${words(resource.tag).join("_")} (id INTEGER PRIMARY KEY) STRICT\`,`,
      ],
    ],
    [
      "src/store/postgres-migrations.ts (at the end of its list)",
      [
        `{ name: "${file}", sql: \`CREATE TABLE ${words(resource.tag).join("_")} (id BIGINT PRIMARY KEY)\` },`,
      ],
    ],
    [
      "src/store/store.ts (in Store), src/store/sqlite.ts, src/store/postgres.ts (where plants and tokens are opened)",
      [
        `readonly ${member}: ${type}Store;`,
        `${member}: createSqlite${type}Store(),`,
        `${member}: createPostgres${type}Store(),`,
      ],
    ],
  ];
}

export function storeInterfaceSource(resource: ScaffoldedResource): string {
  const { tag, type, constant } = resource;
  const methods = resource.operations.map(
    ({ operationId, method, path, summary }) =>
      `  /** ${method} ${path}: ${summary || operationId}. Its arguments and result are yours to write. */\n  ${operationId}(): Promise<never>;`,
  );
  const wiring = wiringLines(resource).flatMap(([where, lines]) => [
    `//   ${where}:`,
    ...lines.map((line) => `//     ${line}`),
  ]);
  return `// The storage interface for ${tag} (the tag in openapi/plants.yaml): plain async functions,
// one implementation per engine (sqlite-${resource.file}.ts, postgres-${resource.file}.ts), one
// contract suite for both (test/store/${resource.file}-store.test.ts). Scaffolded by
// \`npm run generate\`, which leaves the shared files to you; the lines they take:
${wiring.join("\n")}

export interface ${type}Store {
${methods.join("\n")}
}

/** The writes of ${tag}: each \`name: { args; result }\`, as in src/store/writes.ts. */
export type ${type}Writes = Record<never, { args: unknown; result: { outcome: string } }>;

/**
 * What each write touches: its row's key and those of the rows it names (a parent); writes
 * sharing a key apply in the order made (writes.ts).
 */
export const ${constant}_WRITE_KEYS: {
  [N in keyof ${type}Writes]: (args: ${type}Writes[N]["args"]) => string | readonly string[];
} = {};
`;
}

export function engineStoreSource(resource: ScaffoldedResource, engine: "sqlite" | "postgres") {
  const Engine = engine === "sqlite" ? "Sqlite" : "Postgres";
  const methods = resource.operations.map(
    ({ operationId }) =>
      `    ${operationId}: async () => {\n      throw new Error("${resource.type}Store.${operationId} is not written yet (${engine})");\n    },`,
  );
  return `// ${resource.tag} on ${Engine === "Sqlite" ? "SQLite" : "PostgreSQL"}: ${resource.type}Store (./${resource.file}.ts). Scaffolded by
// \`npm run generate\`: each method throws until written (see sqlite-tokens.ts and
// postgres-tokens.ts for reads; writes go through src/store/writes.ts).
import type { ${resource.type}Store } from "./${resource.file}.ts";

export function create${Engine}${resource.type}Store(): ${resource.type}Store {
  return {
${methods.join("\n")}
  };
}
`;
}

export function storeContractSource(resource: ScaffoldedResource): string {
  const todos = resource.operations.map(
    ({ operationId }) => `    it.todo("when ${operationId} …, then …");`,
  );
  return `// The behaviour every ${resource.type}Store engine must have: one suite, run against each engine
// of storeEngines (SQLite, and PostgreSQL when TEST_DATABASE_URL is set). Scaffolded by
// \`npm run generate\`; see test/store/token-store.test.ts for how cases are written.
import { describe, it } from "vitest";
import { storeEngines } from "../helpers/stores.ts";

describe.each(storeEngines)("${resource.type}Store contract: $name", () => {
${todos.join("\n")}
});
`;
}
