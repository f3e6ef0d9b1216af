import { describe, expect, it } from "vitest";
import { createBatcher } from "../../src/store/batcher.ts";

/** A batcher whose writes wait until released, recording each batch it was given. */
function recording(options: {
  maxInFlight: number;
  maxBatch: number;
  keysOf?: (item: number) => readonly string[];
}) {
  const batches: number[][] = [];
  const release: (() => void)[] = [];
  const batcher = createBatcher<number, string>({
    ...options,
    write: async (items) => {
      batches.push([...items]);
      await new Promise<void>((resolve) => release.push(resolve));
      return items.map((item) => `done ${item}`);
    },
  });
  return { batcher, batches, release };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("group commit batcher", () => {
  it("when items arrive in one turn, then they go out as one batch and each gets its own result", async () => {
    const { batcher, batches, release } = recording({ maxInFlight: 1, maxBatch: 100 });
    const results = Promise.all([1, 2, 3].map((item) => batcher.submit(item)));
    await turn();
    expect(batches).toEqual([[1, 2, 3]]);
    release.shift()?.();
    expect(await results).toEqual(["done 1", "done 2", "done 3"]);
  });

  it("when items arrive while a batch is in flight, then they wait and go out together next", async () => {
    const { batcher, batches, release } = recording({ maxInFlight: 1, maxBatch: 100 });
    const first = batcher.submit(1);
    await turn();
    const later = [batcher.submit(2), batcher.submit(3)];
    await turn();
    await turn();
    expect(batches).toEqual([[1]]);
    release.shift()?.();
    await first;
    await turn();
    expect(batches).toEqual([[1], [2, 3]]);
    release.shift()?.();
    expect(await Promise.all(later)).toEqual(["done 2", "done 3"]);
  });

  it("when more items wait than a batch holds, then batches are split and several fly at once up to the limit", async () => {
    const { batcher, batches, release } = recording({ maxInFlight: 2, maxBatch: 2 });
    const all = Promise.all([1, 2, 3, 4, 5].map((item) => batcher.submit(item)));
    await turn();
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    release.shift()?.();
    await turn();
    await turn();
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
    for (const done of release.splice(0)) done();
    expect(await all).toEqual(["done 1", "done 2", "done 3", "done 4", "done 5"]);
  });

  it("when an item shares any of its keys with one committing, then it waits for the next batch, and items with other keys go by", async () => {
    // 1 creates a child naming parent 9, 2 deletes parent 9, 3 touches another row.
    const keys: Record<number, string[]> = {
      1: ["child:1", "parent:9"],
      2: ["parent:9"],
      3: ["plant:3"],
    };
    const { batcher, batches, release } = recording({
      maxInFlight: 2,
      maxBatch: 1,
      keysOf: (item) => keys[item] ?? [],
    });
    const all = Promise.all([1, 2, 3].map((item) => batcher.submit(item)));
    await turn();
    expect(batches).toEqual([[1], [3]]);
    release.shift()?.();
    await turn();
    await turn();
    expect(batches).toEqual([[1], [3], [2]]);
    for (const done of release.splice(0)) done();
    expect(await all).toEqual(["done 1", "done 2", "done 3"]);
  });

  it("when a batch fails, then every item in it fails with that error and later items still go out", async () => {
    let calls = 0;
    const batcher = createBatcher<number, number>({
      maxInFlight: 1,
      maxBatch: 10,
      write: async (items) => {
        calls++;
        if (calls === 1) throw new Error("disk on fire");
        return items;
      },
    });
    const failed = [batcher.submit(1), batcher.submit(2)];
    for (const result of failed) await expect(result).rejects.toThrow("disk on fire");
    expect(await batcher.submit(3)).toBe(3);
  });

  it("when the writer answers with the wrong number of results, then the batch fails instead of misattributing", async () => {
    const batcher = createBatcher<number, number>({
      maxInFlight: 1,
      maxBatch: 10,
      write: async (items) => items.slice(1),
    });
    await expect(Promise.all([batcher.submit(1), batcher.submit(2)])).rejects.toThrow(
      /2 writes gave 1/,
    );
  });

  it("when every waiting item shares a key with a batch committing, then nothing goes out, not even an empty batch, until that batch commits", async () => {
    const { batcher, batches, release } = recording({
      maxInFlight: 2,
      maxBatch: 10,
      keysOf: () => ["plant:1"],
    });
    const first = batcher.submit(1);
    await turn();
    const second = batcher.submit(2);
    await turn();
    await turn();
    expect(batches).toEqual([[1]]);
    release.shift()?.();
    expect(await first).toBe("done 1");
    await turn();
    expect(batches).toEqual([[1], [2]]);
    release.shift()?.();
    expect(await second).toBe("done 2");
  });

  it("when an item shares only one of its keys with a batch committing, then it still waits for that batch", async () => {
    // 1 deletes parent 9; 2 creates child 2 naming parent 9; 3 touches another row.
    const keys: Record<number, string[]> = {
      1: ["parent:9"],
      2: ["child:2", "parent:9"],
      3: ["plant:3"],
    };
    const { batcher, batches, release } = recording({
      maxInFlight: 2,
      maxBatch: 10,
      keysOf: (item) => keys[item] ?? [],
    });
    const first = batcher.submit(1);
    await turn();
    const later = Promise.all([batcher.submit(2), batcher.submit(3)]);
    await turn();
    expect(batches).toEqual([[1], [3]]);
    release.shift()?.();
    await first;
    await turn();
    expect(batches).toEqual([[1], [3], [2]]);
    for (const done of release.splice(0)) done();
    expect(await later).toEqual(["done 2", "done 3"]);
  });

  it("when items with keys of their own wait beside a batch committing, then the next batch still holds at most the batch limit", async () => {
    const { batcher, batches, release } = recording({
      maxInFlight: 2,
      maxBatch: 2,
      keysOf: (item) => [`plant:${item}`],
    });
    const first = batcher.submit(1);
    await turn();
    const later = Promise.all([2, 3, 4].map((item) => batcher.submit(item)));
    await turn();
    expect(batches).toEqual([[1], [2, 3]]);
    release.shift()?.();
    await first;
    await turn();
    expect(batches).toEqual([[1], [2, 3], [4]]);
    for (const done of release.splice(0)) done();
    expect(await later).toEqual(["done 2", "done 3", "done 4"]);
  });

  it("when items arrive in callbacks of one turn of the event loop, after a batch went out in it, then they go out together in the next turn", async () => {
    const { batcher, batches, release } = recording({ maxInFlight: 2, maxBatch: 10 });
    const submitted: Promise<string>[] = [];
    // Callbacks run in the order set: the batch of 1 and 2 goes out first, then 3 and 4 arrive
    // one callback apart, with the batch of 1 and 2 still committing and a slot free.
    submitted.push(batcher.submit(1));
    setImmediate(() => submitted.push(batcher.submit(3)));
    submitted.push(batcher.submit(2));
    setImmediate(() => submitted.push(batcher.submit(4)));
    await turn();
    await turn();
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
    for (const done of release.splice(0)) done();
    expect(await Promise.all(submitted)).toEqual(["done 1", "done 2", "done 3", "done 4"]);
  });

  it("when draining, then it resolves only once everything submitted has settled", async () => {
    const { batcher, release } = recording({ maxInFlight: 1, maxBatch: 10 });
    const item = batcher.submit(1);
    let drained = false;
    const drain = batcher.drain().then(() => {
      drained = true;
    });
    await turn();
    expect(drained).toBe(false);
    release.shift()?.();
    await item;
    await drain;
    expect(drained).toBe(true);
  });

  it("when draining with a second batch queued behind the first, then it resolves only once the second has settled", async () => {
    const { batcher, release } = recording({ maxInFlight: 1, maxBatch: 10 });
    const first = batcher.submit(1);
    await turn();
    const second = batcher.submit(2);
    let drained = false;
    const drain = batcher.drain().then(() => {
      drained = true;
    });
    release.shift()?.();
    await first;
    await turn();
    expect(drained).toBe(false);
    release.shift()?.();
    await second;
    await drain;
    expect(drained).toBe(true);
  });

  it("when draining while a batch commits and nothing waits, then it resolves only once that batch has settled", async () => {
    const { batcher, release } = recording({ maxInFlight: 1, maxBatch: 10 });
    const item = batcher.submit(1);
    await turn();
    let drained = false;
    const drain = batcher.drain().then(() => {
      drained = true;
    });
    await turn();
    expect(drained).toBe(false);
    release.shift()?.();
    await item;
    await drain;
    expect(drained).toBe(true);
  });

  it("when draining with nothing submitted, or everything settled, then it resolves at once", async () => {
    const { batcher, release } = recording({ maxInFlight: 1, maxBatch: 10 });
    let drained = 0;
    void batcher.drain().then(() => drained++);
    await turn();
    expect(drained).toBe(1);
    const item = batcher.submit(1);
    await turn();
    release.shift()?.();
    await item;
    void batcher.drain().then(() => drained++);
    await turn();
    expect(drained).toBe(2);
  });
});
