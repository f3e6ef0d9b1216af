// The API as the build compiled it from openapi/plants.yaml (scripts/compile-api.ts, run by
// `npm run build:server`, `npm start` and `npm ci`): the dereferenced document, each operation's
// request validators and each JSON answer's serializer, as code, so that a start parses no YAML
// and compiles no schema. A build made from another YAML than the one beside it is refused.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Document } from "openapi-backend";
import type { ApiData } from "./data.ts";
import { dereferencedFromJson } from "./dereferenced-json.ts";
import { documentPath } from "./document.ts";
import { type OperationValidators, validatorFormats } from "./validators.ts";

export const compiledApiPath = new URL("../../dist/api/compiled.mjs", import.meta.url);

/** Writes one JSON answer of a declared status, as Fastify's route serializers do. */
export type Serializer = (data: unknown) => string;

export interface CompiledApi {
  /** The document as dereferenced by the build. */
  document: Document;
  /** What it declares of the data (data.ts). */
  data: ApiData;
  /** By operationId. */
  validators: Record<string, OperationValidators>;
  /** By operationId, then by status as the document keys it. */
  serializers: Record<string, Record<string, Serializer>>;
}

/** What scripts/compile-api.ts writes. */
export interface CompiledModule {
  documentSha256: string;
  /** dereferenced-json.ts's text of the dereferenced document. */
  document: string;
  data: ApiData;
  validators(formats: Record<string, unknown>): Record<string, OperationValidators>;
  serializers(): Record<string, Record<string, Serializer>>;
}

/** The build is missing or was made from another document: start-up stops, saying so. */
export class StaleBuildError extends Error {
  override name = "StaleBuildError";
}

/** The digest a build is made for: of the YAML's bytes. */
export const documentDigest = (bytes: Uint8Array | string): string =>
  createHash("sha256").update(bytes).digest("hex");

export async function loadCompiledApi(): Promise<CompiledApi> {
  const compiled = await compiledModule();
  return {
    document: dereferencedFromJson(compiled.document),
    data: compiled.data,
    validators: compiled.validators(validatorFormats()),
    serializers: compiled.serializers(),
  };
}

/** What the built document declares of the data: for the store, opened before the app. */
export async function loadCompiledData(): Promise<ApiData> {
  return (await compiledModule()).data;
}

async function compiledModule(): Promise<CompiledModule> {
  let compiled: CompiledModule;
  try {
    compiled = (await import(compiledApiPath.href)) as CompiledModule;
  } catch (error) {
    if ((error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND") throw error;
    throw new StaleBuildError(
      "the API is not compiled (dist/api/compiled.mjs is missing): run `npm run build:server`",
    );
  }
  if (compiled.documentSha256 !== documentDigest(readFileSync(documentPath))) {
    throw new StaleBuildError(
      "openapi/plants.yaml has changed since the server was built: run `npm run build:server` (`npm start` does)",
    );
  }
  return compiled;
}
