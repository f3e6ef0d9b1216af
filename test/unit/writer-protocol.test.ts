// The SQLite write thread's messages (src/store/sqlite/writer-protocol.ts): what the main thread
// sends, cloned as postMessage clones it, is the batch the thread applies, and the results the
// thread sends back are what the caller reads.
import { describe, expect, it } from "vitest";
import { mainSide, threadSide } from "../../src/store/sqlite/writer-protocol.ts";
import type { Write } from "../../src/store/writes.ts";
import { DATA } from "../helpers/stores.ts";

const main = mainSide(DATA);
const thread = threadSide(DATA);
const table = DATA.tables[0]?.name ?? "";

describe("the SQLite write thread's protocol", () => {
  it("when a batch of every kind of write crosses to the thread, then the thread gets the same writes in the same order", () => {
    const writes: Write[] = [
      { name: "createRow", args: { table, row: { id: 1n, name: "Fern", tag: "green" } } },
      { name: "updateRow", args: { table, key: 1n, patch: { name: "Moss", tag: null } } },
      { name: "deleteRow", args: { table, key: 2n } },
      { name: "deleteWebhookEndpoint", args: { id: "ep_1" } },
      { name: "fanOutWebhookEvents", args: {} },
      { name: "createRow", args: { table, row: { id: 3n, name: "Ivy" } } },
    ];
    const sent = structuredClone(main.encodeWrites(writes));
    expect(thread.decodeWrites(sent)).toEqual(writes);
  });

  it("when results come back, then a result that is only its outcome reads the same, and one with more keeps all of it", () => {
    const row = { id: 1n, name: "Fern" };
    const results = [
      { outcome: "created" },
      { outcome: "conflict", row },
      { outcome: "fanned", count: 3 },
      { outcome: "created" },
    ];
    const sent = structuredClone(thread.encodeResults(results));
    expect(sent[0]).toBe("created");
    const read = main.decodeResults(sent);
    expect(read).toEqual(results);
    expect(() => {
      (read[0] as { outcome: string }).outcome = "changed";
    }).toThrow(TypeError);
  });

  it("when a write names a table the document does not declare, then the main thread refuses to send it", () => {
    const write = { name: "createRow", args: { table: "nowhere", row: {} } } as Write;
    expect(() => main.encodeWrites([write])).toThrow(/no SQLite write createRow nowhere/);
  });
});
