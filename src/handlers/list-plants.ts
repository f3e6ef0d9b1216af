// GET /plants: a page of stored plants in ascending id order, cut by id (keyset), with a Link
// to the next page whenever this one is full — by count, or by the bytes of its names and tags,
// which bound an answer's size whatever the plants hold.
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";
import { nextPageLink } from "./next-link.ts";

/** Most UTF-8 bytes of names and tags on one page (documented in openapi/plants.yaml). */
export const PAGE_TEXT_BYTES = 1024 * 1024;

export function listPlants({ store, publicUrl }: HandlerDeps): OperationHandler<"listPlants"> {
  return async ({ query: { after, limit } }, context): Answer<"listPlants"> => {
    const page = { after, limit, maxTextBytes: PAGE_TEXT_BYTES };
    const { plants, full } = await store.plants.list(page);
    // A full page may be followed by more; the client stops at the first page without next.
    const headers = full
      ? nextPageLink({ template: context.operation.path }, publicUrl, plants.at(-1)?.id, limit)
      : undefined;
    return headers === undefined
      ? { status: 200, body: plants }
      : { status: 200, body: plants, headers };
  };
}
