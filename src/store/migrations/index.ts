// Written by `npm run generate` (scripts/generate.ts): the migrations derived from the document,
// in order. Do not edit; a migration already released is never changed.
import type { GeneratedMigration } from "./migration.ts";

export const GENERATED_MIGRATIONS: readonly GeneratedMigration[] = [];
