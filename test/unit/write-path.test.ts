// The one write path (src/store/writes.ts) in this process, on an engine double: how writes are
// named for metrics and logs, what keys order them where batches commit side by side, and what
// its observers are told. The SQLite write thread loads its own copy of the module, so the store
// suites never reach this code in the test's process.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ConstraintViolationError } from "../../src/store/store.ts";
import type { Table } from "../../src/store/tables.ts";
import {
  createWritePath,
  VIOLATED,
  type Write,
  type WriteObserver,
  writeCounters,
  writeLabels,
} from "../../src/store/writes.ts";

const column = (member: string, references?: string) => ({
  member,
  name: member,
  kind: "string" as const,
  nullable: false,
  nullIsValue: false,
  references,
});
const plants: Table = { name: "plants", noun: "plant", key: "id", columns: [column("id")] };
const pots: Table = {
  name: "pots",
  noun: "pot",
  key: "code",
  columns: [
    column("code"),
    column("plantId", "plants"),
    column("shedId", "sheds"),
    column("colour"),
  ],
};
const tables = [plants, pots];

afterEach(() => {
  vi.restoreAllMocks();
});

describe("write labels and counters", () => {
  const label = writeLabels(tables);

  it("when a row write names a declared table, then it is labelled by its action and the table's noun", () => {
    expect(label({ name: "createRow", args: { table: "plants", row: {} } })).toBe("createPlant");
    expect(label({ name: "updateRow", args: { table: "pots", key: "a", patch: {} } })).toBe(
      "updatePot",
    );
    expect(label({ name: "deleteRow", args: { table: "pots", key: "a" } })).toBe("deletePot");
  });

  it("when a row write names no declared table, then it keeps the write's own name", () => {
    expect(label({ name: "deleteRow", args: { table: "sheds", key: "a" } })).toBe("deleteRow");
  });

  it("when a write is not a row's, then it is labelled by its own name", () => {
    const write: Write = { name: "purgeWebhookDeliveries", args: { before: 0, limit: 10 } };
    expect(label(write)).toBe("purgeWebhookDeliveries");
  });

  it("when the metrics count creates, then each table has a counter of its rows created", () => {
    expect(writeCounters(tables)).toEqual([
      {
        name: "plantstore_plants_created_total",
        help: "Plants stored for the first time (replays and conflicts not counted)",
        write: "createPlant",
        outcome: "created",
      },
      {
        name: "plantstore_pots_created_total",
        help: "Pots stored for the first time (replays and conflicts not counted)",
        write: "createPot",
        outcome: "created",
      },
    ]);
  });
});

/** A write path of two batches in flight whose engine holds each batch until released. */
function heldPath(maxBatch = 100) {
  const batches: Write[][] = [];
  const release: (() => void)[] = [];
  const path = createWritePath({
    maxInFlight: 2,
    maxBatch,
    tables,
    execute: async (batch) => {
      batches.push([...batch]);
      await new Promise<void>((resolve) => release.push(resolve));
      return batch.map(() => ({ outcome: "created" }));
    },
  });
  return { path, batches, release };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));
const createPlant = (id: string): Write => ({
  name: "createRow",
  args: { table: "plants", row: { id } },
});
const createPot = (code: string, row: Record<string, unknown>): Write => ({
  name: "createRow",
  args: { table: "pots", row: { code, ...row } },
});

/** Submits `first` and, once it is committing, `then`: the batch taken beside it. */
async function nextBatchBeside(first: Write, then: Write[]): Promise<Write[]> {
  const { path, batches, release } = heldPath();
  const run = (write: Write) => path.run(write.name, write.args as never);
  const settled = [run(first)];
  await turn();
  settled.push(...then.map(run));
  await turn();
  expect(batches[0]).toEqual([first]);
  const beside = batches[1] ?? [];
  let done = false;
  void Promise.all(settled).then(() => {
    done = true;
  });
  while (!done) {
    release.shift()?.();
    await turn();
  }
  return beside;
}

