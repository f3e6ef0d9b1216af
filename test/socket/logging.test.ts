// What the spawned server logs for requests it answers: one JSON line per request, once it is
// answered, and never a credential or a request body.

import { afterAll, afterEach, describe, expect, test } from "vitest";
import { openSqliteStore } from "../../src/store/sqlite/store.ts";
import { plantJson, TOKEN, uniqueId } from "../helpers/app.ts";
import { killLeftoverServers, makeTempDb, startServer } from "../helpers/server-process.ts";
import { type Answer, post, rawRequest } from "../helpers/socket-http.ts";
import { DATA } from "../helpers/stores.ts";

const db = makeTempDb();

afterEach(killLeftoverServers);
afterAll(async () => {
  await killLeftoverServers();
  db.remove();
});

interface Sent {
  method: string;
  path: string;
  status: number;
}

/** A fetch whose answer is read to the end, bounded like every request in these suites. */
async function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const response = await fetch(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: await response.text(),
  };
}

function parseLines(text: string): Record<string, unknown>[] {
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const entry: unknown = JSON.parse(line);
      if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
        throw new Error(`not a JSON object log line: ${line}`);
      }
      return entry as Record<string, unknown>;
    });
}

describe("request logging", () => {
  test("when requests with different statuses are answered, then stdout has exactly one 'request completed' JSON line per request with reqId, method, url, status and ms, no 'incoming request' line, and no token or plant name anywhere in stdout or stderr", async () => {
    const server = await startServer({ databasePath: db.path });
    // Distinctive values that must never reach a log.
    const name = `Secretia loggingensis ${uniqueId()}`;
    const otherName = `Hiddenia conflictus ${uniqueId()}`;
    const wrongToken = `wrong-token-${uniqueId()}-abcdef`;
    const id = uniqueId();
    const jsonType = { "content-type": "application/json" };
    const plants = `${server.url}/plants`;

    const sent: Sent[] = [];
    const expectStatus = (method: string, path: string, answer: Answer, status: number): void => {
      expect(answer.status, answer.body).toBe(status);
      sent.push({ method, path, status });
    };
    // One after another, so the log lines come in the order of the requests.
    expectStatus("POST", "/plants", await post(server.url, plantJson(id, name, "t")), 200);
    expectStatus("POST", "/plants", await post(server.url, plantJson(id, name, "t")), 200);
    expectStatus("POST", "/plants", await post(server.url, plantJson(id, otherName)), 409);
    expectStatus("POST", "/plants", await post(server.url, `{"id":${id},"name":"${name}`), 400);
    expectStatus(
      "POST",
      "/plants",
      await post(server.url, plantJson(uniqueId(), name), { "content-type": "text/plain" }),
      415,
    );
    expectStatus(
      "POST",
      "/plants",
      await send(
        plants,
        "POST",
        { ...jsonType, authorization: `Bearer ${wrongToken}` },
        plantJson(uniqueId(), name),
      ),
      401,
    );
    expectStatus("PUT", "/plants", await send(plants, "PUT", {}), 405);
    // Answered by a hook before the route's handler (too many header lines), and refused while
    // the body was read (too large): one line each all the same.
    const manyHeaders = Object.fromEntries(
      Array.from({ length: 201 }, (_, at) => [`x-filler-${at}`, "1"]),
    );
    expectStatus("GET", "/plants", await send(plants, "GET", manyHeaders), 431);
    const tooLarge = `{"id":1,"name":"${"x".repeat(70_000)}"}`;
    expectStatus("POST", "/plants", await post(server.url, tooLarge), 413);
    // Query values are dropped from the log: a token pasted into the URL must not leak.
    expectStatus(
      "GET",
      "/nowhere?access_token=…&q=…",
      await send(`${server.url}/nowhere?access_token=${TOKEN}&q=1`, "GET", {}),
      404,
    );

    expect(await server.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    const stdout = server.stdoutLines().join("\n");
    const stderr = server.stderr();
    const entries = parseLines(stdout);

    const completed = entries.filter((entry) => entry["msg"] === "request completed");
    expect(completed.map(({ method, url, status }) => ({ method, path: url, status }))).toEqual(
      sent,
    );
    for (const entry of completed) {
      expect(entry["level"]).toBe(30);
      expect(entry["reqId"]).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      );
      expect(entry["ms"]).toEqual(expect.any(Number));
    }
    expect(new Set(completed.map((entry) => entry["reqId"])).size).toBe(sent.length);
    // Every line that names a request is its one completion line.
    expect(entries.filter((entry) => "reqId" in entry)).toHaveLength(sent.length);
    expect(entries.filter((entry) => entry["msg"] === "incoming request")).toEqual([]);
    expect(entries.filter((entry) => entry["msg"] === "request failed")).toEqual([]);

    for (const secret of [TOKEN, wrongToken, name, otherName, "Secretia", "Hiddenia"]) {
      expect(stdout).not.toContain(secret);
      expect(stderr).not.toContain(secret);
    }

    // The requests really did what their statuses say.
    const store = openSqliteStore(db.path, { data: DATA });
    try {
      expect(await store.resources.plants.get(id)).toStrictEqual({ id, name, tag: "t" });
    } finally {
      await store.close();
    }
  });

  test("when secrets ride in a target's query, fragment or userinfo, then no log line holds them", async () => {
    const server = await startServer({ databasePath: db.path });
    const secret = `SECRET${uniqueId()}`;
    const host = new URL(server.url).host;
    const targets = [
      // A bare item may be a token pasted in, not a name.
      [`/plants/1?${secret}`, "/plants/1?…"],
      [`/plants/1?access_token=${secret}&limit`, "/plants/1?access_token=…&…"],
      [`/plants/1#access_token=${secret}`, "/plants/1"],
      [`http://user:${secret}@${host}/healthz`, "/healthz"],
    ];
    for (const [target] of targets) {
      await rawRequest(server.url, [
        `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`,
      ]).catch(() => undefined);
    }
    expect(await server.stop("SIGTERM")).toEqual({ code: 0, signal: null });
    const stdout = server.stdoutLines().join("\n");
    expect(stdout).not.toContain(secret);
    const logged = parseLines(stdout)
      .filter((entry) => entry["msg"] === "request completed")
      .map((entry) => entry["url"]);
    expect(logged).toEqual(targets.map(([, shown]) => shown));
  });
});
