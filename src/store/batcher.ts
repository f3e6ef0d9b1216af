// Group commit: concurrent writes are queued and handed to the engine together, so many share
// one transaction and one flush to disk. Each caller's promise settles only when the batch
// holding its write has committed (or failed). Where several batches commit at once, a write
// any of whose keys is in a batch still committing waits for the next batch, so writes sharing
// a key apply in the order they were submitted.

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
  /**
   * What an item touches: its own key and those of the rows it reads (a parent it names).
   * Items sharing any key never commit in two batches at once.
   */
  keysOf?: (item: In) => readonly string[];
}

export interface Batcher<In, Out> {
  submit(item: In): Promise<Out>;
  /** Resolves once every submitted item has settled. */
  drain(): Promise<void>;
}

interface Waiting<In, Out> {
  item: In;
  keys: readonly string[];
  resolve: (out: Out) => void;
  reject: (error: unknown) => void;
}

export function createBatcher<In, Out>(options: BatcherOptions<In, Out>): Batcher<In, Out> {
  const { write, maxInFlight, maxBatch } = options;
  // With one batch committing at a time, order needs no keys.
  const keysOf = maxInFlight > 1 ? options.keysOf : undefined;
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

  const take = (): Waiting<In, Out>[] => {
    if (committing.size === 0 || keysOf === undefined) return queue.splice(0, maxBatch);
    const { batch, left } = nextBatch(queue, committing, maxBatch);
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

  const run = async (batch: Waiting<In, Out>[]) => {
    hold(committing, batch, 1);
    try {
      const results = await write(batch.map((waiting) => waiting.item));
      if (results.length !== batch.length) {
        throw new Error(`a batch of ${batch.length} writes gave ${results.length} results`);
      }
      for (const [index, waiting] of batch.entries()) waiting.resolve(results[index] as Out);
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      hold(committing, batch, -1);
      inFlight--;
      // What queued while this batch was committing goes out now, as the next batch.
      pump();
      settleIdle();
    }
  };

  return {
    submit(item) {
      return new Promise<Out>((resolve, reject) => {
        queue.push({ item, keys: keysOf?.(item) ?? [], resolve, reject });
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

/** The next batch: items in order, none with a key committing (nor after one that has). */
function nextBatch<In, Out>(
  queue: readonly Waiting<In, Out>[],
  committing: ReadonlyMap<string, number>,
  maxBatch: number,
): { batch: Waiting<In, Out>[]; left: Waiting<In, Out>[] } {
  const batch: Waiting<In, Out>[] = [];
  const left: Waiting<In, Out>[] = [];
  const held = new Set<string>();
  const free = (key: string) => !committing.has(key) && !held.has(key);
  for (const waiting of queue) {
    if (batch.length < maxBatch && waiting.keys.every(free)) batch.push(waiting);
    else {
      for (const key of waiting.keys) held.add(key);
      left.push(waiting);
    }
  }
  return { batch, left };
}

/** Counts the batch's keys as committing (by 1) or no longer (by -1). */
function hold(
  committing: Map<string, number>,
  batch: readonly { keys: readonly string[] }[],
  by: 1 | -1,
): void {
  for (const { keys } of batch) {
    for (const key of keys) {
      const held = (committing.get(key) ?? 0) + by;
      if (held === 0) committing.delete(key);
      else committing.set(key, held);
    }
  }
}
