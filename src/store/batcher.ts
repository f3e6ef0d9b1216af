// Group commit: concurrent writes are queued and handed to the engine together, so many
// creates share one transaction and one flush to disk. Each caller's promise settles only
// when the batch holding its write has committed (or failed).

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
}

export interface Batcher<In, Out> {
  submit(item: In): Promise<Out>;
  /** Resolves once every submitted item has settled. */
  drain(): Promise<void>;
}

interface Waiting<In, Out> {
  item: In;
  resolve: (out: Out) => void;
  reject: (error: unknown) => void;
}

export function createBatcher<In, Out>(options: BatcherOptions<In, Out>): Batcher<In, Out> {
  const { write, maxInFlight, maxBatch } = options;
  const queue: Waiting<In, Out>[] = [];
  let inFlight = 0;
  let scheduled = false;
  let idle: (() => void)[] = [];

  const settleIdle = () => {
    if (inFlight > 0 || queue.length > 0) return;
    const waiters = idle;
    idle = [];
    for (const resolve of waiters) resolve();
  };

  const pump = () => {
    scheduled = false;
    while (inFlight < maxInFlight && queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      inFlight++;
      void run(batch);
    }
  };

  const run = async (batch: Waiting<In, Out>[]) => {
    try {
      const results = await write(batch.map((waiting) => waiting.item));
      if (results.length !== batch.length) {
        throw new Error(`a batch of ${batch.length} writes gave ${results.length} results`);
      }
      for (const [index, waiting] of batch.entries()) waiting.resolve(results[index] as Out);
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      inFlight--;
      // What queued while this batch was committing goes out now, as the next batch.
      pump();
      settleIdle();
    }
  };

  return {
    submit(item) {
      return new Promise<Out>((resolve, reject) => {
        queue.push({ item, resolve, reject });
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
