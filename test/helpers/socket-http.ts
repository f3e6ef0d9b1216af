// HTTP over a real socket: fetch with bounded time, raw node:net requests for what fetch
// cannot express, and the checks every non-200 answer must pass.
import { connect } from "node:net";
import { expect } from "vitest";
import { AUTH } from "./app.ts";
import { assertDocumented } from "./contract.ts";
import type { Plant } from "./plants.ts";

export const REQUEST_TIMEOUT_MS = 10_000;

export interface Answer {
  status: number;
  /** Lower-case header names. */
  headers: Readonly<Record<string, string>>;
  body: string;
}

/** POST /plants with the test token and a JSON content type; never waits longer than the bound. */
export async function post(
  baseUrl: string,
  body: string | Uint8Array | ReadableStream<Uint8Array>,
  headers: Readonly<Record<string, string>> = { "content-type": "application/json" },
  timeoutMs: number = REQUEST_TIMEOUT_MS,
): Promise<Answer> {
  const init: RequestInit & { duplex?: "half" } = {
    method: "POST",
    headers: { ...AUTH, ...headers },
    body,
    signal: AbortSignal.timeout(timeoutMs),
  };
  if (body instanceof ReadableStream) init.duplex = "half";
  const response = await fetch(`${baseUrl}/plants`, init);
  const text = await response.text();
  const answer = {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: text,
  };
  assertDocumented({ method: "POST", url: "/plants", ...answer });
  return answer;
}

export interface RawAnswer extends Answer {
  /** Everything the server sent, as latin1 text (so every byte survives). */
  raw: string;
}

/**
 * Bytes to write, or something to wait for before writing the next bytes; it is given what
 * has been received so far (latin1), e.g. to wait for a "100 Continue".
 */
export type RawStep = string | Buffer | ((received: () => string) => Promise<void>);

/**
 * Writes `steps` to a fresh TCP connection, one after another, and reads one HTTP
 * response (Content-Length, chunked, or until close). A write error after the full
 * response has arrived (the server closed early on a request it rejected) is ignored.
 */
export async function rawRequest(
  baseUrl: string,
  steps: readonly RawStep[],
  timeoutMs: number = REQUEST_TIMEOUT_MS,
): Promise<RawAnswer> {
  const [answer] = await rawExchange(baseUrl, steps, 1, timeoutMs);
  if (answer === undefined) throw new Error("no HTTP response");
  assertDocumented({ ...requestLine(steps), ...answer });
  return answer;
}

/** The method and target of the request the steps begin with, when they begin with one. */
function requestLine(steps: readonly RawStep[]): { method?: string; url?: string } {
  const first = steps[0];
  const text =
    typeof first === "string" ? first : Buffer.isBuffer(first) ? first.toString("latin1") : "";
  const match = /^([A-Z]+) (\S+) HTTP\/1\.[01]\r\n/.exec(text);
  const [, method, target] = match ?? [];
  if (method === undefined || target === undefined) return {};
  // An absolute-form target (from a proxy) routes as its path.
  return { method, url: target.replace(/^https?:\/\/[^/]*/i, "") || "/" };
}

/**
 * Like rawRequest, for `count` responses on one connection (pipelined requests). Rejects,
 * with everything received, unless `count` complete responses arrive within `timeoutMs`.
 */
export function rawExchange(
  baseUrl: string,
  steps: readonly RawStep[],
  count: number,
  timeoutMs: number = REQUEST_TIMEOUT_MS,
): Promise<RawAnswer[]> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise<RawAnswer[]>((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    let received = Buffer.alloc(0);
    let done = false;
    const finish = (error?: Error): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const answers = parseResponses(received, true);
      if (answers.length >= count) resolve(answers.slice(0, count));
      else
        reject(
          new Error(
            `${answers.length} of ${count} complete HTTP responses (${error?.message ?? "closed"}); got: ${JSON.stringify(received.toString("latin1"))}`,
          ),
        );
    };
    const timer = setTimeout(() => finish(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    socket.on("data", (data: Buffer) => {
      received = Buffer.concat([received, data]);
      if (parseResponses(received, false).length >= count) finish();
    });
    socket.on("end", () => finish());
    socket.on("close", () => finish());
    socket.on("error", (error) => finish(error));
    socket.on("connect", () => {
      void (async () => {
        for (const step of steps) {
          if (done || socket.destroyed) return;
          if (typeof step === "function") {
            await step(() => received.toString("latin1")).catch((error: unknown) =>
              finish(error instanceof Error ? error : new Error(String(error))),
            );
            continue;
          }
          // Wait for each write to be flushed so the chunks really arrive separately.
          await new Promise<void>((flushed) => socket.write(step, () => flushed()));
        }
      })();
    });
  });
}

/**
 * The complete final responses at the start of `data`, skipping interim ones (100 Continue);
 * `closed` completes a response without a length.
 */
