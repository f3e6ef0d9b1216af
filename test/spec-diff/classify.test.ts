// Edits users make to openapi/plants.yaml, each with the class and the version raise it must
// get: the most common ones compatible, every breaking class caught, the response side's
// loosening possibly breaking, and the webhook judged with the roles reversed.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { documentPath } from "../../src/openapi/document.ts";
import type { Bump, Severity } from "../../src/spec-diff/classify.ts";
import { diffDocuments } from "../../src/spec-diff/diff.ts";

type Node = Record<string, unknown>;

const source: unknown = parse(readFileSync(documentPath, "utf8"));

/** The object at a JSON pointer of the document, for an edit to change in place. */
function obj(document: unknown, pointer: string): Node {
  let value = document;
  for (const key of pointer.split("/").slice(1)) {
    value = (value as Node)[key.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  if (typeof value !== "object" || value === null) throw new Error(`no object at ${pointer}`);
  return value as Node;
}
const arr = (document: unknown, pointer: string): unknown[] => {
  const value = obj(document, pointer);
  if (!Array.isArray(value)) throw new Error(`no array at ${pointer}`);
  return value;
};
const props = (d: unknown, schema: string): Node =>
  obj(d, `/components/schemas/${schema}/properties`);
const op = (d: unknown, path: string, method: string): Node =>
  obj(d, `/paths/${path.replaceAll("/", "~1")}/${method}`);
const opAt = (d: unknown, path: string, method: string, pointer: string): Node =>
  obj(d, `/paths/${path.replaceAll("/", "~1")}/${method}${pointer}`);
const opList = (d: unknown, path: string, method: string, pointer: string): unknown[] =>
  arr(d, `/paths/${path.replaceAll("/", "~1")}/${method}${pointer}`);
const HOOK = "/webhooks/~1plant~1webhook/post";
const HOOK_SCHEMA = `${HOOK}/requestBody/content/application~1json/schema`;

// State both sides share, for edits the YAML has no place for yet.
const withRequestEnum = (d: unknown): void => {
  props(d, "PlantPatch")["light"] = { type: "string", enum: ["shade", "sun"] };
};
const withOwnWebhookSchema = (d: unknown): void => {
  obj(d, `${HOOK}/requestBody/content/application~1json`)["schema"] = {
    type: "object",
    required: ["id", "name"],
    properties: {
      id: { type: "integer", format: "int64" },
      name: { type: "string" },
      tag: { type: "string" },
    },
  };
};

interface Edit {
  edit: string;
  before?: (d: unknown) => void;
  after: (d: unknown) => void;
  severity: Severity;
  bump: Bump;
  sentence?: RegExp;
}

const edits: Edit[] = [
  // Compatible: the edits made most.
  {
    edit: "a new optional member in a request",
    after: (d) => {
      props(d, "PlantPatch")["note"] = { type: "string" };
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a new optional member in a response",
    after: (d) => {
      props(d, "WebhookDelivery")["note"] = { type: "string" };
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a new operation",
    after: (d) => {
      obj(d, "/paths/~1plants~1{id}")["put"] = {
        operationId: "replacePlant",
        summary: "Replace a plant",
        responses: { "204": { description: "Replaced." } },
      };
    },
    severity: "compatible",
    bump: "minor",
    sentence: /`replacePlant`: operation added/,
  },
  {
    edit: "a new enum value in a request",
    before: withRequestEnum,
    after: (d) => {
      withRequestEnum(d);
      arr(d, "/components/schemas/PlantPatch/properties/light/enum").push("partial");
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "an operation's description changed",
    after: (d) => {
      op(d, "/plants/{id}", "get")["description"] += "\nMore words.\n";
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "the API's description changed",
    after: (d) => {
      obj(d, "/info")["description"] += "\nMore words.\n";
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "a summary changed",
    after: (d) => {
      op(d, "/plants", "get")["summary"] = "List the plants";
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "a member's description changed",
    after: (d) => {
      obj(props(d, "Plant"), "/tag")["description"] = "A word for the kind of plant";
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "a new optional query parameter",
    after: (d) => {
      opList(d, "/plants", "get", "/parameters").push({
        name: "tag",
        in: "query",
        schema: { type: "string" },
      });
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a new response status",
    after: (d) => {
      opAt(d, "/plants/{id}", "get", "/responses")["410"] = { description: "Gone." };
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a new response header",
    after: (d) => {
      opAt(d, "/plants/{id}", "get", "/responses/200/headers")["X-Plant-Age"] = {
        schema: { type: "integer" },
      };
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a request maxLength raised",
    after: (d) => {
      obj(props(d, "NewWebhookEndpoint"), "/url")["maxLength"] = 4096;
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a required request member made optional",
    after: (d) => {
      obj(d, "/components/schemas/NewWebhookEndpoint")["required"] = [];
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a scope no longer required",
    after: (d) => {
      op(d, "/plants", "post")["x-required-scopes"] = [];
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a request member made nullable",
    after: (d) => {
      obj(props(d, "PlantPatch"), "/name")["type"] = ["string", "null"];
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "an enum value removed from a response",
    after: (d) => {
      obj(props(d, "WebhookDelivery"), "/status")["enum"] = ["delivered", "failed"];
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a new optional member in the webhook's payload",
    before: withOwnWebhookSchema,
    after: (d) => {
      withOwnWebhookSchema(d);
      obj(d, `${HOOK_SCHEMA}/properties`)["light"] = { type: "string" };
    },
    severity: "compatible",
    bump: "minor",
  },
  // Breaking.
  {
    edit: "a path removed",
    after: (d) => {
      delete obj(d, "/paths")["/readyz"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`getReadiness`: operation removed — breaking/,
  },
  {
    edit: "an operation removed",
    after: (d) => {
      delete obj(d, "/paths/~1plants~1{id}")["delete"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`deletePlant`: operation removed — breaking for clients that call it/,
  },
  {
    edit: "a parameter removed",
    after: (d) => {
      opList(d, "/plants", "get", "/parameters").pop();
    },
    severity: "breaking",
    bump: "major",
    sentence: /`listPlants` query parameter `after`: removed — breaking/,
  },
  {
    edit: "a status removed",
    after: (d) => {
      delete opAt(d, "/plants/{id}", "get", "/responses")["404"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`getPlant` 404: status removed — breaking/,
  },
  {
    edit: "a response header removed",
    after: (d) => {
      delete opAt(d, "/openapi.json", "get", "/responses/200/headers")["ETag"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`getOpenApiJson` 200 header `ETag`: header removed — breaking/,
  },
  {
    edit: "a response member removed",
    after: (d) => {
      delete props(d, "Plant")["tag"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /^`getPlant` 200: member `tag` removed — breaking for clients that read it$/,
  },
  {
    edit: "an enum value removed from a request",
    before: withRequestEnum,
    after: (d) => {
      withRequestEnum(d);
      obj(props(d, "PlantPatch"), "/light")["enum"] = ["sun"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`updatePlant` request body `light`: enum value `shade` removed/,
  },
  {
    edit: "a member's type changed",
    after: (d) => {
      obj(props(d, "Error"), "/error")["type"] = "string";
    },
    severity: "breaking",
    bump: "major",
    sentence: /type changed from `integer` to `string`/,
  },
  {
    edit: "a member's format changed",
    after: (d) => {
      obj(props(d, "WebhookEndpoint"), "/createdAt")["format"] = "date";
    },
    severity: "breaking",
    bump: "major",
    sentence: /`createdAt`: format changed from `date-time` to `date`/,
  },
  {
    edit: "an int64 turned into a string",
    after: (d) => {
      obj(d, "/components/schemas/StoredPlant/allOf/0/properties")["id"] = { type: "string" };
    },
    severity: "breaking",
    bump: "major",
    sentence: /`getPlant` 200 `id`: type changed from `integer` to `string`/,
  },
  {
    edit: "a new required request member",
    after: (d) => {
      arr(d, "/components/schemas/NewWebhookEndpoint/required").push("description");
    },
    severity: "breaking",
    bump: "major",
    sentence: /`createWebhookEndpoint` request body: `description` now required/,
  },
  {
    edit: "a new required parameter",
    after: (d) => {
      opList(d, "/plants", "get", "/parameters").push({
        name: "tag",
        in: "query",
        required: true,
        schema: { type: "string" },
      });
    },
    severity: "breaking",
    bump: "major",
    sentence: /`listPlants` query parameter `tag`: added, required/,
  },
  {
    edit: "an optional parameter made required",
    after: (d) => {
      opAt(d, "/plants", "get", "/parameters/0")["required"] = true;
    },
    severity: "breaking",
    bump: "major",
    sentence: /`listPlants` query parameter `limit`: now required/,
  },
  {
    edit: "a request maxLength tightened",
    after: (d) => {
      obj(props(d, "NewWebhookEndpoint"), "/url")["maxLength"] = 200;
    },
    severity: "breaking",
    bump: "major",
    sentence: /`url`: `maxLength` changed from `2048` to `200`/,
  },
  {
    edit: "a request maximum tightened",
    after: (d) => {
      opAt(d, "/plants", "get", "/parameters/0/schema")["maximum"] = 500;
    },
    severity: "breaking",
    bump: "major",
    sentence: /`limit`: `maximum` changed from `1000` to `500`/,
  },
  {
    edit: "a request pattern added",
    after: (d) => {
      obj(props(d, "NewWebhookEndpoint"), "/description")["pattern"] = "^[a-z ]*$";
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "additionalProperties: false on a request",
    after: (d) => {
      obj(d, "/components/schemas/NewWebhookEndpoint")["additionalProperties"] = false;
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a scope added to an operation",
    after: (d) => {
      opList(d, "/plants", "get", "/x-required-scopes").push("plants:admin");
    },
    severity: "breaking",
    bump: "major",
    sentence: /`listPlants`: scope `plants:admin` required — breaking for tokens without it/,
  },
  {
    edit: "credentials required by an open operation",
    after: (d) => {
      op(d, "/openapi.json", "get")["security"] = [{ bearerAuth: [] }];
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a member removed from the webhook's payload",
    before: withOwnWebhookSchema,
    after: (d) => {
      withOwnWebhookSchema(d);
      delete obj(d, `${HOOK_SCHEMA}/properties`)["tag"];
    },
    severity: "breaking",
    bump: "major",
    sentence:
      /webhook `newPlantWebhook` request body: member `tag` removed — breaking for receivers/,
  },
  {
    edit: "an operationId changed",
    after: (d) => {
      op(d, "/plants", "get")["operationId"] = "listAllPlants";
    },
    severity: "breaking",
    bump: "major",
    sentence:
      /operationId changed from `listPlants` to `listAllPlants` — breaking for generated clients/,
  },
  {
    edit: "a request media type removed",
    after: (d) => {
      delete opAt(d, "/plants/{id}", "patch", "/requestBody/content")["application/json"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`updatePlant` request body: media type `application\/json` removed/,
  },
  {
    edit: "a header removed from the webhook's message",
    after: (d) => {
      arr(d, `${HOOK}/parameters`).pop();
    },
    severity: "breaking",
    bump: "major",
    sentence:
      /webhook `newPlantWebhook` header parameter `webhook-signature`: removed — breaking for receivers/,
  },
  {
    edit: "the security scheme changed",
    after: (d) => {
      obj(d, "/components/securitySchemes")["bearerAuth"] = {
        type: "apiKey",
        in: "header",
        name: "X-Key",
      };
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a status removed from the webhook's answers",
    after: (d) => {
      delete obj(d, `${HOOK}/responses`)["200"];
    },
    severity: "possibly breaking",
    bump: "minor",
    sentence: /webhook `newPlantWebhook` 200: status removed — possibly breaking for receivers/,
  },
  // Possibly breaking: what a reader may not expect.
  {
    edit: "a response member made nullable",
    after: (d) => {
      obj(props(d, "Error"), "/message")["type"] = ["string", "null"];
    },
    severity: "possibly breaking",
    bump: "minor",
  },
  {
    edit: "a response member made optional",
    after: (d) => {
      obj(d, "/components/schemas/Error")["required"] = ["error"];
    },
    severity: "possibly breaking",
    bump: "minor",
    sentence: /`message` now optional — possibly breaking for clients that read it/,
  },
  {
    edit: "a new enum value in a response",
    after: (d) => {
      arr(d, "/components/schemas/WebhookDelivery/properties/status/enum").push("cancelled");
    },
    severity: "possibly breaking",
    bump: "minor",
    sentence: /enum value `cancelled` added — possibly breaking/,
  },
  {
    edit: "a webhook payload member made nullable",
    before: withOwnWebhookSchema,
    after: (d) => {
      withOwnWebhookSchema(d);
      obj(d, `${HOOK_SCHEMA}/properties/tag`)["type"] = ["string", "null"];
    },
    severity: "possibly breaking",
    bump: "minor",
    sentence:
      /webhook `newPlantWebhook` request body `tag`: type .* possibly breaking for receivers/,
  },
  {
    edit: "a member removed from a request",
    after: (d) => {
      delete props(d, "PlantPatch")["tag"];
    },
    severity: "possibly breaking",
    bump: "minor",
  },
];

const worst = (severities: Severity[]): Severity | undefined =>
  (["breaking", "possibly breaking", "compatible"] as const).find((s) => severities.includes(s));
const most = (bumps: Bump[]): Bump | undefined =>
  (["major", "minor", "patch"] as const).find((b) => bumps.includes(b));

describe("spec diff classification", () => {
  it("when the table is counted, then it holds at least 30 edits", () => {
    expect(edits.length).toBeGreaterThanOrEqual(30);
  });

  it.each(edits)("when $edit, then it is $severity and needs a $bump release", (row) => {
    const before = structuredClone(source);
    row.before?.(before);
    const after = structuredClone(before);
    row.after(after);
    const changes = diffDocuments(before, after);
    const report = changes.map((c) => `${c.severity} ${c.bump}: ${c.sentence}`).join("\n");
    expect(
      { severity: worst(changes.map((c) => c.severity)), bump: most(changes.map((c) => c.bump)) },
      report,
    ).toEqual({
      severity: row.severity,
      bump: row.bump,
    });
    if (row.sentence !== undefined) {
      expect(
        changes.map((c) => c.sentence).some((s) => row.sentence?.test(s)),
        report,
      ).toBe(true);
    }
  });

  it("when nothing changed, then there is no change", () => {
    expect(diffDocuments(source, structuredClone(source))).toEqual([]);
  });
});
