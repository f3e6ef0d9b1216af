// The store engines every shared suite runs against. A new engine is one more entry.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqliteStore } from "../../src/store/sqlite.ts";
import type { PlantStore } from "../../src/store/store.ts";

export interface TestStore {
  store: PlantStore;
  /** Opens a second, independent connection to the same database. */
  reopen(): PlantStore;
  /** Closes every connection and removes the database. */
  destroy(): Promise<void>;
}

export interface StoreEngine {
  name: string;
  create(): Promise<TestStore>;
}

export const sqliteEngine: StoreEngine = {
  name: "sqlite",
  async create() {
    const dir = mkdtempSync(join(tmpdir(), "plantstore-test-"));
    const path = join(dir, "plants.db");
    const opened: PlantStore[] = [];
    const open = (): PlantStore => {
      const store = openSqliteStore(path);
      opened.push(store);
      return store;
    };
    return {
      store: open(),
      reopen: open,
      async destroy() {
        await Promise.all(opened.map((s) => s.close().catch(() => undefined)));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

export const storeEngines: readonly StoreEngine[] = [sqliteEngine];
