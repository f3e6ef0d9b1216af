// GET /openapi.json and /openapi.yaml (and `npm run bundle`): openapi/plants.yaml as written,
// with `servers` naming this server, so a portal or a client generator can take it as is. What
// depends on how the server is configured says what this one does: the limits and deadlines
// its descriptions state (`{{NAME}}`, see Setting.published) are the ones in force, and without
// a metrics token GET /metrics is published as open (no security, no 401), as it is served.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import type { Document } from "yaml";
import { documentPath } from "../openapi/document.ts";
import { asJsonText, type JsonText } from "../openapi/responses.ts";

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
  at(serverUrl: string): Promise<Published>;
}

export interface PublishedOptions {
  /** No metrics token is configured: GET /metrics needs no credentials. */
  metricsOpen: boolean;
  /** What each `{{NAME}}` in a description or summary reads as on this server. */
  values: Readonly<Record<string, string>>;
}

/**
 * Read from the YAML on first use, not at start (the build has rendered it once, so a `{{NAME}}`
 * without a value stopped the build).
 */
export function publishedDocument({ metricsOpen, values }: PublishedOptions): PublishedDocument {
  let configured: Promise<Document> | undefined;
  // One server URL per process in practice; remember the last one rather than re-render.
  let last: (Published & { url: string }) | undefined;
  const render = async (url: string): Promise<Published> => {
    configured ??= configure(metricsOpen, values);
    const base = await configured;
    if (last?.url === url) return last;
    const document = base.clone();
    document.set("servers", [{ url, description: "This server" }]);
    // A relative link (the changelog) is one of this server's files: made absolute here, since
    // a reader resolves it against the document's own address, which a portal's copy has not.
    const link = document.getIn(["externalDocs", "url"]);
    if (typeof link === "string" && !URL.canParse(link)) {
      document.setIn(
        ["externalDocs", "url"],
        new URL(link, url.endsWith("/") ? url : `${url}/`).href,
      );
    }
    const json = asJsonText(document.toJS());
    const yaml = document.toString();
    last = { url, json, yaml, jsonTag: entityTag(json), yamlTag: entityTag(yaml) };
    return last;
  };
  return { at: render };
}

async function configure(
  metricsOpen: boolean,
  values: Readonly<Record<string, string>>,
): Promise<Document> {
  // The package is CommonJS: its exports are the default export, bundled or not.
  const { default: yaml } = await import("yaml");
  const configured = yaml.parseDocument(readFileSync(documentPath, "utf8"));
  if (metricsOpen) {
    configured.setIn(["paths", "/metrics", "get", "security"], []);
    configured.deleteIn(["paths", "/metrics", "get", "responses", "401"]);
    // Nobody is counted against a caller's limit where nobody is authenticated.
    for (const status of ["200", "400"]) {
      configured.deleteIn(["paths", "/metrics", "get", "responses", status, "headers"]);
    }
  }
  fillDescriptions(yaml, configured, values);
  return configured;
}

const PLACEHOLDER = /\{\{([A-Z0-9_]+)\}\}/g;

/** Every `{{NAME}}` in a description or summary, replaced by its value. */
function fillDescriptions(
  { visit, isScalar }: typeof import("yaml"),
  document: Document,
  values: Readonly<Record<string, string>>,
): void {
  visit(document, {
    Pair(_, pair) {
      const { key, value } = pair;
      if (!isScalar(key) || (key.value !== "description" && key.value !== "summary")) return;
      if (!isScalar(value) || typeof value.value !== "string") return;
      value.value = value.value.replace(PLACEHOLDER, (_match, name: string) => {
        const text = values[name];
        if (text === undefined) {
          throw new Error(`openapi/plants.yaml names {{${name}}}, which is no published setting`);
        }
        return text;
      });
    },
  });
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
