// A migration `npm run generate` derived from the document (scripts/generate.ts, with diff.ts):
// the statements that take each engine's tables from the snapshot before to the document's
// tables. Committed with the YAML and never edited once released; each engine runs those it
// has not recorded, in order, after the hand-written ones (sqlite/migrations.ts,
// postgres/migrations.ts).

/** One PostgreSQL statement and how it runs without holding up the writes of instances serving meanwhile. */
export interface PostgresStep {
  sql: string;
  /**
   * Outside any transaction (CREATE INDEX CONCURRENTLY): it runs alone, and is checked
   * afterwards, since a failed concurrent build leaves an invalid index behind.
   */
  concurrently?: true;
}

export interface GeneratedMigration {
  /** `NNNN-what`: the order they run in, and what each engine records of it. */
  id: string;
  /** What it changes, in a sentence, for logs and reviewers. */
  summary: string;
  sqlite: readonly string[];
  postgres: readonly PostgresStep[];
  /**
   * Written by `npm run generate -- --by-hand NAME`: the changes it could not make safely, for
   * whoever completes the statements above to make, then delete. The build refuses it until then.
   */
  todo?: readonly string[];
}
