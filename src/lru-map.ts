// A Map that holds at most `capacity` entries and drops the least recently used one to make
// room. A Map iterates in insertion order, so moving an entry to the end on use is enough.

export interface LruMap<V> {
  /** The value, now counted as the most recently used. */
  get(key: string): V | undefined;
  /** The value, its place left as it is. */
  peek(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  /** Least recently used first; deleting while iterating is allowed. */
  entries(): IterableIterator<[string, V]>;
  readonly size: number;
}

export function createLruMap<V>(capacity: number): LruMap<V> {
  const map = new Map<string, V>();
  return {
    get(key) {
      const value = map.get(key);
      if (value !== undefined) {
        map.delete(key);
        map.set(key, value);
      }
      return value;
    },
    peek: (key) => map.get(key),
    set(key, value) {
      map.delete(key);
      map.set(key, value);
      if (map.size > capacity) {
        const oldest = map.keys().next();
        if (oldest.done !== true) map.delete(oldest.value);
      }
    },
    delete: (key) => void map.delete(key),
    entries: () => map.entries(),
    get size() {
      return map.size;
    },
  };
}
