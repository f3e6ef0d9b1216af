// GET /healthz and GET /readyz. Readiness asks the store; shutting down and overload answer
// 503 before these handlers run (src/http/admission.ts), and a store
// that does not answer throws StoreUnavailableError, which app.ts answers 503 like any other.
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { Store } from "../store/store.ts";

export function healthHandlers(store: Pick<Store, "ping">): {
  getHealth: OperationHandler<"getHealth">;
  getReadiness: OperationHandler<"getReadiness">;
} {
  return {
    // Alive: answering at all is the proof. No store access, so a database outage never
    // gets a healthy process restarted.
    getHealth: async (): Answer<"getHealth"> => ({ status: 200, body: { status: "ok" } }),
    getReadiness: async (): Answer<"getReadiness"> => {
      await store.ping();
      return { status: 200, body: { status: "ok" } };
    },
  };
}
