// Group commit: concurrent writes are queued and handed to the engine together, so many share
// one transaction and one flush to disk. Each caller's promise settles only when the batch
// holding its write has committed (or failed). Where several batches commit at once, a write
// whose key is in a batch still committing waits for the next batch, so writes to one key
// apply in the order they were submitted.

export interface BatcherOptions<In, Out> {
  /** Writes one batch, in order, in one transaction; one result per item, in the same order. */
  write: (items: readonly In[]) => Promise<readonly Out[]>;
  /**
   * Batches in flight at once: 1 for a write thread (what arrives during a commit becomes the
   * next batch), more for a connection pool.
   */
  maxInFlight: number;
  /** Most items in one batch, which bounds one transaction's size and time. */
  maxBatch: number;
  /** What an item touches; items with one key never commit in two batches at once. */
  keyOf?: (item: In) => string;
}

export interface Batcher<In, Out> {
  submit(item: In): Promise<Out>;
  /** Resolves once every submitted item has settled. */
  drain(): Promise<void>;
}

interface Waiting<In, Out> {
  item: In;
  key: string | undefined;
  resolve: (out: Out) => void;
  reject: (error: unknown) => void;
}

export function createBatcher<In, Out>(options: BatcherOptions<In, Out>): Batcher<In, Out> {
  const { write, maxInFlight, maxBatch } = options;
  // With one batch committing at a time, order needs no keys.
  const keyOf = maxInFlight > 1 ? options.keyOf : undefined;
  let queue: Waiting<In, Out>[] = [];
  /** Keys of the items in batches now committing, with how many batches hold each. */
  const committing = new Map<string, number>();
  let inFlight = 0;
  let scheduled = false;
  let idle: (() => void)[] = [];

  const settleIdle = () => {
    if (inFlight > 0 || queue.length > 0) return;
    const waiters = idle;
    idle = [];
    for (const resolve of waiters) resolve();
  };

  /** The next batch: items in order, none whose key is committing (nor after one that is). */
  const take = (): Waiting<In, Out>[] => {
    if (committing.size === 0 || keyOf === undefined) return queue.splice(0, maxBatch);
    const batch: Waiting<In, Out>[] = [];
    const left: Waiting<In, Out>[] = [];
    const held = new Set<string>();
    for (const waiting of queue) {
      const key = waiting.key as string;
      if (batch.length < maxBatch && !committing.has(key) && !held.has(key)) batch.push(waiting);
      else {
        held.add(key);
        left.push(waiting);
      }
    }
    queue = left;
    return batch;
  };

  const pump = () => {
    scheduled = false;
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = take();
      if (batch.length === 0) return;
      inFlight++;
      void run(batch);
    }
  };

  const hold = (batch: readonly Waiting<In, Out>[], by: 1 | -1) => {
    for (const { key } of batch) {
      if (key === undefined) continue;
      const held = (committing.get(key) ?? 0) + by;
      if (held === 0) committing.delete(key);
      else committing.set(key, held);
    }
  };

  const run = async (batch: Waiting<In, Out>[]) => {
    hold(batch, 1);
    try {
      const results = await write(batch.map((waiting) => waiting.item));
      if (results.length !== batch.length) {
        throw new Error(`a batch of ${batch.length} writes gave ${results.length} results`);
      }
      for (const [index, waiting] of batch.entries()) waiting.resolve(results[index] as Out);
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      hold(batch, -1);
      inFlight--;
      // What queued while this batch was committing goes out now, as the next batch.
      pump();
      settleIdle();
    }
  };

  return {
    submit(item) {
      return new Promise<Out>((resolve, reject) => {
        queue.push({ item, key: keyOf?.(item), resolve, reject });
        // Requests that arrive in the same turn of the event loop go out together.
        if (!scheduled && inFlight < maxInFlight) {
          scheduled = true;
          setImmediate(pump);
        }
      });
    },
    drain() {
      if (inFlight === 0 && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
}
