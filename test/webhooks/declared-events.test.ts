// Sent means declared, declared means sent, on every engine, derived from the document with no
// event named: for every webhook with x-event, an endpoint subscribed to that event alone gets
// exactly one message per write that declares it, naming its event, with a body the webhook's
// schema accepts and the row's key exact; no write sends an event the document does not
// declare; an endpoint subscribed to none of the events gets nothing. For this API's document
// and for a document of the tests' own.
import { Ajv2020 } from "ajv/dist/2020.js";
import type { FastifyInstance } from "fastify";
import type { Document } from "openapi-backend";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.ts";
import { createAuthenticator } from "../../src/auth/authenticator.ts";
import { defaultOpsConfig } from "../../src/config/config.ts";
import { type Schema, SchemaValues } from "../../src/conformance/schema-values.ts";
import { everyMemberOf } from "../../src/conformance/stored-data.ts";
import type { ApiData } from "../../src/openapi/data.ts";
import { loadDocument } from "../../src/openapi/document.ts";
import { jsonText, jsonValue, sameJson } from "../../src/store/json-values.ts";
import type { Store } from "../../src/store/store.ts";
import type { Row } from "../../src/store/tables.ts";
import { AUTH, createTestApp, TOKEN } from "../helpers/app.ts";
import {
  declaredStore,
  FIXTURE_DATA,
  FIXTURE_DOCUMENT,
  fixtureDocument,
} from "../helpers/declared.ts";
import { DATA, storeEngines, type TestStore } from "../helpers/stores.ts";

interface Served {
  app: FastifyInstance;
  store: Store;
  close(): Promise<void>;
}

type Raw = {
  paths: Record<
    string,
    Record<
      string,
      { operationId?: string; requestBody?: { content: Record<string, { schema: Schema }> } }
    >
  >;
  webhooks: Record<
    string,
    Record<
      string,
      { operationId?: string; requestBody?: { content: Record<string, { schema: Schema }> } }
    >
  >;
  components: { schemas: Record<string, Schema> };
};

const documents = [
  {
    name: "this API's document",
    raw: loadDocument() as unknown as Raw,
    data: DATA as ApiData,
    serve: async (engine: (typeof storeEngines)[number]): Promise<Served> => {
      const test = await createTestApp(engine);
      return { app: test.app, store: test.db.store, close: () => test.close() };
    },
  },
  {
    name: "a document of the tests' own",
    raw: FIXTURE_DOCUMENT as unknown as Raw,
    data: FIXTURE_DATA,
    serve: async (engine: (typeof storeEngines)[number]): Promise<Served> => {
      const db: TestStore = await declaredStore(engine);
      const app = await buildApp({
        store: db.store,
        definition: fixtureDocument() as Document,
        authenticator: (log) =>
          createAuthenticator({
            staticTokens: [TOKEN],
            tokens: db.store.tokens,
            jwt: undefined,
            log,
          }),
        logLevel: "silent",
        ops: { ...defaultOpsConfig(), maxEventLoopDelayMs: 0 },
      });
      return {
        app,
        store: db.store,
        close: async () => {
          await app.close();
          await db.destroy();
        },
      };
    },
  },
];

/** The operation's path and JSON body schema, in the raw document. */
function operation(raw: Raw, items: Raw["paths"], operationId: string) {
  for (const [path, item] of Object.entries(items)) {
    for (const found of Object.values(item)) {
      if (found.operationId !== operationId) continue;
      const content = found.requestBody?.content ?? {};
      const schema = Object.entries(content).find(([type]) => type.includes("json"))?.[1]?.schema;
      return { path, schema: schema ?? {} };
    }
  }
  throw new Error(`no operation ${operationId} in ${Object.keys(raw.paths).length} paths`);
}

