// A Map that holds at most `capacity` entries and drops the least recently used one to make
// room. The order of use is a linked list through the entries, so a use moves an entry by
// relinking it and leaves the Map alone: deleting and re-adding a key in a Map that has lived
// long makes V8 rebuild its table in the old generation every few calls, about 0.5 µs and
// garbage only a full collection frees, and the rate limit does that on every request
// (BENCHMARKS.md, fifteenth session).

export interface LruMap<V> {
  /** The value, now counted as the most recently used. */
  get(key: string): V | undefined;
  /** The value, its place left as it is. */
  peek(key: string): V | undefined;
  /** Sets the value, now counted as the most recently used. */
  set(key: string, value: V): void;
  delete(key: string): void;
  /**
   * Least recently used first, in the order that stood when iterating began; deleting while
   * iterating is allowed: an entry deleted before its turn is left out, and one added
   * meanwhile is not visited.
   */
  entries(): IterableIterator<[string, V]>;
  readonly size: number;
}

interface Entry<V> {
  readonly key: string;
  value: V;
  older: Entry<V> | undefined;
  newer: Entry<V> | undefined;
}

export function createLruMap<V>(capacity: number): LruMap<V> {
  const map = new Map<string, Entry<V>>();
  let oldest: Entry<V> | undefined;
  let newest: Entry<V> | undefined;

  const unlink = (entry: Entry<V>) => {
    if (entry.older === undefined) oldest = entry.newer;
    else entry.older.newer = entry.newer;
    if (entry.newer === undefined) newest = entry.older;
    else entry.newer.older = entry.older;
    entry.older = undefined;
    entry.newer = undefined;
  };
  const linkNewest = (entry: Entry<V>) => {
    entry.older = newest;
    if (newest === undefined) oldest = entry;
    else newest.newer = entry;
    newest = entry;
  };
  const touch = (entry: Entry<V>) => {
    if (entry === newest) return;
    unlink(entry);
    linkNewest(entry);
  };
  const remove = (entry: Entry<V>) => {
    unlink(entry);
    map.delete(entry.key);
  };

  return {
    get(key) {
      const entry = map.get(key);
      if (entry === undefined) return undefined;
      touch(entry);
      return entry.value;
    },
    peek: (key) => map.get(key)?.value,
    set(key, value) {
      const entry = map.get(key);
      if (entry !== undefined) {
        entry.value = value;
        touch(entry);
        return;
      }
      const added: Entry<V> = { key, value, older: undefined, newer: undefined };
      map.set(key, added);
      linkNewest(added);
      if (map.size > capacity && oldest !== undefined) remove(oldest);
    },
    delete(key) {
      const entry = map.get(key);
      if (entry !== undefined) remove(entry);
    },
    *entries() {
      const order: Entry<V>[] = [];
      for (let entry = oldest; entry !== undefined; entry = entry.newer) order.push(entry);
      for (const entry of order) {
        if (map.get(entry.key) === entry) yield [entry.key, entry.value];
      }
    },
    get size() {
      return map.size;
    },
  };
}
