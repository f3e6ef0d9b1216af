import { describe, expect, it } from "vitest";
import { createLruMap, type LruMap } from "../../src/lru-map.ts";

const keysOf = (lru: LruMap<number>) => [...lru.entries()].map(([key]) => key);

/** The same contract kept the plainest way: an array, least recently used first. */
function modelLru(capacity: number) {
  let order: [string, number][] = [];
  const at = (key: string) => order.findIndex(([k]) => k === key);
  const take = (key: string) => {
    const found = order[at(key)];
    order = order.filter(([k]) => k !== key);
    return found;
  };
  return {
    get(key: string) {
      const found = take(key);
      if (found !== undefined) order.push(found);
      return found?.[1];
    },
    peek: (key: string) => order[at(key)]?.[1],
    set(key: string, value: number) {
      take(key);
      order.push([key, value]);
      if (order.length > capacity) order.shift();
    },
    delete: (key: string) => void take(key),
    entries: () => order.map(([key, value]) => [key, value]),
  };
}

describe("least-recently-used map", () => {
  it("when full, then setting a new key drops the one used least recently", () => {
    const lru = createLruMap<number>(3);
    lru.set("a", 1);
    lru.set("b", 2);
    lru.set("c", 3);
    expect(lru.get("a")).toBe(1);
    lru.set("b", 20);
    lru.set("d", 4);
    expect(keysOf(lru)).toEqual(["a", "b", "d"]);
    expect(lru.peek("c")).toBeUndefined();
    expect(lru.size).toBe(3);
  });

  it("when a key is only peeked at, then its place is left as it is", () => {
    const lru = createLruMap<number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.peek("a")).toBe(1);
    lru.set("c", 3);
    expect(keysOf(lru)).toEqual(["b", "c"]);
  });

  it("when entries are deleted while iterating, then the rest are still visited and the deleted ones are not", () => {
    const lru = createLruMap<number>(10);
    for (const [value, key] of ["a", "b", "c", "d"].entries()) lru.set(key, value);
    const seen: string[] = [];
    for (const [key] of lru.entries()) {
      seen.push(key);
      lru.delete(key);
      if (key === "b") lru.delete("c");
    }
    expect(seen).toEqual(["a", "b", "d"]);
    expect(lru.size).toBe(0);
    lru.set("e", 5);
    expect(keysOf(lru)).toEqual(["e"]);
  });

  it("when any sequence of uses is applied, then it keeps the same entries in the same order as a plain list", () => {
    // A fixed pseudo-random sequence (a linear congruential generator), so a failure repeats.
    let seed = 12_345;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      // The high bits: the low bits of this generator repeat with a short period.
      return Math.floor(seed / 65_536) % n;
    };
    const lru = createLruMap<number>(5);
    const model = modelLru(5);
    for (let step = 0; step < 5_000; step++) {
      const key = `k${next(9)}`;
      const action = next(4);
      if (action === 0) expect(lru.get(key)).toBe(model.get(key));
      else if (action === 1) expect(lru.peek(key)).toBe(model.peek(key));
      else if (action === 2) {
        lru.set(key, step);
        model.set(key, step);
      } else {
        lru.delete(key);
        model.delete(key);
      }
      expect([...lru.entries()]).toEqual(model.entries());
    }
  });
});
