// GET /plants: a page of stored plants in ascending id order, cut by id (keyset), with a
// Link to the next page whenever this one is full.
import type { OperationHandler } from "../openapi/operation-types.ts";
import type { HandlerDeps } from "./deps.ts";

export function listPlants({ store, publicUrl }: HandlerDeps): OperationHandler<"listPlants"> {
  return async ({ query: { after, limit } }, context) => {
    const plants = await store.list({ after, limit });
    const last = plants.at(-1);
    // A full page may be followed by more; the client stops at the first page without next.
    // Relative to this server unless PLANTSTORE_PUBLIC_URL says where clients reach it.
    if (plants.length < limit || last === undefined) return { status: 200, body: plants };
    const next = `${publicUrl ?? ""}${context.operation.path}?after=${last.id}&limit=${limit}`;
    return { status: 200, body: plants, headers: { link: `<${next}>; rel="next"` } };
  };
}
