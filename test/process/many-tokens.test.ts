// A server on a token table of 100,000 rows: start-up and the request path look tokens up by
// hash, so the process stays ready and a managed token works as with an empty table.
import { afterEach, describe, expect, it } from "vitest";
import { issueToken } from "../../src/auth/issue-token.ts";
import { plantJson, uniqueId } from "../helpers/app.ts";
import { sleep } from "../helpers/load.ts";
import { killLeftoverServers, startServer } from "../helpers/server-process.ts";
import { sqliteEngine, useTestStore } from "../helpers/stores.ts";
import { insertTokenRows } from "../helpers/token-rows.ts";

afterEach(killLeftoverServers);

describe("a server on 100,000 managed tokens (sqlite)", () => {
  const db = useTestStore(sqliteEngine);

  it("when the table holds 100,000 tokens, then /readyz answers 200 and a token created before start works", async () => {
    await insertTokenRows(db().url, 100_000);
    const { token } = await issueToken(db().store.tokens, { name: `n-${uniqueId()}` });
    // No PLANTSTORE_TOKENS: start-up also asks whether any token is usable. A reading of the
    // whole table on the event loop (what main did every second) would stall it past this
    // limit, and readiness would answer 503 while it lasts.
    const server = await startServer({
      databaseUrl: db().url,
      env: { PLANTSTORE_TOKENS: undefined, PLANTSTORE_MAX_EVENT_LOOP_DELAY_MS: "200" },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) {
      const ready = await fetch(`${server.url}/readyz`, { signal: AbortSignal.timeout(10_000) });
      statuses.push(ready.status);
      await ready.text();
      await sleep(200);
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    const created = await fetch(`${server.url}/plants`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: plantJson(uniqueId(), "among many tokens"),
      signal: AbortSignal.timeout(10_000),
    });
    expect(created.status, await created.text()).toBe(200);
    expect(server.stderr()).not.toMatch(/no usable token|initial/);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
  });
});
