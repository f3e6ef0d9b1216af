// GET /openapi.json and /openapi.yaml: openapi/plants.yaml as written, with `servers` naming
// this server, so a portal or a client generator can take it as is. What depends on how the
// server is configured says what this one does: without PLANTSTORE_METRICS_TOKEN, GET /metrics
// is published as open (no security, no 401), as it is served.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { parseDocument } from "yaml";
import { asJsonText, type JsonText } from "../http/responses.ts";
import { documentPath } from "../openapi/document.ts";

/** The document with `servers` naming one server, made once: as JSON, as YAML, and its tags. */
export interface Published {
  json: JsonText;
  /** The YAML text, comments kept. */
  yaml: string;
  jsonTag: string;
  yamlTag: string;
}

export interface PublishedDocument {
  /** The document with `servers` set to `serverUrl`. */
  at(serverUrl: string): Published;
}

export interface PublishedOptions {
  /** PLANTSTORE_METRICS_TOKEN is unset: GET /metrics needs no credentials. */
  metricsOpen: boolean;
}

export function publishedDocument({ metricsOpen }: PublishedOptions): PublishedDocument {
  const text = readFileSync(documentPath, "utf8");
  // One server URL per process in practice; remember the last one rather than re-render.
  let last: (Published & { url: string }) | undefined;
  const render = (url: string): Published => {
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
    const json = asJsonText(document.toJS());
    const yaml = document.toString();
    last = { url, json, yaml, jsonTag: entityTag(json), yamlTag: entityTag(yaml) };
    return last;
  };
  return { at: render };
}

/** A strong entity tag for the text (RFC 9110 §8.8.3): a digest of its bytes. */
const entityTag = (text: string): string =>
  `"sha256-${createHash("sha256").update(text).digest("base64url").slice(0, 22)}"`;

/**
 * Whether an If-None-Match field names `tag` (or is `*`): a list of tags, compared weakly
 * (RFC 9110 §13.1.2), so `W/"x"` names `"x"` too. Linear: split on commas, no patterns.
 */
export function namesTag(ifNoneMatch: string | undefined, tag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch
    .split(",")
    .map((item) => item.trim())
    .some((item) => item === "*" || (item.startsWith("W/") ? item.slice(2) : item) === tag);
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
