// Sent means declared, declared means sent, on every engine, derived from the document with no
// event named: for every webhook with x-event, an endpoint subscribed to that event alone gets
// exactly one message per write that declares it, naming its event, with a body the webhook's
// schema accepts and the row's key exact, and an endpoint subscribed to the others gets none of
// it; every write the document declares (each create, update and delete with x-table) sends an
// endpoint subscribed to every event exactly the events it declares, none if it declares none,
// and none for a 404. For this API's document and for a document of the tests' own.
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

    const action = (tableName: string, name: string) =>
      data.operations.find((op) => op.table === tableName && op.action === name);
    const tableOf = (name: string) => {
      const table = data.tables.find((t) => t.name === name);
      if (table === undefined) throw new Error(`no table ${name}`);
      return table;
    };
    /** A key of the table's type that no row of these tests has. */
    const absentKey = (row: Row, tableName: string) => {
      const key = row[tableOf(tableName).key];
      return typeof key === "string" ? `${key}-absent` : 987_654_321n;
    };
    // A parent a member names (x-references) is made first, through its own create.
    const parentsOf = async (tableName: string, named: Row) => {
      for (const column of tableOf(tableName).columns.filter((c) => c.references !== undefined)) {
        const parentCreate = action(column.references ?? "", "create");
        const parentTable = data.tables.find((t) => t.name === column.references);
        if (parentCreate === undefined || parentTable === undefined) continue;
        if (named[column.member] === undefined || named[column.member] === null) continue;
        const parentMade = operation(raw, raw.paths, parentCreate.operationId);
        const parent = everyMemberOf(values, values.flat(parentMade.schema), 7);
        parent[parentTable.key] = named[column.member];
        expect((await call("POST", parentMade.path, parent)).statusCode).toBeLessThan(300);
      }
    };
    /**
     * Every member the table's create or update takes (`seed` varies them), its parents stored,
     * and the operation's path.
     */
    const bodyFor = async (tableName: string, write: "create" | "update", seed: number) => {
      const op = action(tableName, write);
      if (op === undefined) throw new Error(`a ${write} of ${tableName}`);
      const found = operation(raw, raw.paths, op.operationId);
      const row = everyMemberOf(values, values.flat(found.schema), seed);
      await parentsOf(tableName, row);
      return { row, path: found.path, operationId: op.operationId };
    };
    /** The path of the row's item for operation `op` (its key in its parameter). */
    const itemOf = (tableName: string, row: Row, op: string) => {
      const table = tableOf(tableName);
      const keyParameter =
        data.operations.find((o) => o.operationId === op)?.keyParameter ?? table.key;
      const key = row[table.key];
      return operation(raw, raw.paths, op).path.replace(
        `{${keyParameter}}`,
        encodeURIComponent(typeof key === "string" ? key : jsonText(key)),
      );
    };
    const claimAll = (owner: string) =>
      served.store.webhooks.claim({
        owner,
        leaseMs: 60_000,
        limit: 1000,
        perEndpoint: 1000,
        free: {},
      });

    it.each(data.events.map((event, at) => ({ ...event, at })))(
      "when a $on of $table is made, then the endpoint subscribed to $type alone gets one $type message, its body valid and its key exact, and nothing else is sent",
      async (event) => {
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
        const { row, path } = await bodyFor(event.table, "create", 1000 + event.at);
        expect((await call("POST", path, row)).statusCode).toBeLessThan(300);
        let sent = row;
        if (event.on === "update") {
          const { row: patch, operationId } = await bodyFor(event.table, "update", 2000 + event.at);
          expect(
            (await call("PATCH", itemOf(event.table, row, operationId), patch)).statusCode,
          ).toBe(200);
          sent = { ...row, ...patch };
        }
        if (event.on === "delete") {
          const remove = action(event.table, "delete");
          if (remove === undefined) throw new Error("a delete");
          const item = itemOf(event.table, row, remove.operationId);
          expect((await call("DELETE", item)).statusCode).toBe(204);
          // A delete of what is not stored (404) sends nothing more.
          expect((await call("DELETE", item)).statusCode).toBe(404);
        }

        const claimed = await claimAll("declared-events");
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

    // Every write the document declares, whether it sends an event or none: an endpoint
    // subscribed to every event gets exactly those the write declares (x-event), once each.
    const writes = data.operations.filter((op) =>
      ["create", "update", "delete"].includes(op.action),
    );
    it.each(writes.map((op, at) => ({ ...op, at })))(
      "when $operationId ($action of $table) is made, then exactly the events it declares are sent, once each; an update or delete of a missing row (404) sends none",
      async ({ table, action: write, operationId, at }) => {
        const everything = await served.store.webhooks.createEndpoint({
          url: "https://everything.example/h",
          description: null,
          events: data.events.map((e) => e.type),
        });
        const { row, path } = await bodyFor(table, "create", 3000 + at);
        let made = () => call("POST", path, row);
        let missing: (() => ReturnType<typeof call>) | undefined;
        if (write !== "create") {
          expect((await call("POST", path, row)).statusCode).toBeLessThan(300);
          const item = itemOf(table, row, operationId);
          const patch = write === "update" ? (await bodyFor(table, "update", 4000 + at)).row : {};
          made = () => (write === "update" ? call("PATCH", item, patch) : call("DELETE", item));
          const gone = itemOf(
            table,
            { ...row, [tableOf(table).key]: absentKey(row, table) },
            operationId,
          );
          missing = () => (write === "update" ? call("PATCH", gone, patch) : call("DELETE", gone));
        }
        // What the row's and its parents' creates sent is not this write's.
        await claimAll(`before-${operationId}`);

        expect((await made()).statusCode).toBeLessThan(300);
        const sent = (await claimAll(`after-${operationId}`)).filter(
          (d) => d.endpointId === everything.id,
        );
        const declared = data.events.filter((e) => e.table === table && e.on === write);
        expect(sent.map((d) => d.event).sort()).toEqual(declared.map((e) => e.type).sort());
        if (missing !== undefined) {
          expect((await missing()).statusCode).toBe(404);
          const none = (await claimAll(`missing-${operationId}`)).filter(
            (d) => d.endpointId === everything.id,
          );
          expect(none).toEqual([]);
        }
        await served.store.webhooks.deleteEndpoint(everything.id);
      },
    );
  });
});
