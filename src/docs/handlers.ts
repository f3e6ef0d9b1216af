// The documentation operations (tag `documentation`): the document as JSON and YAML, and the
// interactive reference.
import type { FastifyInstance } from "fastify";
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import { JSON_CONTENT_TYPE } from "../openapi/responses.ts";
import { docsHandlers } from "./docs-ui.ts";
import {
  namesTag,
  type PublishedOptions,
  publishedDocument,
  serverUrl,
} from "./published-document.ts";

// Where `npm start` listens by default; only used by an app that is not listening (inject).
export const DEFAULT_SERVER_URL = "http://127.0.0.1:8080";

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
  const published = () =>
    document.at(serverUrl(publicUrl, app.server.address(), DEFAULT_SERVER_URL));
  return {
    getOpenApiJson: async ({ header }): Answer<"getOpenApiJson"> => {
      const { json, jsonTag } = await published();
      if (namesTag(header["If-None-Match"], jsonTag)) {
        return { status: 304, headers: { etag: jsonTag } };
      }
      // The YAML parsed, written once: the schema's shape by construction.
      return {
        status: 200,
        body: json,
        contentType: JSON_CONTENT_TYPE,
        headers: { etag: jsonTag },
      };
    },
    getOpenApiYaml: async ({ header }): Answer<"getOpenApiYaml"> => {
      const { yaml, yamlTag } = await published();
      if (namesTag(header["If-None-Match"], yamlTag)) {
        return { status: 304, headers: { etag: yamlTag } };
      }
      return {
        status: 200,
        body: yaml,
        contentType: "application/yaml; charset=utf-8",
        headers: { etag: yamlTag },
      };
    },
    ...docsHandlers(publicUrl),
  };
}
