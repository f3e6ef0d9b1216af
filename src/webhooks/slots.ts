// Who may send next: the deliverer's attempts under way, by endpoint, handed out fairly. Slots
// go round the endpoints with work queued, one at a time, so no endpoint's queue waits behind
// another's; an endpoint whose attempts time out is slow: it gets one attempt at a time, and the
// slow ones together at most half the slots, so hanging receivers can never hold up the rest.
// An answer in time makes it well again, its share growing back by one an answer.
import type { ClaimedDelivery } from "../store/webhooks.ts";

export interface Queued {
  delivery: ClaimedDelivery;
  claimedAt: number;
}

interface Endpoint {
  queue: Queued[];
  running: number;
  /** Attempts it may have under way: from 1 up to the endpoint concurrency. */
  share: number;
  slow: boolean;
}

export class Slots {
  private readonly endpoints = new Map<string, Endpoint>();
  private readonly slowLimit: number;
  private runningCount = 0;
  private slowRunning = 0;
  private queuedCount = 0;
  // The endpoint served last: the next round starts after it.
  private last: string | undefined;

  constructor(
    private readonly concurrency: number,
    private readonly perEndpoint: number,
  ) {
    this.slowLimit = Math.max(1, Math.floor(concurrency / 2));
  }

  /** Claimed deliveries, waiting for a slot. */
  enqueue(list: readonly Queued[]): void {
    for (const item of list) this.endpointOf(item.delivery.endpointId).queue.push(item);
    this.queuedCount += list.length;
  }

  /** The next deliveries to start, as slots allow, round the endpoints; each now counts as running. */
  take(): Queued[] {
    const started: Queued[] = [];
    for (let progress = true; progress && this.runningCount < this.concurrency; ) {
      progress = false;
      for (const [id, endpoint] of this.inTurn()) {
        if (!this.mayStart(endpoint)) continue;
        started.push(endpoint.queue.shift() as Queued);
        this.queuedCount--;
        this.runningCount++;
        endpoint.running++;
        if (endpoint.slow) this.slowRunning++;
        this.last = id;
        progress = true;
      }
    }
    return started;
  }

  /** An attempt ended: `timedOut` when it got no answer in time. */
  finished(id: string, timedOut: boolean): void {
    const endpoint = this.endpointOf(id);
    this.freeSlot(endpoint);
    if (timedOut) {
      endpoint.slow = true;
      endpoint.share = 1;
    } else {
      endpoint.slow = false;
      endpoint.share = Math.min(this.perEndpoint, endpoint.share + 1);
    }
    // Its running attempts count in the slow class from now on.
    this.slowRunning = [...this.endpoints.values()].reduce(
      (n, e) => n + (e.slow ? e.running : 0),
      0,
    );
    this.forget(id, endpoint);
  }

  /** A delivery taken but not sent after all: its slot is free, nothing learnt. */
  cancelled(id: string): void {
    const endpoint = this.endpointOf(id);
    this.freeSlot(endpoint);
    this.forget(id, endpoint);
  }

  /** Every queued delivery of the endpoint, taken out (it is gone or disabled). */
  drop(id: string): Queued[] {
    const endpoint = this.endpoints.get(id);
    if (endpoint === undefined) return [];
    const dropped = endpoint.queue.splice(0);
    this.queuedCount -= dropped.length;
    this.forget(id, endpoint);
    return dropped;
  }

  /**
   * An endpoint that turned slow keeps one delivery queued; the rest are taken out, to go back
   * to the store, so the room they held is claimed for other endpoints.
   */
  trim(id: string): Queued[] {
    const endpoint = this.endpoints.get(id);
    if (endpoint === undefined || !endpoint.slow) return [];
    const extra = endpoint.queue.splice(1);
    this.queuedCount -= extra.length;
    return extra;
  }

  /**
   * Every queued delivery claimed before `claimedAt`, taken out: its lease would end during its
   * attempt, so it goes back to the store, all at once, to be claimed afresh.
   */
  dropClaimedBefore(claimedAt: number): Queued[] {
    const dropped: Queued[] = [];
    for (const [id, endpoint] of this.endpoints) {
      // Queues are in claim order: the stale ones are a prefix.
      const stale = endpoint.queue.findIndex((item) => item.claimedAt >= claimedAt);
      dropped.push(...endpoint.queue.splice(0, stale === -1 ? endpoint.queue.length : stale));
      this.forget(id, endpoint);
    }
    this.queuedCount -= dropped.length;
    return dropped;
  }

  /** Every queued delivery, taken out (stopping). */
  dropAll(): Queued[] {
    const dropped = [...this.endpoints.values()].flatMap((endpoint) => endpoint.queue.splice(0));
    this.queuedCount = 0;
    return dropped;
  }

  /**
   * For each endpoint known here, how many more deliveries to claim for it: `ahead` for each
   * attempt of its share (a slow one: one in all), less what it holds.
   */
  wantedByEndpoint(ahead: number): Record<string, number> {
    const wanted: Record<string, number> = {};
    for (const [id, e] of this.endpoints) {
      const holds = e.slow ? 1 : e.share * ahead;
      wanted[id] = Math.max(0, holds - e.queue.length - e.running);
    }
    return wanted;
  }

  running(): number {
    return this.runningCount;
  }

  queued(): number {
    return this.queuedCount;
  }

  private endpointOf(id: string): Endpoint {
    let found = this.endpoints.get(id);
    if (found === undefined) {
      found = { queue: [], running: 0, share: this.perEndpoint, slow: false };
      this.endpoints.set(id, found);
    }
    return found;
  }

  private freeSlot(endpoint: Endpoint): void {
    this.runningCount--;
    endpoint.running--;
    if (endpoint.slow) this.slowRunning--;
  }

  private forget(id: string, endpoint: Endpoint): void {
    if (endpoint.queue.length === 0 && endpoint.running === 0 && !endpoint.slow) {
      this.endpoints.delete(id);
    }
  }

  /** The endpoints in round order: those after the last served, then the rest. */
  private inTurn(): [string, Endpoint][] {
    const all = [...this.endpoints];
    const at = this.last === undefined ? -1 : all.findIndex(([id]) => id === this.last);
    return [...all.slice(at + 1), ...all.slice(0, at + 1)];
  }

  private mayStart(endpoint: Endpoint): boolean {
    return (
      endpoint.queue.length > 0 &&
      endpoint.running < endpoint.share &&
      this.runningCount < this.concurrency &&
      (!endpoint.slow || this.slowRunning < this.slowLimit)
    );
  }
}
