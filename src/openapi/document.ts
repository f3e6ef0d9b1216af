// Reads openapi/plants.yaml, the single description of the API.
import { readFileSync } from "node:fs";
import type { Document } from "openapi-backend";
import { parse } from "yaml";

export const documentPath = new URL("../../openapi/plants.yaml", import.meta.url);

export function loadDocument(): Document {
  return parse(readFileSync(documentPath, "utf8")) as Document;
}
