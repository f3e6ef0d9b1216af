// Faults over a real socket: an app listening on a port, its store broken under it.
import { connect } from "node:net";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { createTestApp, plantJson, uniqueId } from "../helpers/app.ts";
import { waitUntil } from "../helpers/load.ts";
import { expectErrorAnswer, post, rawHead } from "../helpers/socket-http.ts";

describe("faults over a real socket", () => {
  it("when the store fails after the body was read, then the answer is 500 with the Error body (not a bare 400)", async () => {
    const logLines: Record<string, unknown>[] = [];
    const t = await createTestApp(undefined, logLines);
    const url = await t.app.listen({ host: "127.0.0.1", port: 0 });
    // A missing table is a fault of ours; a closed store would be a 503 (store unavailable).
    const saboteur = new Database(t.db.url.replace(/^sqlite:/, ""));
    saboteur.exec("DROP TABLE plants");
    saboteur.close();
    const error = expectErrorAnswer(await post(url, plantJson(uniqueId(), "x")), 500);
    expect(error.message).toMatch(/^internal error; quote request id /);
    expect(logLines.some((line) => line["msg"] === "request failed")).toBe(true);
    await t.close();
  });

  it("when the client goes away in the middle of the body, then that is logged as an abort and nothing is stored", async () => {
    const logLines: Record<string, unknown>[] = [];
    const t = await createTestApp(undefined, logLines);
    const url = new URL(await t.app.listen({ host: "127.0.0.1", port: 0 }));
    const id = uniqueId();
    const body = plantJson(id, "half");
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    await new Promise<void>((sent) =>
      socket.write(
        rawHead(url.host, { "Content-Type": "application/json", "Content-Length": "1000" }) +
          body.slice(0, 10),
        () => sent(),
      ),
    );
    await new Promise((settle) => setTimeout(settle, 100));
    socket.destroy();
    await waitUntil(
      () => logLines.some((line) => line["msg"] === "request aborted by the client"),
      "the abort is logged",
    );
    expect(await t.db.store.resources.plants.get(id)).toBeUndefined();
    await t.close();
  });
});
