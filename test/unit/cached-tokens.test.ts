// The managed tokens' cache in front of the store (src/auth/cached-tokens.ts) on a store double
// whose lookups the test answers: which tokens a revalidation looks up again, one revalidation
// at a time, settle, the outage log, and the bounded wait for a token not cached.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createCachedTokens } from "../../src/auth/cached-tokens.ts";
import type { TokenRecord } from "../../src/store/tokens.ts";
import {
  deferred,
  quietLog,
  recordingLog,
  storeDouble,
  tokenRow,
  turn,
} from "../helpers/token-store-double.ts";

const START = 1_000_000;
const SECOND = 1000;

afterEach(() => {
  vi.useRealTimers();
});

describe("cached managed tokens", () => {
  it("when revalidating, then the tokens used within the last minute are looked up again and those idle longer are dropped", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(START);
    const { store } = storeDouble([tokenRow("used"), tokenRow("idle")]);
    const tokens = createCachedTokens(store, quietLog);
    await tokens.recordFor("used");
    await tokens.recordFor("idle");
    vi.setSystemTime(START + 50 * SECOND);
    await tokens.recordFor("used");
    vi.setSystemTime(START + 90 * SECOND);
    store.findByHashes.mockClear();

    tokens.revalidate();
    await tokens.settle();
    expect(store.findByHashes.mock.calls).toEqual([[["used"]]]);
    // Dropped: presented again, it is looked up anew.
    expect(await tokens.recordFor("idle")).toEqual(tokenRow("idle"));
    expect(store.findByHashes.mock.calls).toEqual([[["used"]], [["idle"]]]);
  });

  it("when revalidations follow one another, then each looks the tokens in use up again", async () => {
    const { store } = storeDouble([tokenRow("used")]);
    const tokens = createCachedTokens(store, quietLog);
    await tokens.recordFor("used");
    store.findByHashes.mockClear();

    tokens.revalidate();
    await tokens.settle();
    tokens.revalidate();
    await tokens.settle();
    expect(store.findByHashes.mock.calls).toEqual([[["used"]], [["used"]]]);
  });

  it("when a revalidation is asked for while one is under way, then none starts: a token that goes idle meanwhile is still dropped at the next", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(START);
    const { store } = storeDouble([tokenRow("a")]);
    const tokens = createCachedTokens(store, quietLog);
    await tokens.recordFor("a");
    vi.setSystemTime(START + 30 * SECOND);
    const answer = deferred<TokenRecord[]>();
    store.findByHashes.mockImplementationOnce(() => answer.promise);
    tokens.revalidate();

    // Idle for 100 s now. A second sweep here would drop the entry, and the answer under way
    // would cache it again as used just now.
    vi.setSystemTime(START + 100 * SECOND);
    tokens.revalidate();
    answer.resolve([tokenRow("a")]);
    // And a turn: what is checked is the next revalidation, whichever one settle waited for.
    await tokens.settle();
    await turn();
    store.findByHashes.mockClear();

    tokens.revalidate();
    await tokens.settle();
    expect(store.findByHashes).not.toHaveBeenCalled();
  });

  it("when settling during a revalidation, then it resolves only once the store has answered and the answer is cached", async () => {
    const { store } = storeDouble([tokenRow("a")]);
    const tokens = createCachedTokens(store, quietLog);
    await tokens.recordFor("a");
    const asked = deferred<void>();
    const answer = deferred<TokenRecord[]>();
    store.findByHashes.mockImplementationOnce(() => {
      asked.resolve();
      return answer.promise;
    });
    tokens.revalidate();

    const events: string[] = [];
    const settling = tokens.settle().then(() => events.push("settled"));
    await asked.promise;
    events.push("answered");
    const revoked = tokenRow("a", { revokedAt: new Date(5000) });
    answer.resolve([revoked]);
    await settling;
    expect(events).toEqual(["answered", "settled"]);
    expect(await tokens.recordFor("a")).toEqual(revoked);
  });

  it("when the table fails and answers again, then one warning with the reason and one info line are logged, and nothing while it answers", async () => {
    const { store } = storeDouble(["a", "b", "c"].map((hash) => tokenRow(hash)));
    const { log, lines } = recordingLog();
    const tokens = createCachedTokens(store, log);
    expect(await tokens.recordFor("a")).toEqual(tokenRow("a"));
    expect(lines).toEqual([]);

    store.findByHashes
      .mockRejectedValueOnce(new Error("the table is gone"))
      .mockRejectedValueOnce(new Error("the table is still gone"));
    expect(await tokens.recordFor("b")).toBeUndefined();
    expect(await tokens.recordFor("c")).toBeUndefined();
    expect(lines).toEqual([
      {
        level: "warn",
        args: [
          { reason: "Error: the table is gone" },
          "managed tokens: cannot read the token table; using the cached tokens until it can",
        ],
      },
    ]);

    expect(await tokens.recordFor("b")).toEqual(tokenRow("b"));
    expect(await tokens.recordFor("c")).toEqual(tokenRow("c"));
    expect(lines.slice(1)).toEqual([
      { level: "info", args: ["managed tokens: the token table is readable again"] },
    ]);
  });

  it("when the store answers a token not cached in time, then its row is given and no timer is left behind", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { store } = storeDouble([tokenRow("a")]);
    const tokens = createCachedTokens(store, quietLog);
    expect(await tokens.recordFor("a")).toEqual(tokenRow("a"));
    // A timer left running would keep the event loop alive up to 2 s after the answer.
    expect(vi.getTimerCount()).toBe(0);
  });

  it("when the store does not answer a token not cached, then after 2 s it is undefined (cannot tell), not waited for", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const { store } = storeDouble([tokenRow("a")]);
    store.findByHashes.mockImplementationOnce(() => new Promise(() => undefined));
    const tokens = createCachedTokens(store, quietLog);
    const answer: { settled: boolean; value?: TokenRecord | null } = { settled: false };
    void tokens.recordFor("a").then((value) => Object.assign(answer, { settled: true, value }));

    await vi.advanceTimersByTimeAsync(2 * SECOND - 1);
    await turn();
    expect(answer).toEqual({ settled: false });
    await vi.advanceTimersByTimeAsync(1);
    await turn();
    expect(answer).toEqual({ settled: true, value: undefined });
  });
});
