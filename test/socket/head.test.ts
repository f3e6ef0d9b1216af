// HEAD wherever GET is (RFC 9110 §9.1, §9.3.2), against a real server: the same status and
// headers as the GET, no body, and HEAD in every Allow. Load balancers probe with it.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AUTH, plantJson, uniqueId } from "../helpers/app.ts";
import { documentedPaths } from "../helpers/document.ts";
import {
  killLeftoverServers,
  makeTempDb,
  type ServerProcess,
  startServer,
} from "../helpers/server-process.ts";
import { post } from "../helpers/socket-http.ts";

const db = makeTempDb();
let server: ServerProcess;
beforeAll(async () => {
  server = await startServer({ databasePath: db.path });
});
afterAll(async () => {
  await killLeftoverServers();
  db.remove();
});

interface Head {
  status: number;
  headers: Record<string, string>;
  /** Whatever came after the head before the connection closed. */
  after: string;
}

/** One request on a fresh connection that closes after it; everything the server sent. */
function exchange(method: string, target: string, headers: Record<string, string>): Promise<Head> {
  const { hostname, port, host } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let data = "";
    const timer = setTimeout(() => reject(new Error(`no close after ${data}`)), 10_000);
    socket.on("data", (chunk: Buffer) => {
      data += chunk.toString("latin1");
    });
    socket.on("error", reject);
    socket.on("close", () => {
      clearTimeout(timer);
      const end = data.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = data.slice(0, end).split("\r\n");
      const parsed: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        parsed[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        status: Number(statusLine.split(" ")[1]),
        headers: parsed,
        after: data.slice(end + 4),
      });
    });
    const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
    socket.write(
      `${method} ${target} HTTP/1.1\r\nHost: ${host}\r\n${extra.join("")}Connection: close\r\n\r\n`,
    );
  });
}

// What differs between two answers to the same request by nature.
const VARYING = new Set(["date", "x-request-id", "ratelimit"]);
const stable = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !VARYING.has(name)));

describe("HEAD", () => {
  let id: bigint;
  beforeAll(async () => {
    id = uniqueId();
    expect((await post(server.url, plantJson(id, "headed"))).status).toBe(200);
  });

  test.each([
    ["a stored plant", () => `/plants/${id}`, AUTH],
    ["a missing plant", () => "/plants/1", AUTH],
    ["a page", () => "/plants?limit=1", AUTH],
    ["liveness", () => "/healthz", {}],
    ["readiness", () => "/readyz", {}],
    ["the document", () => "/openapi.json", {}],
    ["without a token", () => `/plants/${id}`, {}],
  ])(
    "when HEAD asks for %s, then it gets GET's status and headers and no body",
    async (_what, target, headers) => {
      const get = await exchange("GET", target(), headers);
      const head = await exchange("HEAD", target(), headers);
      expect(head.status).toBe(get.status);
      expect(stable(head.headers)).toEqual(stable(get.headers));
      expect(head.after).toBe("");
      expect(get.after.length).toBeGreaterThan(0);
    },
  );

  test("when a method the path lacks is used, then Allow lists HEAD wherever it lists GET", async () => {
    for (const { path, methods } of documentedPaths()) {
      // A method the document does not give this path, whichever ones it gives.
      const lacking = ["PUT", "PATCH", "TRACE"].find((method) => !methods.includes(method));
      const answer = await exchange(lacking ?? "PURGE", path, AUTH);
      expect(answer.status, path).toBe(405);
      const allow = answer.headers["allow"]?.split(", ") ?? [];
      expect(allow, path).toEqual(methods);
      if (allow.includes("GET")) expect(allow, path).toContain("HEAD");
    }
  });
});