function parseResponses(data: Buffer, closed: boolean): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let at = 0;
  for (;;) {
    const parsed = parseResponse(data.subarray(at), closed);
    if (parsed === undefined) return answers;
    if (!isInterim(parsed.answer.status)) answers.push(parsed.answer);
    at += parsed.length;
  }
}

/** 1xx other than 101: a head with no body, followed by the final response (RFC 9110 §15.2). */
const isInterim = (status: number): boolean => status >= 100 && status < 200 && status !== 101;

/** The response at the start of `data` and its length in bytes, if it is complete. */
function parseResponse(
  data: Buffer,
  closed: boolean,
): { answer: RawAnswer; length: number } | undefined {
  const headEnd = data.indexOf("\r\n\r\n");
  if (headEnd < 0) return undefined;
  const [statusLine = "", ...headerLines] = data
    .subarray(0, headEnd)
    .toString("latin1")
    .split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? Number.NaN);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const bodyStart = headEnd + 4;
  if (isInterim(status)) {
    const raw = data.subarray(0, bodyStart).toString("latin1");
    return { answer: { status, headers, body: "", raw }, length: bodyStart };
  }
  const rest = data.subarray(bodyStart);
  let body: Buffer;
  let bodyLength: number;
  const declared = headers["content-length"];
  if (status === 204 || status === 304) {
    // No body, whatever the headers say (RFC 9110 §15.3.5, §15.4.5).
    bodyLength = 0;
    body = rest.subarray(0, 0);
  } else if (declared !== undefined) {
    if (rest.length < Number(declared)) return undefined;
    bodyLength = Number(declared);
    body = rest.subarray(0, bodyLength);
  } else if (headers["transfer-encoding"]?.toLowerCase() === "chunked") {
    const chunked = dechunk(rest);
    if (chunked === undefined) return undefined;
    ({ body, length: bodyLength } = chunked);
  } else {
    if (!closed) return undefined;
    bodyLength = rest.length;
    body = rest;
  }
  const length = bodyStart + bodyLength;
  return {
    answer: {
      status,
      headers,
      body: body.toString("utf8"),
      raw: data.subarray(0, length).toString("latin1"),
    },
    length,
  };
}

/** A chunked body's content and encoded length, if its last chunk has arrived. */
function dechunk(data: Buffer): { body: Buffer; length: number } | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (Number.isNaN(size)) return undefined;
    const start = lineEnd + 2;
    if (size === 0) {
      // No trailers are expected: the last chunk ends with an empty line.
      return data.length < start + 2
        ? undefined
        : { body: Buffer.concat(parts), length: start + 2 };
    }
    if (data.length < start + size + 2) return undefined;
    parts.push(data.subarray(start, start + size));
    at = start + size + 2;
  }
}

/** The request head of a POST /plants with the test token, for raw sockets. */
export function rawHead(host: string, headers: Readonly<Record<string, string>>): string {
  const lines = [
    "POST /plants HTTP/1.1",
    `Host: ${host}`,
    `Authorization: ${AUTH.authorization}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join("\r\n")}\r\n\r\n`;
}

export interface ErrorBody {
  error: number;
  message: string;
}

/**
 * Every answer other than 200: the contract's Error body with `error` equal to the
 * status, a non-empty message, a JSON content type, and nothing internal leaked.
 */
export function expectErrorAnswer(answer: Answer, status: number): ErrorBody {
  expect(answer.status, answer.body).toBe(status);
  expect(mediaType(answer.headers["content-type"])).toBe("application/json");
  const body: unknown = JSON.parse(answer.body);
  expect(body).toStrictEqual({ error: status, message: expect.any(String) });
  const error = body as ErrorBody;
  expect(error.message.trim()).not.toBe("");
  expect(answer.body).not.toMatch(/"stack"|\n\s+at |node_modules|\/src\//);
  return error;
}

/** A 200: the content type the server promises and exactly the Plant, nothing more. */
export function expectPlantAnswer(answer: Answer, plant: Plant): void {
  expect(answer.status, answer.body).toBe(200);
  expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
  expect(JSON.parse(answer.body)).toStrictEqual(plant);
}

export function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(";")[0]?.trim().toLowerCase();
}

/** A fetch that gave up at its time bound, as opposed to failing below HTTP (refused, reset). */
export function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** Resolves once a new TCP connection to `baseUrl` is refused: the listener is closed. */
export async function waitUntilRefused(baseUrl: string, timeoutMs = 10_000): Promise<void> {
  const { hostname, port } = new URL(baseUrl);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: hostname, port: Number(port) });
      socket.once("connect", () => {
        socket.destroy();
        resolve(false);
      });
      socket.once("error", () => resolve(true));
    });
    if (refused) return;
    if (Date.now() > deadline)
      throw new Error(`${baseUrl} still accepts connections after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
