// What the compiler refuses in a handler's answer (checked by `npm run typecheck`, which
// compiles test/ too: each @ts-expect-error below must meet its error, or the check fails).
import { describe, expect, it } from "vitest";
import type { Answer, OperationHandler } from "../../src/openapi/operation-types.ts";

const extraProperty: OperationHandler<"getPlant"> = async ({
  path: { id },
}): Answer<"getPlant"> => ({
  status: 200,
  body: {
    id,
    name: "Fern",
    // @ts-expect-error StoredPlant has no `color`: it would be dropped on the wire unseen
    color: "red",
  },
});

const undocumentedStatus: OperationHandler<"getPlant"> = async ({
  path: { id },
}): Answer<"getPlant"> => ({
  // @ts-expect-error 201 is not among getPlant's answers (the error lists those that are)
  status: 201,
  body: { id, name: "Fern" },
});

const undocumentedHeader: OperationHandler<"getPlant"> = async ({
  path: { id },
}): Answer<"getPlant"> => ({
  status: 200,
  body: { id, name: "Fern" },
  // @ts-expect-error getPlant's 200 documents RateLimit headers, not ETag
  headers: { etag: '"x"' },
});

const documentedHeader: OperationHandler<"listPlants"> = async (): Answer<"listPlants"> => ({
  status: 200,
  body: [],
  headers: { link: '</plants?after=1&limit=1>; rel="next"' },
});

describe("a handler's answer, as the compiler checks it", () => {
  it("when it has an extra property, an undocumented status or an undocumented header, then it does not compile; a documented header does", () => {
    const handlers = [extraProperty, undocumentedStatus, undocumentedHeader, documentedHeader];
    expect(handlers.every((handler) => typeof handler === "function")).toBe(true);
  });
});
