// A deployment in the test's own process whose every answer the test scripts: it serves a
// document of the test's at /openapi.json and keeps each request it is sent, so a conformance
// run's requests and findings can be asserted exactly, in milliseconds.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ScriptedAnswer {
  status: number;
  /** JSON unless `type` says otherwise; undefined for a bodiless answer. */
  body?: unknown;
  /** The content type of a text body. */
  type?: string;
  headers?: Record<string, string>;
}

/** The answer to a request, or undefined to leave it to the next script (a 404 at the end). */
export type Script = (request: SeenRequest) => ScriptedAnswer | undefined;

/**
 * A deployment for the tests of one file: `serve` sets the document it publishes and the script
 * it answers with; `seen` is every request since the last test started.
 */
export function useScriptedDeployment() {
  let server: Server | undefined;
  let baseUrl = "";
  let published: unknown = {};
  let script: Script = () => undefined;
  const seen: SeenRequest[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const got: SeenRequest = {
          method: request.method ?? "",
          url: request.url ?? "",
          headers: request.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        };
        seen.push(got);
        const answer = script(got) ??
          (got.url === "/openapi.json" ? { status: 200, body: published } : undefined) ?? {
            status: 404,
            body: { message: `nothing at ${got.url}` },
          };
        const text =
          answer.body === undefined
            ? undefined
            : typeof answer.body === "string" && answer.type !== undefined
              ? answer.body
              : JSON.stringify(answer.body);
        response.writeHead(answer.status, {
          ...(text === undefined ? {} : { "content-type": answer.type ?? "application/json" }),
          ...answer.headers,
        });
        response.end(text);
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });
  beforeEach(() => {
    seen.length = 0;
  });

  return {
    url: () => baseUrl,
    seen,
    /** Publishes `document` and answers with the first of `scripts` that answers. */
    serve(document: unknown, ...scripts: Script[]) {
      published = document;
      script = (request) => {
        for (const each of scripts) {
          const answer = each(request);
          if (answer !== undefined) return answer;
        }
        return undefined;
      };
    },
  };
}
