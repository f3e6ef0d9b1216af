// Requests pipelined on one connection, against a real server: a request must see what the
// ones before it on its connection did (RFC 9112 §9.3.2 lets a server run only safe requests
// side by side), on either engine's file.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { AUTH, plantJson, uniqueId } from "../helpers/app.ts";
import {
  killLeftoverServers,
  makeTempDb,
  type ServerProcess,
  startServer,
} from "../helpers/server-process.ts";
import { rawExchange } from "../helpers/socket-http.ts";

const db = makeTempDb();
let server: ServerProcess;
beforeAll(async () => {
  server = await startServer({ databasePath: db.path });
});
afterAll(async () => {
  await killLeftoverServers();
  db.remove();
});

const host = () => new URL(server.url).host;
const request = (method: string, target: string, body?: string): string =>
  `${method} ${target} HTTP/1.1\r\nHost: ${host()}\r\nAuthorization: ${AUTH.authorization}\r\n` +
  (body === undefined
    ? "\r\n"
    : `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);

describe("pipelined requests on one connection", () => {
  test.each(Array.from({ length: 5 }, (_, round) => round))(
    "when a create and a read of its id are sent in one write, then the read finds the plant (round %s)",
    async () => {
      const id = uniqueId();
      const [created, read] = await rawExchange(
        server.url,
        [request("POST", "/plants", plantJson(id, "piped")) + request("GET", `/plants/${id}`)],
        2,
      );
      expect(created?.status).toBe(200);
      expect(read?.status, read?.body).toBe(200);
      expect(read?.body).toBe(`{"id":${id},"name":"piped"}`);
    },
  );

  test("when a delete and then a read and a list are pipelined, then neither sees the plant", async () => {
    const id = uniqueId();
    const [created] = await rawExchange(
      server.url,
      [request("POST", "/plants", plantJson(id, "doomed"))],
      1,
    );
    expect(created?.status).toBe(200);
    const [deleted, read, page] = await rawExchange(
      server.url,
      [
        request("DELETE", `/plants/${id}`) +
          request("GET", `/plants/${id}`) +
          request("GET", `/plants?after=${id - 1n}&limit=1`),
      ],
      3,
    );
    expect(deleted?.status).toBe(204);
    expect(read?.status).toBe(404);
    expect(page?.body).toBe("[]");
  });

  test("when reads only are pipelined, then each is answered in order", async () => {
    const ids = [uniqueId(), uniqueId()];
    for (const id of ids) {
      await rawExchange(server.url, [request("POST", "/plants", plantJson(id, `p${id}`))], 1);
    }
    const answers = await rawExchange(
      server.url,
      [ids.map((id) => request("GET", `/plants/${id}`)).join("")],
      2,
    );
    expect(answers.map((answer) => answer.body)).toEqual(
      ids.map((id) => `{"id":${id},"name":"p${id}"}`),
    );
  });
});
