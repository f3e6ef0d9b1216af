// Edits users make to openapi/plants.yaml, each with the class and the version raise it must
// get, and the reference rule it follows: an oasdiff check (its id and level: every ERR is
// breaking here, a WARN possibly breaking, an INFO compatible) or an Optic breaking-changes
// rule. Where this project chooses otherwise, or the reference has no rule, `choice` says why.
// Examples, descriptions and summaries alone are a patch everywhere; a webhook is judged with
// the roles reversed (the receiver reads the message), and a new event is breaking unless it
// goes only to the endpoints that ask for it (`x-event`).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { documentPath } from "../../src/openapi/document.ts";
import { changelog } from "../../src/spec-diff/changelog.ts";
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
const schema = (d: unknown, name: string): Node => obj(d, `/components/schemas/${name}`);
const props = (d: unknown, name: string): Node => obj(d, `/components/schemas/${name}/properties`);
const prop = (d: unknown, name: string, member: string): Node => obj(props(d, name), `/${member}`);
const op = (d: unknown, path: string, method: string): Node =>
  obj(d, `/paths/${path.replaceAll("/", "~1")}/${method}`);
const opAt = (d: unknown, path: string, method: string, pointer: string): Node =>
  obj(d, `/paths/${path.replaceAll("/", "~1")}/${method}${pointer}`);
const opList = (d: unknown, path: string, method: string, pointer: string): unknown[] =>
  arr(d, `/paths/${path.replaceAll("/", "~1")}/${method}${pointer}`);
const limitOf = (d: unknown): Node => opAt(d, "/plants", "get", "/parameters/0");
const HOOK = "/webhooks/~1plant~1webhook/post";
const HOOK_SCHEMA = `${HOOK}/requestBody/content/application~1json/schema`;

// State both sides share, for edits the YAML has no place for yet.
const withRequestEnum = (d: unknown): void => {
  props(d, "PlantPatch")["light"] = { type: "string", enum: ["shade", "sun"] };
};
const withQueryEnum = (d: unknown): void => {
  opList(d, "/plants", "get", "/parameters").push({
    name: "order",
    in: "query",
    schema: { type: "string", enum: ["asc", "desc"] },
  });
};
const withRequestOneOf = (d: unknown): void => {
  props(d, "PlantPatch")["size"] = { oneOf: [{ type: "string" }, { type: "integer" }] };
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
/** Another webhook, `plantRenamed`, sent when a plant is changed; `event` adds its x-event. */
const renamedHook = (event: boolean) => ({
  post: {
    operationId: "plantRenamedWebhook",
    summary: "Plant renamed",
    ...(event ? { "x-event": { type: "plantRenamed", table: "plants", on: "update" } } : {}),
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: { type: "object", properties: { id: { type: "integer", format: "int64" } } },
        },
      },
    },
    responses: { "200": { description: "Received." } },
  },
});
const withEventHook = (d: unknown): void => {
  obj(d, "/webhooks")["/plant/renamed"] = renamedHook(true);
};

interface Edit {
  edit: string;
  /** The reference rule: `oasdiff <id> (<level>)` or `Optic <rule>`. */
  rule: string;
  /** Where this project classifies otherwise than the reference, or it has no rule: why. */
  choice?: string;
  before?: (d: unknown) => void;
  after: (d: unknown) => void;
  severity: Severity;
  bump: Bump;
  sentence?: RegExp;
}

const WORDS_ONLY = "oasdiff: no check (annotations have no wire-contract effect)";

