// The request's logger writes its completion line without pino: the line must be the one pino
// writes for the same child (time aside), and anything it cannot write as pino would is left to
// pino.
import type { FastifyBaseLogger } from "fastify";
import { describe, expect, it } from "vitest";
import { asMembers } from "../../src/http/request-log.ts";
import { jsonString, pinoBase, RequestLogger } from "../../src/http/request-logger.ts";
import { createRootLogger } from "../../src/http/root-logger.ts";

function setUp(level = "info") {
  const lines: string[] = [];
  const stream = { write: (line: string) => void lines.push(line) };
  const parent: FastifyBaseLogger = createRootLogger(level, stream);
  const logger = (bindings: Record<string, unknown> = { reqId: "r-1" }, options = {}) =>
    new RequestLogger(parent, bindings, options, { write: stream.write, base: pinoBase() });
  return { lines, logger };
}

const withoutTime = (line: string | undefined) => line?.replace(/"time":\d+/, '"time":0');

const FIELDS = [
  { method: "POST", url: "/plants", status: 200, ms: 1.2 },
  { method: "GET", url: '/plants/"quoted"\\back\u0001\u2028ünï', status: 404, ms: 0 },
  { method: "DELETE", url: "/plants/1?a=…", status: 503, ms: 12_345.6 },
  { method: "GET", url: "/", status: 200, ms: Number.NaN },
];

describe("RequestLogger", () => {
  it.each(FIELDS)(
    "when it writes a line itself, then the line is the one pino writes (%o)",
    (fields) => {
      const { lines, logger } = setUp();
      const bindings = { reqId: 'id "with" quotes' };
      const members = asMembers(fields);
      expect(members).toBeDefined();
      expect(logger(bindings).wroteOwn("info", members ?? "", "request completed")).toBe(true);
      logger(bindings).real().info(fields, "request completed");
      expect(lines).toHaveLength(2);
      expect(withoutTime(lines[0])).toBe(withoutTime(lines[1]));
      expect(JSON.parse(lines[0] ?? "")).toMatchObject({
        method: fields.method,
        reqId: bindings.reqId,
        level: 30,
      });
    },
  );

  it("when its level is above the line's, then nothing is written and nothing is left for pino", () => {
    const { lines, logger } = setUp("warn");
    expect(logger().wroteOwn("info", ',"status":200', "request completed")).toBe(true);
    const raised = logger();
    raised.level = "error";
    expect(raised.wroteOwn("warn", ',"status":200', "x")).toBe(true);
    expect(lines).toEqual([]);
  });

  it("when the child has options or a binding is not a string, then pino writes it", () => {
    const { lines, logger } = setUp();
    expect(logger({ reqId: "r" }, { level: "info" }).wroteOwn("info", "", "m")).toBe(false);
    expect(logger({ reqId: { nested: 1 } }).wroteOwn("info", "", "m")).toBe(false);
    expect(lines).toEqual([]);
  });

  it("when there is no stream of its own, then it leaves every line to pino", () => {
    const parent = createRootLogger("info", { write: () => {} });
    const logger = new RequestLogger(parent, { reqId: "r" }, {}, undefined);
    expect(logger.wroteOwn("info", ',"status":200', "m")).toBe(false);
  });

  it("when something is logged through it, then pino's child writes it with the request's bindings", () => {
    const { lines, logger } = setUp("debug");
    const log = logger({ reqId: "r-9" });
    log.debug({ detail: 1 }, "debugging");
    log.warn("plain");
    log.trace("below the level");
    log.child({ auth: "x" }).info("from a child");
    expect(lines.map((line) => JSON.parse(line))).toMatchObject([
      { level: 20, reqId: "r-9", detail: 1, msg: "debugging" },
      { level: 40, reqId: "r-9", msg: "plain" },
      { level: 30, reqId: "r-9", auth: "x", msg: "from a child" },
    ]);
  });

  it("when its level is changed, then only this request's logger changes", () => {
    const { logger } = setUp();
    const first = logger();
    first.level = "error";
    expect(first.level).toBe("error");
    expect(logger().level).toBe("info");
  });

  it("when text has quotes, backslashes or control characters, then jsonString is JSON.stringify; with a surrogate, it leaves the text to pino", () => {
    const texts = ["", "plain", 'a"b', "a\\b", "\u0000\u001f\u007f", "\u2028\u2029", "é…"];
    for (let code = 0; code < 0x10000; code += 7) texts.push(`a${String.fromCharCode(code)}b`);
    for (const text of texts) {
      const surrogate = /[\ud800-\udfff]/.test(text);
      expect(jsonString(text)).toBe(surrogate ? undefined : JSON.stringify(text));
    }
    for (const text of ["🌱", "\ud800", "x\udc00y"]) expect(jsonString(text)).toBeUndefined();
    expect(asMembers({ method: "GET", url: "/\ud800", status: 200, ms: 1 })).toBeUndefined();
  });

  it("when a route has its own level, then the request's logger has it before pino's child exists", () => {
    const { logger } = setUp();
    expect(logger({ reqId: "r" }, { level: "warn" }).level).toBe("warn");
  });

  it("when pino's other members are asked for, then the request's logger answers as its child", () => {
    const { logger } = setUp();
    const log = logger({ reqId: "r-2" });
    expect(log.isLevelEnabled("info")).toBe(true);
    expect(log.isLevelEnabled("debug")).toBe(false);
    expect(log.bindings()).toEqual({ reqId: "r-2" });
  });
});