describe("the keys that order writes committing side by side", () => {
  it("when a row's create is committing, then another write of the same row waits and one of another row goes", async () => {
    const second = await nextBatchBeside(createPlant("a"), [
      { name: "deleteRow", args: { table: "plants", key: "a" } },
      createPlant("b"),
    ]);
    expect(second).toEqual([createPlant("b")]);
  });

  it("when a parent's delete is committing, then a child's create naming it waits, and one naming no parent goes", async () => {
    const second = await nextBatchBeside(
      { name: "deleteRow", args: { table: "plants", key: "p" } },
      [createPot("c1", { plantId: "p" }), createPot("c2", { plantId: null }), createPot("c3", {})],
    );
    expect(second).toEqual([createPot("c2", { plantId: null }), createPot("c3", {})]);
  });

  it("when writes share only a member's value, or a reference left empty, then they commit side by side", async () => {
    const second = await nextBatchBeside(createPot("c1", { plantId: null, colour: "red" }), [
      createPot("c2", { plantId: null, colour: "red" }),
    ]);
    expect(second).toEqual([createPot("c2", { plantId: null, colour: "red" })]);
  });

  it("when a child's update names a parent being deleted, then it waits; one naming another parent goes", async () => {
    const update = (key: string, plantId: string): Write => ({
      name: "updateRow",
      args: { table: "pots", key, patch: { plantId } },
    });
    const second = await nextBatchBeside(
      { name: "deleteRow", args: { table: "plants", key: "p" } },
      [update("c1", "p"), update("c2", "q")],
    );
    expect(second).toEqual([update("c2", "q")]);
  });

  it("when a row's update is committing, then a delete of that row waits", async () => {
    const second = await nextBatchBeside(
      { name: "updateRow", args: { table: "pots", key: "c1", patch: {} } },
      [
        { name: "deleteRow", args: { table: "pots", key: "c1" } },
        { name: "deleteRow", args: { table: "pots", key: "c2" } },
      ],
    );
    expect(second).toEqual([{ name: "deleteRow", args: { table: "pots", key: "c2" } }]);
  });

  it("when a webhook write with several keys is committing, then a write sharing any one of them waits", async () => {
    const retry = {
      name: "retryWebhookDelivery",
      args: { id: "d1", endpointId: "e1" },
    } as Write;
    const rotate = (id: string) => ({ name: "rotateWebhookSecret", args: { id } }) as Write;
    const second = await nextBatchBeside(retry, [rotate("e1"), rotate("e2")]);
    expect(second).toEqual([rotate("e2")]);
  });
});

describe("the write path's results and observers", () => {
  const recorder = () => {
    const seen: string[] = [];
    const observer: WriteObserver = {
      settled: (write, seconds, outcome) => seen.push(`settled ${write} ${seconds} ${outcome}`),
      failed: (write, seconds, error) =>
        seen.push(`failed ${write} ${seconds} ${(error as Error).message}`),
    };
    return { seen, observer };
  };
  /** performance.now() as 1000 ms when a write is submitted and 1250 ms at every later look. */
  const clock = () => {
    vi.spyOn(performance, "now").mockReturnValueOnce(1000).mockReturnValue(1250);
  };

  it("when a write settles, then its result is returned and each observer gets its label, seconds and outcome", async () => {
    const path = createWritePath({
      maxInFlight: 1,
      maxBatch: 10,
      tables,
      execute: async (batch) => batch.map(() => ({ outcome: "replayed", row: { id: "a" } })),
    });
    const { seen, observer } = recorder();
    const other = recorder();
    path.observe(observer);
    path.observe(other.observer);
    clock();
    const result = await path.run("createRow", { table: "plants", row: { id: "a" } });
    expect(result).toEqual({ outcome: "replayed", row: { id: "a" } });
    expect(seen).toEqual(["settled createPlant 0.25 replayed"]);
    expect(other.seen).toEqual(seen);
  });

  it("when the engine reports a write violated a rule, then it rejects with a ConstraintViolationError naming the rule and observers see it failed", async () => {
    const path = createWritePath({
      maxInFlight: 1,
      maxBatch: 10,
      tables,
      execute: async (batch) =>
        batch.map(() => ({ outcome: VIOLATED, message: "FOREIGN KEY constraint failed" })),
    });
    const { seen, observer } = recorder();
    path.observe(observer);
    clock();
    const run = path.run("deleteRow", { table: "plants", key: "a" });
    await expect(run).rejects.toBeInstanceOf(ConstraintViolationError);
    await expect(run).rejects.toThrow("the store refused the write: FOREIGN KEY constraint failed");
    expect(seen).toEqual([
      "failed deletePlant 0.25 the store refused the write: FOREIGN KEY constraint failed",
    ]);
  });

  it("when the engine fails the batch, then the write rejects with its error and observers see it failed", async () => {
    const path = createWritePath({
      maxInFlight: 1,
      maxBatch: 10,
      tables,
      execute: async () => {
        throw new Error("disk I/O error");
      },
    });
    const { seen, observer } = recorder();
    path.observe(observer);
    clock();
    await expect(path.run("deleteRow", { table: "pots", key: "a" })).rejects.toThrow(
      "disk I/O error",
    );
    expect(seen).toEqual(["failed deletePot 0.25 disk I/O error"]);
  });

  it("when an observer is removed, then it hears of no later write", async () => {
    const path = createWritePath({
      maxInFlight: 1,
      maxBatch: 10,
      tables,
      execute: async (batch) => batch.map(() => ({ outcome: "absent" })),
    });
    const { seen, observer } = recorder();
    const remove = path.observe(observer);
    clock();
    await path.run("deleteRow", { table: "plants", key: "a" });
    remove();
    await path.run("deleteRow", { table: "plants", key: "b" });
    expect(seen).toEqual(["settled deletePlant 0.25 absent"]);
  });

  it("when writes are in flight, then drain resolves only once they have settled", async () => {
    const { path, release } = heldPath();
    let settled = false;
    void path.run("createRow", { table: "plants", row: { id: "a" } }).then(() => {
      settled = true;
    });
    await turn();
    let drained = false;
    const drain = path.drain().then(() => {
      drained = true;
    });
    await turn();
    expect(drained).toBe(false);
    release.shift()?.();
    await drain;
    expect(settled).toBe(true);
  });
});
