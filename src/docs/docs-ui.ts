// GET /docs and /docs/{asset}: Swagger UI from the swagger-ui-dist package plus our init.js,
// served by this server alone (no CDN), under a Content-Security-Policy that keeps it so.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import { errorResponse } from "../openapi/responses.ts";

const SWAGGER_UI_DIR = dirname(
  createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"),
);

const CSS = "text/css; charset=utf-8";
const JS = "text/javascript; charset=utf-8";

/** Every file /docs/{asset} serves; any other name is a 404, so nothing else can be read. */
const ASSETS: Readonly<Record<string, { path: string; contentType: typeof CSS | typeof JS }>> = {
  "swagger-ui.css": { path: join(SWAGGER_UI_DIR, "swagger-ui.css"), contentType: CSS },
  "swagger-ui-bundle.js": { path: join(SWAGGER_UI_DIR, "swagger-ui-bundle.js"), contentType: JS },
  // From the project root, so that it resolves from the bundle in dist/server/ too.
  "init.js": {
    path: fileURLToPath(new URL("../../src/docs/init.js", import.meta.url)),
    contentType: JS,
  },
};

// Relative URLs, so that the page also works behind a proxy that adds a path prefix.
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plant Store API</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/init.js"></script>
</body>
</html>
`;

/**
 * Only this server's own files: no inline script or style, no frames or plugins (the browser
 * test fails on any console error, so on anything this refuses). `connectTo` is the public
 * URL's origin, for when "Try it out" sends requests to another origin than the page's.
 */
export function docsPolicy(connectTo: string | undefined): string {
  const connect = connectTo === undefined ? "'self'" : `'self' ${connectTo}`;
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function docsHandlers(publicUrl: string | undefined): {
  getDocs: OperationHandler<"getDocs">;
  getDocsAsset: OperationHandler<"getDocsAsset">;
} {
  const headers = {
    "content-security-policy": docsPolicy(
      publicUrl === undefined ? undefined : new URL(publicUrl).origin,
    ),
  };
  // Kept as bytes and sent as they are: every answer shares the one buffer, so many clients
  // downloading (or not reading) the 1.7 MB bundle cost no copy each.
  const cache = new Map<string, Buffer>();
  const read = (path: string): Buffer => {
    let bytes = cache.get(path);
    if (bytes === undefined) {
      bytes = readFileSync(path);
      cache.set(path, bytes);
    }
    return bytes;
  };
  return {
    getDocs: async (): Answer<"getDocs"> => ({
      status: 200,
      body: PAGE,
      contentType: "text/html; charset=utf-8",
      headers,
    }),
    getDocsAsset: async ({ path }): Answer<"getDocsAsset"> => {
      const name = path.asset;
      const asset = Object.hasOwn(ASSETS, name) ? ASSETS[name] : undefined;
      if (asset === undefined) return errorResponse(404, `no documentation asset named ${name}`);
      return {
        status: 200,
        body: read(asset.path),
        contentType: asset.contentType,
        headers: { ...headers, "cache-control": "public, max-age=3600" },
      };
    },
  };
}