describe.each(storeEngines)("declared events: $name", (engine) => {
  describe.each(documents)("$name", ({ raw, data, serve }) => {
    let served: Served;
    const values = new SchemaValues(raw.components.schemas);
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: "document", components: raw.components });
    beforeAll(async () => {
      served = await serve(engine);
    });
    afterAll(async () => {
      await served?.close();
    });

    const call = (method: string, url: string, body?: Row) =>
      served.app.inject({
        method: method as "GET",
        url,
        headers: { ...AUTH, "content-type": "application/json" },
        ...(body === undefined ? {} : { payload: jsonText(body) }),
      });

    it.each(data.events.map((event, at) => ({ ...event, at })))(
      "when a $on of $table is made, then the endpoint subscribed to $type alone gets one $type message, its body valid and its key exact, and nothing else is sent",
      async (event) => {
        const table = data.tables.find((t) => t.name === event.table);
        const action = (name: string) =>
          data.operations.find((op) => op.table === event.table && op.action === name);
        const create = action("create");
        if (table === undefined || create === undefined) throw new Error("a table with a create");
        const subscribed = await served.store.webhooks.createEndpoint({
          url: "https://subscribed.example/h",
          description: null,
          events: [event.type],
        });
        const others = data.events.map((e) => e.type).filter((type) => type !== event.type);
        const bystander = await served.store.webhooks.createEndpoint({
          url: "https://bystander.example/h",
          description: null,
          events: others.length > 0 ? others : ["neverSent"],
        });
        const made = operation(raw, raw.paths, create.operationId);
        const row = everyMemberOf(values, values.flat(made.schema), 1000 + event.at);
        // A parent a member names (x-references) is made first, through its own create.
        const parentsOf = async (named: Row) => {
          for (const column of table.columns.filter((c) => c.references !== undefined)) {
            const parentCreate = data.operations.find(
              (op) => op.table === column.references && op.action === "create",
            );
            const parentTable = data.tables.find((t) => t.name === column.references);
            if (parentCreate === undefined || parentTable === undefined) continue;
            if (named[column.member] === undefined || named[column.member] === null) continue;
            const parentMade = operation(raw, raw.paths, parentCreate.operationId);
            const parent = everyMemberOf(values, values.flat(parentMade.schema), 7);
            parent[parentTable.key] = named[column.member];
            expect((await call("POST", parentMade.path, parent)).statusCode).toBeLessThan(300);
          }
        };
        await parentsOf(row);
        expect((await call("POST", made.path, row)).statusCode).toBeLessThan(300);
        const keyParameter = (op: string) =>
          data.operations.find((o) => o.operationId === op)?.keyParameter ?? table.key;
        const item = (op: string) =>
          operation(raw, raw.paths, op).path.replace(
            `{${keyParameter(op)}}`,
            encodeURIComponent(
              typeof row[table.key] === "string"
                ? (row[table.key] as string)
                : jsonText(row[table.key]),
            ),
          );
        let sent = row;
        if (event.on === "update") {
          const update = action("update");
          if (update === undefined) throw new Error("an update");
          const patched = operation(raw, raw.paths, update.operationId);
          const patch = everyMemberOf(values, values.flat(patched.schema), 2000 + event.at);
          await parentsOf(patch);
          expect((await call("PATCH", item(update.operationId), patch)).statusCode).toBe(200);
          sent = { ...row, ...patch };
        }
        if (event.on === "delete") {
          const remove = action("delete");
          if (remove === undefined) throw new Error("a delete");
          expect((await call("DELETE", item(remove.operationId))).statusCode).toBe(204);
          // A delete of what is not stored (404) sends nothing more.
          expect((await call("DELETE", item(remove.operationId))).statusCode).toBe(404);
        }

        const claimed = await served.store.webhooks.claim({
          owner: "declared-events",
          leaseMs: 60_000,
          limit: 1000,
          perEndpoint: 1000,
          free: {},
        });
        const declared = new Set(data.events.map((e) => e.type));
        expect(claimed.filter((d) => !declared.has(d.event))).toEqual([]);
        const mine = claimed.filter((d) => d.endpointId === subscribed.id);
        expect(mine.map((d) => d.event)).toEqual([event.type]);
        const webhook = Object.values(raw.webhooks)
          .flatMap((item) => Object.values(item))
          .find((op) => (op as { "x-event"?: { type?: string } })["x-event"]?.type === event.type);
        const schema = Object.values(webhook?.requestBody?.content ?? {})[0]?.schema ?? {};
        const valid = ajv.compile({
          ...schema,
          $ref: schema.$ref === undefined ? undefined : `document${schema.$ref}`,
        });
        const body = mine[0]?.body ?? "";
        expect(valid(JSON.parse(body)), JSON.stringify(valid.errors)).toBe(true);
        const message = jsonValue(body) as Row;
        for (const member of event.members) {
          if (sent[member] !== undefined)
            expect(sameJson(message[member], sent[member]), member).toBe(true);
        }
        expect(
          claimed.filter((d) => d.endpointId === bystander.id && d.event === event.type),
        ).toEqual([]);
        for (const endpoint of [subscribed, bystander]) {
          await served.store.webhooks.deleteEndpoint(endpoint.id);
        }
      },
    );
  });
});
