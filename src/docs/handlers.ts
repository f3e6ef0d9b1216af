// The documentation operations (tag `documentation`): the document as JSON and YAML, and the
// interactive reference.
import type { FastifyInstance } from "fastify";
import type { OperationResponse } from "../http/responses.ts";
import type { OperationHandler } from "../openapi/operation-types.ts";
import { docsHandlers } from "./docs-ui.ts";
import { type PublishedOptions, publishedDocument, serverUrl } from "./published-document.ts";

type OpenApiJson = Extract<OperationResponse<"getOpenApiJson">, { status: 200 }>["body"];

// Where `npm start` listens by default; only used by an app that is not listening (inject).
const DEFAULT_SERVER_URL = "http://127.0.0.1:8080";

export function documentationHandlers(
  app: FastifyInstance,
  publicUrl: string | undefined,
  options: PublishedOptions,
): {
  getOpenApiJson: OperationHandler<"getOpenApiJson">;
  getOpenApiYaml: OperationHandler<"getOpenApiYaml">;
  getDocs: OperationHandler<"getDocs">;
  getDocsAsset: OperationHandler<"getDocsAsset">;
} {
  const document = publishedDocument(options);
  const url = () => serverUrl(publicUrl, app.server.address(), DEFAULT_SERVER_URL);
  return {
    getOpenApiJson: async () => ({
      status: 200,
      // The YAML parsed: the schema's shape by construction.
      body: document.json(url()) as unknown as OpenApiJson,
    }),
    getOpenApiYaml: async () => ({
      status: 200,
      body: document.yaml(url()),
      contentType: "application/yaml; charset=utf-8",
    }),
    ...docsHandlers(publicUrl),
  };
}
