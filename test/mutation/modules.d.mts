export interface Part {
  /** Globs of the files Stryker mutates. */
  mutate: readonly string[];
  /** Globs of the suites that test them. */
  tests: readonly string[];
}

/** Module → part → its files and suites. */
export const MODULES: Readonly<Record<string, Readonly<Record<string, Part>>>>;
