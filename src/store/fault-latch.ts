// Remembers that the store failed to write for a reason of its own (StoreFaultError: a full
// disk, a read-only database, an I/O error, a replaced file), so that readiness answers 503
// until a test write succeeds, rather than only the requests that happen to write. Without
// traffic (a balancer stops sending it to an instance that is not ready) only such a probe
// can tell that the fault has cleared.
import { StoreFaultError } from "./store.ts";

export interface FaultLatch {
  /** Runs a write: a StoreFaultError sets the latch, a success clears it. */
  watch<T>(write: () => Promise<T>): Promise<T>;
  /** While the latch is set, runs the test write; it clears the latch or rejects. */
  check(probeWrite: () => Promise<void>): Promise<void>;
}

export function createFaultLatch(): FaultLatch {
  let fault: StoreFaultError | undefined;
  const watch = async <T>(write: () => Promise<T>): Promise<T> => {
    try {
      const result = await write();
      fault = undefined;
      return result;
    } catch (error) {
      if (error instanceof StoreFaultError) fault = error;
      throw error;
    }
  };
  return {
    watch,
    async check(probeWrite) {
      if (fault !== undefined) await watch(probeWrite);
    },
  };
}
