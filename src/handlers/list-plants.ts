// GET /plants: a page of stored plants in ascending id order, cut by id (keyset), with a Link
// to the next page whenever this one is full — by count, or by the bytes of its names and tags,
// which bound an answer's size whatever the plants hold.
import type { Answer, OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";

/** Most UTF-8 bytes of names and tags on one page (documented in openapi/plants.yaml). */
export const PAGE_TEXT_BYTES = 1024 * 1024;

export function listPlants({ store, publicUrl }: HandlerDeps): OperationHandler<"listPlants"> {
  return async ({ query: { after, limit } }, context): Answer<"listPlants"> => {
    const { plants, full } = await store.list({ after, limit, maxTextBytes: PAGE_TEXT_BYTES });
    const last = plants.at(-1);
    // A full page may be followed by more; the client stops at the first page without next.
    // Relative to this server unless PLANTSTORE_PUBLIC_URL says where clients reach it.
    if (!full || last === undefined) return { status: 200, body: plants };
    const next = `${publicUrl ?? ""}${context.operation.path}?after=${last.id}&limit=${limit}`;
    return { status: 200, body: plants, headers: { link: `<${next}>; rel="next"` } };
  };
}