const edits: Edit[] = [
  // Operations and paths.
  {
    edit: "a path removed",
    rule: "oasdiff api-path-removed-without-deprecation (ERR)",
    after: (d) => {
      delete obj(d, "/paths")["/readyz"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`getReadiness`: operation removed — breaking/,
  },
  {
    edit: "an operation removed",
    rule: "oasdiff api-removed-without-deprecation (ERR); Optic preventOperationRemoval",
    after: (d) => {
      delete obj(d, "/paths/~1plants~1{id}")["delete"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`deletePlant`: operation removed — breaking for clients that call it/,
  },
  {
    edit: "a new operation",
    rule: "oasdiff endpoint-added (INFO)",
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
    edit: "a new path",
    rule: "oasdiff endpoint-added (INFO)",
    after: (d) => {
      obj(d, "/paths")["/plants/{id}/photos"] = {
        get: {
          operationId: "listPlantPhotos",
          parameters: [{ $ref: "#/components/parameters/PlantId" }],
          responses: { "200": { description: "The photos." } },
        },
      };
    },
    severity: "compatible",
    bump: "minor",
    sentence: /`listPlantPhotos`: operation added/,
  },
  {
    edit: "an operationId changed",
    rule: "oasdiff api-operation-id-removed (INFO)",
    choice: "generated clients, this project's own included, name their methods by it",
    after: (d) => {
      op(d, "/plants", "get")["operationId"] = "listAllPlants";
    },
    severity: "breaking",
    bump: "major",
    sentence:
      /operationId changed from `listPlants` to `listAllPlants` — breaking for generated clients/,
  },
  {
    edit: "an operation deprecated",
    rule: "oasdiff endpoint-deprecated (INFO)",
    after: (d) => {
      op(d, "/plants", "get")["deprecated"] = true;
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "an operation's description changed",
    rule: WORDS_ONLY,
    after: (d) => {
      op(d, "/plants/{id}", "get")["description"] += "\nMore words.\n";
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "a summary changed",
    rule: WORDS_ONLY,
    after: (d) => {
      op(d, "/plants", "get")["summary"] = "List the plants";
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "an operation's tags changed",
    rule: "oasdiff api-tag-added, api-tag-removed (INFO)",
    choice: "tags group the reference pages, nothing a client sends or reads: a patch",
    after: (d) => {
      op(d, "/plants", "get")["tags"] = ["plants", "reading"];
    },
    severity: "compatible",
    bump: "patch",
  },
  // Parameters.
  {
    edit: "a new optional query parameter",
    rule: "oasdiff new-optional-request-parameter (INFO)",
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
    edit: "a new required query parameter",
    rule: "oasdiff new-required-request-parameter (ERR); Optic preventNewRequiredQueryParameter",
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
    edit: "a new required header parameter",
    rule: "oasdiff new-required-request-parameter (ERR); Optic preventNewRequiredHeaderParameter",
    after: (d) => {
      opList(d, "/plants", "get", "/parameters").push({
        name: "X-Tenant",
        in: "header",
        required: true,
        schema: { type: "string" },
      });
    },
    severity: "breaking",
    bump: "major",
    sentence: /`listPlants` header parameter `X-Tenant`: added, required/,
  },
  {
    edit: "an optional parameter made required",
    rule: "oasdiff request-parameter-became-required (ERR); Optic preventRequireExistingQueryParameter",
    after: (d) => {
      limitOf(d)["required"] = true;
    },
    severity: "breaking",
    bump: "major",
    sentence: /`listPlants` query parameter `limit`: now required/,
  },
  {
    edit: "a required parameter made optional",
    rule: "oasdiff request-parameter-became-optional (INFO)",
    before: (d) => {
      limitOf(d)["required"] = true;
    },
    after: (d) => {
      limitOf(d)["required"] = false;
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a parameter removed",
    rule: "oasdiff request-parameter-removed (WARN)",
    choice:
      "this server refuses a query parameter an operation does not take (400), so a client that still sends it fails",
    after: (d) => {
      opList(d, "/plants", "get", "/parameters").pop();
    },
    severity: "breaking",
    bump: "major",
    sentence: /`listPlants` query parameter `after`: removed — breaking/,
  },
  {
    edit: "a parameter's type changed",
    rule: "oasdiff request-parameter-type-changed (ERR); Optic preventQueryParameterTypeChange",
    after: (d) => {
      obj(limitOf(d), "/schema")["type"] = "string";
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a path parameter's type changed (an int64 id made a string)",
    rule: "oasdiff request-parameter-type-changed (ERR); Optic preventPathParameterTypeChange",
    after: (d) => {
      obj(d, "/components/parameters/PlantId")["schema"] = { type: "string" };
    },
    severity: "breaking",
    bump: "major",
    sentence: /`getPlant` path parameter `id`: type changed from `integer` to `string`/,
  },
  {
    edit: "a parameter's maximum lowered",
    rule: "oasdiff request-parameter-max-decreased (ERR)",
    after: (d) => {
      obj(limitOf(d), "/schema")["maximum"] = 500;
    },
    severity: "breaking",
    bump: "major",
    sentence: /`limit`: `maximum` changed from `1000` to `500`/,
  },
  {
    edit: "a parameter's maximum raised",
    rule: "oasdiff request-parameter-max-increased (INFO)",
    after: (d) => {
      obj(limitOf(d), "/schema")["maximum"] = 5000;
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a parameter's minimum raised",
    rule: "oasdiff request-parameter-min-increased (ERR)",
    after: (d) => {
      obj(limitOf(d), "/schema")["minimum"] = 10;
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a parameter's maxLength lowered",
    rule: "oasdiff request-parameter-max-length-decreased (ERR)",
    after: (d) => {
      obj(d, "/components/parameters/IfNoneMatch/schema")["maxLength"] = 64;
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a pattern added to a parameter",
    rule: "oasdiff request-parameter-pattern-added (ERR)",
    after: (d) => {
      obj(d, "/components/parameters/IfNoneMatch/schema")["pattern"] = '^"[^"]*"$';
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a parameter's default changed",
    rule: "oasdiff request-parameter-default-value-changed (ERR)",
    after: (d) => {
      obj(limitOf(d), "/schema")["default"] = 50;
    },
    severity: "breaking",
    bump: "major",
    sentence:
      /`limit`: default changed from `100` to `50` — breaking for clients that leave it out/,
  },
  {
    edit: "a parameter's values limited to an enum",
    rule: "oasdiff request-parameter-became-enum (ERR); Optic preventQueryParameterEnumBreak",
    after: (d) => {
      obj(d, "/components/parameters/IfNoneMatch/schema")["enum"] = ["*"];
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "an enum value removed from a parameter",
    rule: "oasdiff request-parameter-enum-value-removed (ERR); Optic preventQueryParameterEnumBreak",
    before: withQueryEnum,
    after: (d) => {
      withQueryEnum(d);
      obj(opAt(d, "/plants", "get", "/parameters/2"), "/schema")["enum"] = ["asc"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`listPlants` query parameter `order`: enum value `desc` removed/,
  },
  {
    edit: "an enum value added to a parameter",
    rule: "oasdiff request-parameter-enum-value-added (INFO)",
    before: withQueryEnum,
    after: (d) => {
      withQueryEnum(d);
      arr(opAt(d, "/plants", "get", "/parameters/2"), "/schema/enum").push("random");
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a parameter's description changed",
    rule: WORDS_ONLY,
    after: (d) => {
      limitOf(d)["description"] = "How many plants a page holds.";
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "a named parameter example added",
    rule: WORDS_ONLY,
    after: (d) => {
      const limit = limitOf(d);
      limit["examples"] = { ...(limit["examples"] as Node | undefined), tiny: { value: 1 } };
    },
    severity: "compatible",
    bump: "patch",
  },
  // Request bodies.
  {
    edit: "a new optional member in a request",
    rule: "oasdiff new-optional-request-property (INFO)",
    after: (d) => {
      props(d, "PlantPatch")["note"] = { type: "string" };
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a new required request member",
    rule: "oasdiff new-required-request-property (ERR); Optic preventRequestPropertyRequired",
    after: (d) => {
      props(d, "NewWebhookEndpoint")["label"] = { type: "string" };
      arr(d, "/components/schemas/NewWebhookEndpoint/required").push("label");
    },
    severity: "breaking",
    bump: "major",
    sentence: /`createWebhookEndpoint` request body: `label` now required/,
  },
  {
    edit: "an optional request member made required",
    rule: "oasdiff request-property-became-required (ERR); Optic preventRequestPropertyRequired",
    after: (d) => {
      schema(d, "PlantPatch")["required"] = ["name"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`updatePlant` request body: `name` now required/,
  },
  {
    edit: "a required request member made optional",
    rule: "oasdiff request-property-became-optional (INFO)",
    after: (d) => {
      schema(d, "NewWebhookEndpoint")["required"] = [];
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a member removed from a request",
    rule: "oasdiff request-property-removed (WARN)",
    after: (d) => {
      delete props(d, "PlantPatch")["tag"];
    },
    severity: "possibly breaking",
    bump: "minor",
    sentence: /`updatePlant` request body: member `tag` removed — possibly breaking/,
  },
  {
    edit: "a request member's type changed",
    rule: "oasdiff request-property-type-changed (ERR); Optic preventRequestPropertyTypeChange",
    after: (d) => {
      prop(d, "PlantPatch", "name")["type"] = "integer";
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a request member's type generalized (integer to number)",
    rule: "oasdiff request-property-type-generalized (INFO)",
    before: (d) => {
      props(d, "PlantPatch")["height"] = { type: "integer" };
    },
    after: (d) => {
      props(d, "PlantPatch")["height"] = { type: "number" };
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a request member made nullable",
    rule: "oasdiff request-property-became-nullable (INFO)",
    after: (d) => {
      prop(d, "PlantPatch", "name")["type"] = ["string", "null"];
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a request member no longer nullable",
    rule: "oasdiff request-property-became-not-nullable (ERR)",
    after: (d) => {
      prop(d, "PlantPatch", "tag")["type"] = "string";
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a request maxLength lowered",
    rule: "oasdiff request-property-max-length-decreased (ERR)",
    after: (d) => {
      prop(d, "NewWebhookEndpoint", "url")["maxLength"] = 200;
    },
    severity: "breaking",
    bump: "major",
    sentence: /`url`: `maxLength` changed from `2048` to `200`/,
  },
  {
    edit: "a request maxLength raised",
    rule: "oasdiff request-property-max-length-increased (INFO)",
    after: (d) => {
      prop(d, "NewWebhookEndpoint", "url")["maxLength"] = 4096;
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a maxLength set on a request member",
    rule: "oasdiff request-property-max-length-set (WARN)",
    choice: "a value the API took before may now be refused: breaking unless no client sent one",
    after: (d) => {
      prop(d, "PlantPatch", "name")["maxLength"] = 100;
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a request minimum raised",
    rule: "oasdiff request-property-min-increased (ERR)",
    before: (d) => {
      props(d, "PlantPatch")["height"] = { type: "integer", minimum: 0 };
    },
    after: (d) => {
      props(d, "PlantPatch")["height"] = { type: "integer", minimum: 1 };
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a request minItems raised",
    rule: "oasdiff request-property-min-items-increased (ERR)",
    before: (d) => {
      props(d, "PlantPatch")["colours"] = { type: "array", items: { type: "string" } };
    },
    after: (d) => {
      props(d, "PlantPatch")["colours"] = {
        type: "array",
        items: { type: "string" },
        minItems: 1,
      };
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a request pattern added",
    rule: "oasdiff request-property-pattern-added (ERR)",
    after: (d) => {
      prop(d, "PlantPatch", "name")["pattern"] = "^[A-Za-z ]*$";
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a request pattern changed",
    rule: "oasdiff request-property-pattern-changed (WARN)",
    choice: "whether the new pattern accepts all the old one did cannot be told: breaking",
    after: (d) => {
      prop(d, "NewWebhookEndpoint", "url")["pattern"] = "^https://.+$";
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a request pattern removed",
    rule: "oasdiff request-property-pattern-removed (INFO)",
    after: (d) => {
      delete prop(d, "NewWebhookEndpoint", "url")["pattern"];
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "an enum value removed from a request",
    rule: "oasdiff request-property-enum-value-removed (ERR); Optic preventPropertyEnumBreak",
    before: withRequestEnum,
    after: (d) => {
      withRequestEnum(d);
      prop(d, "PlantPatch", "light")["enum"] = ["sun"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`updatePlant` request body `light`: enum value `shade` removed/,
  },
  {
    edit: "a new enum value in a request",
    rule: "oasdiff request-property-enum-value-added (INFO)",
    before: withRequestEnum,
    after: (d) => {
      withRequestEnum(d);
      arr(d, "/components/schemas/PlantPatch/properties/light/enum").push("partial");
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a request member's values limited to an enum",
    rule: "oasdiff request-property-became-enum (ERR)",
    after: (d) => {
      prop(d, "PlantPatch", "name")["enum"] = ["Fern", "Monstera"];
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a const set on a request member",
    rule: "oasdiff request-property-const-added (ERR)",
    after: (d) => {
      prop(d, "PlantPatch", "name")["const"] = "Fern";
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a oneOf branch removed from a request member",
    rule: "oasdiff request-property-one-of-removed (ERR)",
    before: withRequestOneOf,
    after: (d) => {
      withRequestOneOf(d);
      arr(d, "/components/schemas/PlantPatch/properties/size/oneOf").pop();
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a oneOf branch added to a request member",
    rule: "oasdiff request-property-one-of-added (INFO)",
    before: withRequestOneOf,
    after: (d) => {
      withRequestOneOf(d);
      arr(d, "/components/schemas/PlantPatch/properties/size/oneOf").push({ type: "boolean" });
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "additionalProperties: false on a request",
    rule: "oasdiff: no rule",
    choice:
      "a member the API ignored before is now refused (400): breaking for clients that send one",
    after: (d) => {
      schema(d, "NewWebhookEndpoint")["additionalProperties"] = false;
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a request body made required",
    rule: "oasdiff request-body-became-required (ERR)",
    before: (d) => {
      obj(op(d, "/plants/{id}", "patch"), "/requestBody")["required"] = false;
    },
    after: (d) => {
      obj(op(d, "/plants/{id}", "patch"), "/requestBody")["required"] = true;
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a request body made optional",
    rule: "oasdiff request-body-became-optional (INFO)",
    after: (d) => {
      obj(op(d, "/plants/{id}", "patch"), "/requestBody")["required"] = false;
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a request media type removed",
    rule: "oasdiff request-body-media-type-removed (ERR)",
    after: (d) => {
      delete opAt(d, "/plants/{id}", "patch", "/requestBody/content")["application/json"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`updatePlant` request body: media type `application\/json` removed/,
  },
  {
    edit: "a request media type added",
    rule: "oasdiff request-body-media-type-added (INFO)",
    after: (d) => {
      opAt(d, "/plants", "post", "/requestBody/content")["application/merge-patch+json"] = {
        schema: { $ref: "#/components/schemas/NewPlant" },
      };
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a named request example added",
    rule: WORDS_ONLY,
    after: (d) => {
      opAt(d, "/plants", "post", "/requestBody/content/application~1json/examples")["cactus"] = {
        summary: "A cactus",
        value: { id: 10004, name: "Cactus" },
      };
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "a named request example's value changed",
    rule: WORDS_ONLY,
    after: (d) => {
      opAt(d, "/plants", "post", "/requestBody/content/application~1json/examples/fern")["value"] =
        { id: 10002, name: "Sword fern" };
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "a named request example removed",
    rule: WORDS_ONLY,
    after: (d) => {
      delete opAt(d, "/plants", "post", "/requestBody/content/application~1json/examples")["fern"];
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "an unnamed example added to a request member's schema",
    rule: WORDS_ONLY,
    after: (d) => {
      prop(d, "PlantPatch", "name")["example"] = "Fern";
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "a member's description changed",
    rule: WORDS_ONLY,
    after: (d) => {
      prop(d, "Plant", "tag")["description"] = "A word for the kind of plant";
    },
    severity: "compatible",
    bump: "patch",
  },
  // Answers.
  {
    edit: "a new optional member in a response",
    rule: "oasdiff response-optional-property-added (INFO)",
    after: (d) => {
      props(d, "WebhookDelivery")["note"] = { type: "string" };
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a required response member removed",
    rule: "oasdiff response-required-property-removed (ERR); Optic preventResponsePropertyRemoval",
    after: (d) => {
      delete props(d, "Error")["message"];
      schema(d, "Error")["required"] = ["error"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /member `message` removed — breaking for clients that read it/,
  },
  {
    edit: "an optional response member removed",
    rule: "oasdiff response-optional-property-removed (WARN); Optic preventResponsePropertyRemoval",
    choice: "as Optic: a client reads it when it is there, and from now on it never is",
    after: (d) => {
      delete props(d, "Plant")["tag"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /^`getPlant` 200: member `tag` removed — breaking for clients that read it$/,
  },
  {
    edit: "a response member made optional",
    rule: "oasdiff response-property-became-optional (ERR); Optic preventResponsePropertyOptional",
    after: (d) => {
      schema(d, "Error")["required"] = ["error"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`message` now optional — breaking for clients that read it/,
  },
  {
    edit: "a response member made required",
    rule: "oasdiff response-property-became-required (INFO)",
    before: (d) => {
      props(d, "WebhookDelivery")["note"] = { type: "string" };
    },
    after: (d) => {
      props(d, "WebhookDelivery")["note"] = { type: "string" };
      arr(d, "/components/schemas/WebhookDelivery/required").push("note");
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a member made required in a schema both sent and read",
    rule: "oasdiff new-required-request-property (ERR) and response-property-became-required (INFO)",
    choice: "Plant is the body of createPlant and of getPlant's answer: the worse use counts",
    after: (d) => {
      arr(d, "/components/schemas/Plant/required").push("tag");
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a response member made nullable",
    rule: "oasdiff response-property-became-nullable (ERR)",
    after: (d) => {
      prop(d, "Error", "message")["type"] = ["string", "null"];
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a response member no longer nullable",
    rule: "oasdiff response-property-became-not-nullable (INFO)",
    after: (d) => {
      prop(d, "WebhookDelivery", "lastError")["type"] = "string";
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a response member's type changed",
    rule: "oasdiff response-property-type-changed (ERR); Optic preventResponsePropertyTypeChange",
    after: (d) => {
      prop(d, "Error", "error")["type"] = "string";
    },
    severity: "breaking",
    bump: "major",
    sentence: /type changed from `integer` to `string`/,
  },
  {
    edit: "a response member's type generalized (integer to number)",
    rule: "oasdiff response-property-type-generalized (ERR)",
    after: (d) => {
      prop(d, "WebhookDelivery", "attempts")["type"] = "number";
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a response member's type specialized (number to integer)",
    rule: "oasdiff response-property-type-specialized (INFO)",
    before: (d) => {
      props(d, "WebhookDelivery")["ratio"] = { type: "number" };
    },
    after: (d) => {
      props(d, "WebhookDelivery")["ratio"] = { type: "integer" };
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a response member's format changed",
    rule: "oasdiff response-property-type-changed (ERR)",
    after: (d) => {
      prop(d, "WebhookEndpoint", "createdAt")["format"] = "date";
    },
    severity: "breaking",
    bump: "major",
    sentence: /`createdAt`: format changed from `date-time` to `date`/,
  },
  {
    edit: "an int64 turned into a string",
    rule: "oasdiff response-property-type-changed (ERR); Optic preventResponsePropertyTypeChange",
    after: (d) => {
      obj(d, "/components/schemas/StoredPlant/allOf/0/properties")["id"] = { type: "string" };
    },
    severity: "breaking",
    bump: "major",
    sentence: /`getPlant` 200 `id`: type changed from `integer` to `string`/,
  },
  {
    edit: "a new enum value in a response",
    rule: "oasdiff response-property-enum-value-added (WARN)",
    after: (d) => {
      arr(d, "/components/schemas/WebhookDelivery/properties/status/enum").push("cancelled");
    },
    severity: "possibly breaking",
    bump: "minor",
    sentence: /enum value `cancelled` added — possibly breaking/,
  },
  {
    edit: "an enum value removed from a response",
    rule: "oasdiff response-property-enum-value-removed (INFO)",
    after: (d) => {
      prop(d, "WebhookDelivery", "status")["enum"] = ["delivered", "failed"];
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a response maxLength raised",
    rule: "oasdiff response-property-max-length-increased (ERR)",
    before: (d) => {
      prop(d, "WebhookEndpoint", "url")["maxLength"] = 2048;
    },
    after: (d) => {
      prop(d, "WebhookEndpoint", "url")["maxLength"] = 4096;
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a response maxLength removed",
    rule: "oasdiff response-property-max-length-unset (ERR)",
    before: (d) => {
      prop(d, "WebhookEndpoint", "url")["maxLength"] = 2048;
    },
    after: (d) => {
      delete prop(d, "WebhookEndpoint", "url")["maxLength"];
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a response maxLength lowered",
    rule: "oasdiff response-property-max-length-decreased (INFO)",
    before: (d) => {
      prop(d, "WebhookEndpoint", "url")["maxLength"] = 4096;
    },
    after: (d) => {
      prop(d, "WebhookEndpoint", "url")["maxLength"] = 2048;
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a response minimum lowered",
    rule: "oasdiff response-property-min-decreased (ERR)",
    before: (d) => {
      prop(d, "WebhookDelivery", "attempts")["minimum"] = 1;
    },
    after: (d) => {
      prop(d, "WebhookDelivery", "attempts")["minimum"] = 0;
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a response const changed",
    rule: "oasdiff response-property-const-changed (ERR)",
    before: (d) => {
      prop(d, "Health", "status")["const"] = "ok";
    },
    after: (d) => {
      prop(d, "Health", "status")["const"] = "fine";
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a oneOf branch added to a response member",
    rule: "oasdiff response-property-one-of-added (ERR)",
    before: (d) => {
      props(d, "WebhookDelivery")["size"] = { oneOf: [{ type: "string" }, { type: "integer" }] };
    },
    after: (d) => {
      props(d, "WebhookDelivery")["size"] = {
        oneOf: [{ type: "string" }, { type: "integer" }, { type: "boolean" }],
      };
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a success status removed",
    rule: "oasdiff response-success-status-removed (ERR); Optic preventResponseStatusCodeRemoval",
    after: (d) => {
      delete opAt(d, "/plants/{id}", "get", "/responses")["200"];
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "an error status removed",
    rule: "oasdiff response-non-success-status-removed (INFO); Optic preventResponseStatusCodeRemoval",
    choice:
      "as Optic: a client that handles the status has code for an answer that no longer comes",
    after: (d) => {
      delete opAt(d, "/plants/{id}", "get", "/responses")["404"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`getPlant` 404: status removed — breaking/,
  },
  {
    edit: "a new response status",
    rule: "oasdiff response-non-success-status-added (INFO)",
    after: (d) => {
      opAt(d, "/plants/{id}", "get", "/responses")["410"] = { description: "Gone." };
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a response media type added",
    rule: "oasdiff response-media-type-added (INFO)",
    after: (d) => {
      opAt(d, "/plants/{id}", "get", "/responses/200/content")["application/xml"] = {
        schema: { type: "string" },
      };
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a response media type replaced",
    rule: "oasdiff response-media-type-removed (ERR)",
    after: (d) => {
      const content = opAt(d, "/openapi.yaml", "get", "/responses/200/content");
      content["text/yaml"] = content["application/yaml"];
      delete content["application/yaml"];
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a required response header removed",
    rule: "oasdiff required-response-header-removed (ERR)",
    after: (d) => {
      delete opAt(d, "/openapi.json", "get", "/responses/200/headers")["ETag"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /`getOpenApiJson` 200 header `ETag`: header removed — breaking/,
  },
  {
    edit: "an optional response header removed",
    rule: "oasdiff optional-response-header-removed (WARN)",
    after: (d) => {
      delete opAt(d, "/plants/{id}", "get", "/responses/200/headers")["RateLimit"];
    },
    severity: "possibly breaking",
    bump: "minor",
  },
  {
    edit: "a response header made optional",
    rule: "oasdiff response-header-became-optional (ERR)",
    after: (d) => {
      obj(d, "/components/headers/ETag")["required"] = false;
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a response header's type changed",
    rule: "oasdiff response-header-type-changed (ERR)",
    after: (d) => {
      obj(d, "/components/headers/ETag/schema")["type"] = "integer";
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a new response header",
    rule: "oasdiff response-header-added (INFO)",
    after: (d) => {
      opAt(d, "/plants/{id}", "get", "/responses/200/headers")["X-Plant-Age"] = {
        schema: { type: "integer" },
      };
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a named response example added",
    rule: WORDS_ONLY,
    after: (d) => {
      const content = opAt(d, "/plants", "post", "/responses/200/content/application~1json");
      content["examples"] = {
        ...(content["examples"] as Node | undefined),
        cactus: { value: { id: 10004, name: "Cactus" } },
      };
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "an unnamed response example changed",
    rule: WORDS_ONLY,
    after: (d) => {
      opAt(d, "/metrics", "get", "/responses/200/content/text~1plain")["example"] = "# none\n";
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "a response's description changed",
    rule: WORDS_ONLY,
    after: (d) => {
      opAt(d, "/plants/{id}", "get", "/responses/404")["description"] = "No such plant.";
    },
    severity: "compatible",
    bump: "patch",
  },
  // Security.
  {
    edit: "a scope added to an operation",
    rule: "oasdiff api-security-scope-added (INFO)",
    choice: "tokens with the scopes the operation needed before are now refused (403)",
    after: (d) => {
      opList(d, "/plants", "get", "/x-required-scopes").push("plants:admin");
    },
    severity: "breaking",
    bump: "major",
    sentence: /`listPlants`: scope `plants:admin` required — breaking for tokens without it/,
  },
  {
    edit: "a scope no longer required",
    rule: "oasdiff api-security-scope-removed (INFO)",
    after: (d) => {
      op(d, "/plants", "post")["x-required-scopes"] = [];
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "credentials required by an open operation",
    rule: "oasdiff api-security-added (INFO)",
    choice: "a client that called it without credentials is now refused (401)",
    after: (d) => {
      op(d, "/openapi.json", "get")["security"] = [{ bearerAuth: [] }];
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "the security scheme changed",
    rule: "oasdiff api-security-component-type-changed (INFO)",
    choice: "every client sends the credentials the old scheme described",
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
  // Webhooks: the service sends, the receiver reads (the response side's rules).
  {
    edit: "a new webhook without x-event",
    rule: "oasdiff webhook-added (INFO)",
    choice:
      "without x-event it is sent to every registered endpoint, and a receiver refuses an event it does not know",
    after: (d) => {
      obj(d, "/webhooks")["/plant/renamed"] = renamedHook(false);
    },
    severity: "breaking",
    bump: "major",
    sentence: /webhook `plantRenamedWebhook`: webhook added.*sent to every registered endpoint/,
  },
  {
    edit: "a new webhook with x-event",
    rule: "oasdiff webhook-added (INFO)",
    after: withEventHook,
    severity: "compatible",
    bump: "minor",
    sentence: /webhook `plantRenamedWebhook`: webhook added — compatible/,
  },
  {
    edit: "a webhook removed",
    rule: "oasdiff webhook-removed (ERR)",
    after: (d) => {
      delete obj(d, "/webhooks")["/plant/webhook"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /webhook `newPlantWebhook`: webhook removed — breaking for receivers/,
  },
  {
    edit: "x-event declared on an existing webhook",
    rule: "project x-event",
    choice: "an endpoint that does not subscribe to the event stops getting it",
    before: (d) => {
      delete obj(d, HOOK)["x-event"];
    },
    after: (d) => {
      obj(d, HOOK)["x-event"] = { type: "newPlant", table: "plants", on: "create" };
    },
    severity: "possibly breaking",
    bump: "minor",
    sentence: /webhook `newPlantWebhook`: `x-event` set to .* possibly breaking/,
  },
  {
    edit: "x-event removed from a webhook",
    rule: "project x-event",
    choice: "the event is then sent to every registered endpoint, subscribed or not",
    before: withEventHook,
    after: (d) => {
      withEventHook(d);
      delete obj(d, "/webhooks/~1plant~1renamed/post")["x-event"];
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a webhook's x-event renamed",
    rule: "project x-event",
    choice: "endpoints subscribe to an event by its name: a renamed event reaches none of them",
    before: withEventHook,
    after: (d) => {
      withEventHook(d);
      obj(d, "/webhooks/~1plant~1renamed/post/x-event")["type"] = "plantChanged";
    },
    severity: "breaking",
    bump: "major",
  },
  {
    edit: "a member removed from the webhook's payload",
    rule: "oasdiff response-required-property-removed (ERR), for receivers",
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
    edit: "a type changed in the webhook's payload",
    rule: "oasdiff response-property-type-changed (ERR), for receivers",
    before: withOwnWebhookSchema,
    after: (d) => {
      withOwnWebhookSchema(d);
      obj(d, `${HOOK_SCHEMA}/properties/id`)["type"] = "string";
    },
    severity: "breaking",
    bump: "major",
    sentence: /webhook `newPlantWebhook` request body `id`: type .* breaking for receivers/,
  },
  {
    edit: "a new optional member in the webhook's payload",
    rule: "oasdiff response-optional-property-added (INFO), for receivers",
    before: withOwnWebhookSchema,
    after: (d) => {
      withOwnWebhookSchema(d);
      obj(d, `${HOOK_SCHEMA}/properties`)["light"] = { type: "string" };
    },
    severity: "compatible",
    bump: "minor",
  },
  {
    edit: "a webhook payload member made nullable",
    rule: "oasdiff response-property-became-nullable (ERR), for receivers",
    before: withOwnWebhookSchema,
    after: (d) => {
      withOwnWebhookSchema(d);
      obj(d, `${HOOK_SCHEMA}/properties/tag`)["type"] = ["string", "null"];
    },
    severity: "breaking",
    bump: "major",
    sentence: /webhook `newPlantWebhook` request body `tag`: type .* breaking for receivers/,
  },
  {
    edit: "a header removed from the webhook's message",
    rule: "oasdiff required-response-header-removed (ERR), for receivers",
    after: (d) => {
      arr(d, `${HOOK}/parameters`).pop();
    },
    severity: "breaking",
    bump: "major",
    sentence:
      /webhook `newPlantWebhook` header parameter `webhook-event`: removed — breaking for receivers/,
  },
  {
    edit: "a status removed from the webhook's answers",
    rule: "oasdiff response-success-status-removed (ERR), reversed: the receiver answers",
    choice:
      "the receiver writes the answer: one that still sends it is answered as before, though the service may treat it otherwise",
    after: (d) => {
      delete obj(d, `${HOOK}/responses`)["200"];
    },
    severity: "possibly breaking",
    bump: "minor",
    sentence: /webhook `newPlantWebhook` 200: status removed — possibly breaking for receivers/,
  },
  {
    edit: "the webhook's payload example changed",
    rule: WORDS_ONLY,
    after: (d) => {
      obj(d, `${HOOK}/requestBody/content/application~1json`)["example"] = {
        id: 10005,
        name: "Fern",
      };
    },
    severity: "compatible",
    bump: "patch",
  },
  // The document.
  {
    edit: "the API's description changed",
    rule: WORDS_ONLY,
    after: (d) => {
      obj(d, "/info")["description"] += "\nMore words.\n";
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "the servers changed",
    rule: "oasdiff: no rule (servers are deployment metadata)",
    after: (d) => {
      arr(d, "/servers").push({ url: "https://plants.example.com" });
    },
    severity: "compatible",
    bump: "patch",
  },
  {
    edit: "a tag described",
    rule: "oasdiff api-tag-added (INFO)",
    after: (d) => {
      arr(d, "/tags").push({ name: "reading", description: "Reads." });
    },
    severity: "compatible",
    bump: "patch",
  },
];

const worst = (severities: Severity[]): Severity | undefined =>
  (["breaking", "possibly breaking", "compatible"] as const).find((s) => severities.includes(s));
const most = (bumps: Bump[]): Bump | undefined =>
  (["major", "minor", "patch"] as const).find((b) => bumps.includes(b));

const changesOf = (row: Edit) => {
  const before = structuredClone(source);
  row.before?.(before);
  const after = structuredClone(before);
  row.after(after);
  return { before, after, changes: diffDocuments(before, after) };
};

describe("spec diff classification", () => {
  it("when the table is counted, then it holds at least 60 edits, each naming its reference rule", () => {
    expect(edits.length).toBeGreaterThanOrEqual(60);
    for (const row of edits) expect(row.rule, row.edit).toMatch(/^(oasdiff|Optic|project)\b/);
    expect(new Set(edits.map((row) => row.edit)).size).toBe(edits.length);
  });

  it("when a reference rule is an ERR, then the row is breaking or says why not", () => {
    for (const row of edits.filter((r) => /\(ERR\)/.test(r.rule) && !/reversed/.test(r.rule))) {
      expect(row.severity === "breaking" || row.choice !== undefined, row.edit).toBe(true);
    }
  });

  it.each(edits)("when $edit, then it is $severity and needs a $bump release", (row) => {
    const { changes } = changesOf(row);
    const report = changes.map((c) => `${c.severity} ${c.bump}: ${c.sentence}`).join("\n");
    expect(
      { severity: worst(changes.map((c) => c.severity)), bump: most(changes.map((c) => c.bump)) },
      report,
    ).toEqual({ severity: row.severity, bump: row.bump });
    expect(report, "no change is left unclassified").not.toContain("not classified");
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

  it("when an unused schema is removed, then nothing a client sees changed", () => {
    const before = structuredClone(source);
    obj(before, "/components/schemas")["Unused"] = { type: "string" };
    const after = structuredClone(before);
    delete obj(after, "/components/schemas")["Unused"];
    expect(diffDocuments(before, after)).toEqual([]);
  });

  it("when a release adds only examples, then its changelog section has no possibly breaking line", () => {
    const examples = edits.filter((row) => row.rule === WORDS_ONLY && /example/.test(row.edit));
    expect(examples.length).toBeGreaterThanOrEqual(5);
    const next = structuredClone(source) as { info: { version: string } };
    for (const row of examples) row.after(next);
    next.info.version = "9.9.9";
    const text = changelog("Plant Store", [
      { version: "9.9.8", document: source },
      { version: "9.9.9", document: next },
    ]);
    expect(text).toContain("### Descriptions");
    expect(text).not.toMatch(/possibly breaking|Possibly breaking|### Breaking|### Compatible/);
  });
});
