// Last uses of managed tokens (src/auth/last-uses.ts) on a store double: what a flush that fails
// keeps for the next one, and what it logs.
import { describe, expect, it } from "vitest";
import { createLastUses } from "../../src/auth/last-uses.ts";
import { deferred, recordingLog, storeDouble } from "../helpers/token-store-double.ts";

describe("last uses of managed tokens", () => {
  it("when a flush fails, then its uses are written by the next one, except where a newer use was noted meanwhile, and the failure is logged with its reason", async () => {
    const { store } = storeDouble();
    const { log, lines } = recordingLog();
    const uses = createLastUses(store, log);
    uses.note("tok_a", new Date(1000));
    uses.note("tok_b", new Date(1000));
    const written = deferred<undefined>();
    store.recordLastUsed.mockImplementationOnce(() => written.promise);

    const failing = uses.flush();
    uses.note("tok_a", new Date(2000));
    written.reject(new Error("database away"));
    await failing;
    expect(lines).toEqual([
      {
        level: "warn",
        args: [
          { reason: "Error: database away" },
          "managed tokens: cannot record last use; will retry",
        ],
      },
    ]);

    await uses.flush();
    expect(store.recordLastUsed).toHaveBeenCalledTimes(2);
    expect(store.recordLastUsed.mock.calls[1]?.[0]).toEqual(
      new Map([
        ["tok_a", new Date(2000)],
        ["tok_b", new Date(1000)],
      ]),
    );
  });
});
