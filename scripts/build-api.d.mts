/** Compiles openapi/plants.yaml into dist/api/compiled.mjs, unless it is up to date. */
export function buildApi(): Promise<void>;
