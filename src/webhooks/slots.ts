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

export interface Slots {
  /** Claimed deliveries, waiting for a slot. */
  enqueue(queued: readonly Queued[]): void;
  /** The next deliveries to start, as slots allow, round the endpoints; each now counts as running. */
  take(): Queued[];
  /** An attempt ended: `timedOut` when it got no answer in time. */
  finished(endpointId: string, timedOut: boolean): void;
  /** A delivery taken but not sent after all: its slot is free, nothing learnt. */
  cancelled(endpointId: string): void;
  /** Every queued delivery of the endpoint, taken out (it is gone or disabled). */
  drop(endpointId: string): Queued[];
  /**
   * An endpoint that turned slow keeps one delivery queued; the rest are taken out, to go back
   * to the store, so the room they held is claimed for other endpoints.
   */
  trim(endpointId: string): Queued[];
  /** Every queued delivery, taken out (stopping). */
  dropAll(): Queued[];
  /**
   * For each endpoint known here, how many more deliveries to claim for it: `ahead` for each
   * attempt of its share (a slow one: one in all), less what it holds.
   */
  wantedByEndpoint(ahead: number): Record<string, number>;
  running(): number;
  queued(): number;
}

export function createSlots(concurrency: number, perEndpoint: number): Slots {
  const endpoints = new Map<string, Endpoint>();
  const slowLimit = Math.max(1, Math.floor(concurrency / 2));
  let running = 0;
  let slowRunning = 0;
  let queued = 0;
  // The endpoint served last: the next round starts after it.
  let last: string | undefined;

  const endpointOf = (id: string): Endpoint => {
    let found = endpoints.get(id);
    if (found === undefined) {
      found = { queue: [], running: 0, share: perEndpoint, slow: false };
      endpoints.set(id, found);
    }
    return found;
  };
  const forget = (id: string, endpoint: Endpoint) => {
    if (endpoint.queue.length === 0 && endpoint.running === 0 && !endpoint.slow) {
      endpoints.delete(id);
    }
  };
  /** The endpoints in round order: those after the last served, then the rest. */
  const inTurn = (): [string, Endpoint][] => {
    const all = [...endpoints];
    const at = last === undefined ? -1 : all.findIndex(([id]) => id === last);
    return [...all.slice(at + 1), ...all.slice(0, at + 1)];
  };
  const mayStart = (endpoint: Endpoint) =>
    endpoint.queue.length > 0 &&
    endpoint.running < endpoint.share &&
    running < concurrency &&
    (!endpoint.slow || slowRunning < slowLimit);

  return {
    enqueue(list) {
      for (const item of list) endpointOf(item.delivery.endpointId).queue.push(item);
      queued += list.length;
    },
    take() {
      const started: Queued[] = [];
      for (let progress = true; progress && running < concurrency; ) {
        progress = false;
        for (const [id, endpoint] of inTurn()) {
          if (!mayStart(endpoint)) continue;
          started.push(endpoint.queue.shift() as Queued);
          queued--;
          running++;
          endpoint.running++;
          if (endpoint.slow) slowRunning++;
          last = id;
          progress = true;
        }
      }
      return started;
    },
    finished(id, timedOut) {
      const endpoint = endpointOf(id);
      running--;
      endpoint.running--;
      if (endpoint.slow) slowRunning--;
      if (timedOut) {
        endpoint.slow = true;
        endpoint.share = 1;
      } else {
        endpoint.slow = false;
        endpoint.share = Math.min(perEndpoint, endpoint.share + 1);
      }
      // Its running attempts count in the slow class from now on.
      slowRunning = [...endpoints.values()].reduce((n, e) => n + (e.slow ? e.running : 0), 0);
      forget(id, endpoint);
    },
    cancelled(id) {
      const endpoint = endpointOf(id);
      running--;
      endpoint.running--;
      if (endpoint.slow) slowRunning--;
      forget(id, endpoint);
    },
    drop(id) {
      const endpoint = endpoints.get(id);
      if (endpoint === undefined) return [];
      const dropped = endpoint.queue.splice(0);
      queued -= dropped.length;
      forget(id, endpoint);
      return dropped;
    },
    trim(id) {
      const endpoint = endpoints.get(id);
      if (endpoint === undefined || !endpoint.slow) return [];
      const extra = endpoint.queue.splice(1);
      queued -= extra.length;
      return extra;
    },
    dropAll() {
      const dropped = [...endpoints.values()].flatMap((endpoint) => endpoint.queue.splice(0));
      queued = 0;
      return dropped;
    },
    wantedByEndpoint(ahead) {
      const wanted: Record<string, number> = {};
      for (const [id, e] of endpoints) {
        const holds = e.slow ? 1 : e.share * ahead;
        wanted[id] = Math.max(0, holds - e.queue.length - e.running);
      }
      return wanted;
    },
    running: () => running,
    queued: () => queued,
  };
}
