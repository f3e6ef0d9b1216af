/** Module name → the globs of the files Stryker mutates in it and of the suites that test it. */
export const MODULES: Readonly<
  Record<string, { mutate: readonly string[]; tests: readonly string[] }>
>;
