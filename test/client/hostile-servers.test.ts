// The client against servers that misbehave: one that redirects (the API never does, so the
// client must not follow: a redirected create could land elsewhere, or turn into a GET), and one
// whose answer has no end. Servers of the test's own, on 127.0.0.1.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createClient, PlantStoreError } from "../../src/client/index.ts";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))),
  );
});

/** A server answering every request with `answer`; what it was asked, in order. */
async function serve(
  answer: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<{ url: string; asked: string[] }> {
  const asked: string[] = [];
  const server = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    request.resume();
    answer(request, response);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
}

describe("a server that redirects", () => {
  it.each([301, 302, 303, 307, 308])(
    "when every call is answered %s, then each fails naming the redirect and nothing reaches its target",
    async (status) => {
      const elsewhere = await serve((_request, response) => response.end("[]"));
      const redirecting = await serve((_request, response) => {
        response.writeHead(status, { location: `${elsewhere.url}/plants` });
        response.end();
      });
      const client = createClient({ baseUrl: redirecting.url, token: "t".repeat(20) });
      for (const call of [
        () => client.createPlant({ body: { id: 1n, name: "Fern" } }),
        () => client.getPlant({ path: { id: 1n } }),
        () => client.deletePlant({ path: { id: 1n } }),
        () => client.listPlants(),
      ]) {
        const error = await call().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(PlantStoreError);
        expect(error).toMatchObject({ status });
        expect((error as Error).message).toMatch(/redirect.*not followed/);
      }
      expect(elsewhere.asked).toEqual([]);
    },
  );
});

describe("an answer with no end", () => {
  it("when a 200 is larger than the client's bound, then the call fails once the bound is passed, without reading the rest", async () => {
    let written = 0;
    const endless = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      const chunk = Buffer.alloc(64 * 1024, " ");
      const pump = () => {
        while (written < 200 * 1024 * 1024 && !response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) {
            response.once("drain", pump);
            return;
          }
        }
        response.end();
      };
      pump();
    });
    const client = createClient({
      baseUrl: endless.url,
      token: "t".repeat(20),
      maxAnswerBytes: 1024 * 1024,
    });
    await expect(client.getPlant({ path: { id: 1n } })).rejects.toThrow(
      /larger than 1048576 bytes/,
    );
    expect(written).toBeLessThan(200 * 1024 * 1024);
  });
});
