// GET /openapi.json and /openapi.yaml: openapi/plants.yaml as written, with `servers` naming
// this server, so a portal or a client generator can take it as is. What depends on how the
// server is configured says what this one does: without PLANTSTORE_METRICS_TOKEN, GET /metrics
// is published as open (no security, no 401), as it is served.
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { parseDocument } from "yaml";
import { documentPath } from "../openapi/document.ts";

export interface PublishedDocument {
  /** The document with `servers` set to `serverUrl`, as a plain object (JSON). */
  json(serverUrl: string): Record<string, unknown>;
  /** The same as YAML text, comments kept. */
  yaml(serverUrl: string): string;
}

export interface PublishedOptions {
  /** PLANTSTORE_METRICS_TOKEN is unset: GET /metrics needs no credentials. */
  metricsOpen: boolean;
}

export function publishedDocument({ metricsOpen }: PublishedOptions): PublishedDocument {
  const text = readFileSync(documentPath, "utf8");
  // One server URL per process in practice; remember the last one rather than re-render.
  let last: { url: string; json: Record<string, unknown>; yaml: string } | undefined;
  const render = (url: string) => {
    if (last?.url === url) return last;
    const document = parseDocument(text);
    document.set("servers", [{ url, description: "This server" }]);
    if (metricsOpen) {
      document.setIn(["paths", "/metrics", "get", "security"], []);
      document.deleteIn(["paths", "/metrics", "get", "responses", "401"]);
      // Nobody is counted against a caller's limit where nobody is authenticated.
      for (const status of ["200", "400"]) {
        document.deleteIn(["paths", "/metrics", "get", "responses", status, "headers"]);
      }
    }
    last = { url, json: document.toJS() as Record<string, unknown>, yaml: document.toString() };
    return last;
  };
  return { json: (url) => render(url).json, yaml: (url) => render(url).yaml };
}

/**
 * The base URL clients should use: PLANTSTORE_PUBLIC_URL when set, else the address the server
 * listens on (loopback for a wildcard address), else `fallback` (not listening, e.g. inject).
 */
export function serverUrl(
  publicUrl: string | undefined,
  address: AddressInfo | string | null,
  fallback: string,
): string {
  if (publicUrl !== undefined) return publicUrl;
  if (address === null || typeof address === "string") return fallback;
  const host =
    address.address === "0.0.0.0"
      ? "127.0.0.1"
      : address.address === "::"
        ? "::1"
        : address.address;
  return `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`;
}
