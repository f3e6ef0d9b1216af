// The hook that writes each request's line and counts it once its answer is handed to the
// socket (src/http/request-end.ts): once per answer, and a throw in it is logged, not fatal.
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { addRequestEnd } from "../../src/http/request-end.ts";

function setUp(ended: Parameters<typeof addRequestEnd>[1]) {
  const lines: string[] = [];
  const app = Fastify({
    logger: { level: "info", stream: { write: (l: string) => void lines.push(l) } },
  });
  addRequestEnd(app, ended);
  app.get("/x", async () => "x");
  return { app, lines };
}

describe("addRequestEnd", () => {
  it("when a request is answered, then it is told once, with the request, the reply and a time", async () => {
    const seen: { url: string; status: number; ms: number }[] = [];
    const { app } = setUp((request, reply, ms) =>
      seen.push({ url: request.url, status: reply.statusCode, ms }),
    );
    expect((await app.inject({ method: "GET", url: "/x" })).statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: "/nowhere" })).statusCode).toBe(404);
    expect(seen.map(({ url, status }) => ({ url, status }))).toEqual([
      { url: "/x", status: 200 },
      { url: "/nowhere", status: 404 },
    ]);
    for (const { ms } of seen) expect(ms).toBeGreaterThanOrEqual(0);
    await app.close();
  });

  it("when what it calls throws, then the answer stands and the error is logged as the request's", async () => {
    const { app, lines } = setUp(() => {
      throw new Error("counting broke");
    });
    expect((await app.inject({ method: "GET", url: "/x" })).statusCode).toBe(200);
    const failed = lines.map((line) => JSON.parse(line)).filter((e) => e.msg === "request failed");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ level: 50, err: { message: "counting broke" } });
    expect(failed[0].reqId).toEqual(expect.any(String));
    await app.close();
  });
});
