// The steps of a conformance run (src/conformance/steps.ts) against a deployment the test
// scripts: which examples are sent and how, what a credentials check holds a refusal to, how
// exact ids are created, read back and listed, what the probes may create, and what the stored
// data check sends. Each finding is asserted as the line the report prints.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ConformanceOptions, DEFAULT_OPTIONS } from "../../src/conformance/options.ts";
import type { Check, RunResult } from "../../src/conformance/results.ts";
import { runConformance } from "../../src/conformance/run.ts";
import {
  type Script,
  type SeenRequest,
  useScriptedDeployment,
} from "../helpers/scripted-deployment.ts";
import {
  FERN,
  operationAt,
  type ThingsDocument,
  TOKEN,
  thingsAndTagsDocument,
  thingsDocument,
  WEAK_TOKEN,
} from "../helpers/things-document.ts";

const deployment = useScriptedDeployment();
const dir = mkdtempSync(join(tmpdir(), "plantstore-steps-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The first id of --id-range: past 2^53, so a double cannot hold it. */
const FIRST = DEFAULT_OPTIONS.idRange.from;

/** The run's options: the token unless `more` says `token: null`. */
const options = ({
  token = TOKEN,
  ...more
}: Partial<Omit<ConformanceOptions, "token">> & { token?: string | null }): ConformanceOptions => ({
  ...DEFAULT_OPTIONS,
  baseUrl: deployment.url(),
  ...(token === null ? {} : { token }),
  probesPerOperation: 0,
  // No wait between requests: the deployment is in this process.
  rate: 1_000_000,
  ...more,
});

/** The document written to a file, for a --document run. */
const documentFile = (document: ThingsDocument): { file: string } => {
  const file = join(dir, `document-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(document));
  return { file };
};

const named = (run: RunResult, prefix: string): Check[] =>
  run.checks.filter((check) => check.name.startsWith(prefix));
const brokenOf = (run: RunResult, operationId: string, name: string): string[][] =>
  run.checks
    .filter((check) => check.operationId === operationId && check.name === name)
    .map((check) => check.broken);
const failures = (run: RunResult): string[] =>
  run.checks
    .filter((check) => check.broken.length > 0)
    .map((check) => `${check.operationId} ${check.name}: ${check.broken.join("; ")}`);

const json = (status: number, body: unknown) => ({ status, body });
/** A JSON body written as it is (exact int64 digits). */
const raw = (status: number, text: string) => ({ status, body: text, type: "application/json" });
const idIn = (url: string) => /^\/things\/(\d+)$/.exec(url)?.[1];

/** A deployment that conforms to thingsDocument() and keeps nothing. */
const conforming: Script = ({ method, url, headers, body }) => {
  if (url === "/openapi.json") return undefined;
  const token = headers.authorization;
  if (token === undefined) {
    return json(401, { message: url === "/things/7" ? "no token" : "a token is needed" });
  }
  if (token !== `Bearer ${TOKEN}`) return json(403, { message: "a scope is missing" });
  const id = idIn(url);
  if (method === "GET" && url === "/count") return { status: 200, body: "3", type: "text/plain" };
  if (method === "GET" && url.startsWith("/things?")) return json(200, []);
  if (method === "GET" && url === "/things") return json(200, []);
  if (method === "POST" && url === "/things") return raw(201, body);
  if (method === "PATCH" && id === "7") return json(200, { id: 7, name: "fir" });
  if (method === "DELETE" && body !== "") return json(400, { message: "no body is taken" });
  if (method === "DELETE" && id !== undefined) return { status: 204 };
  if (method === "GET" && id === "9") return { status: 300 };
  if (method === "GET" && (id === "404" || id === "8")) {
    return json(404, { message: `no thing ${id}` });
  }
  if (method === "GET" && id === "7") return json(200, FERN);
  if (method === "GET" && id !== undefined) return raw(200, `{"id":${id},"name":"fern"}`);
  return undefined;
};

/** `answer` to `method` `url` sent with the token. */
const at =
  (method: string, url: string, answer: ReturnType<Script>): Script =>
  (request) =>
    request.method === method &&
    request.url === url &&
    request.headers.authorization === `Bearer ${TOKEN}`
      ? answer
      : undefined;

/** `answer` to `method` `url` sent without a token. */
const withoutToken =
  (method: string, url: string, answer: ReturnType<Script>): Script =>
  (request) =>
    request.method === method && request.url === url && request.headers.authorization === undefined
      ? answer
      : undefined;

const sent = (method: string, url: string): SeenRequest[] =>
  deployment.seen.filter((request) => request.method === method && request.url === url);

describe("examples", () => {
  it("when the run is fresh, then every example of the chosen operations is sent in document order, its setup first, and each passes", async () => {
    deployment.serve(thingsDocument(), conforming);

    const run = await runConformance(
      options({
        fresh: true,
        allowWrites: true,
        operations: ["createThing", "getThing", "countThings"],
      }),
    );

    expect(failures(run)).toEqual([]);
    expect(
      run.checks
        .filter((check) => check.name.startsWith("example ") || check.name.endsWith("(setup)"))
        .map((check) => `${check.operationId} ${check.name}`),
    ).toEqual([
      "createThing example fern",
      "createThing example unsigned",
      "getThing example missing",
      "getThing example fern",
      "getThing gone (setup)",
      "getThing gone (setup)",
      "getThing example gone",
      "getThing example several",
      "getThing example far",
      "getThing example anonymous",
      "countThings example count",
    ]);
    const [setupWrite, setupDelete] = named(run, "gone (setup)").map((check) => check.request);
    expect(setupWrite).toEqual({
      method: "POST",
      target: "/things",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: '{"id":8,"name":"moss"}',
    });
    expect(setupDelete).toEqual({
      method: "DELETE",
      target: "/things/8",
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(named(run, "example anonymous")[0]?.request).toEqual({
      method: "GET",
      target: "/things/7",
      headers: {},
    });
  });

  it("when an example's body has a JSON media type of its own, then it is sent with that type and the token", async () => {
    deployment.serve(thingsDocument(), conforming);

    const run = await runConformance(
      options({ fresh: true, allowWrites: true, operations: ["updateThing"] }),
    );

    expect(failures(run)).toEqual([]);
    expect(named(run, "example rename").map((check) => check.request)).toEqual([
      {
        method: "PATCH",
        target: "/things/7",
        headers: {
          authorization: `Bearer ${TOKEN}`,
          "content-type": "application/merge-patch+json",
        },
        body: '{"name":"fir"}',
      },
    ]);
  });

  it("when an example's body is for an operation that takes none, then it is sent as JSON", async () => {
    deployment.serve(thingsDocument(), conforming);

    const run = await runConformance(
      options({ fresh: true, allowWrites: true, operations: ["deleteThing"] }),
    );

    expect(failures(run)).toEqual([]);
    expect(named(run, "example ").map((check) => check.request)).toEqual([
      {
        method: "DELETE",
        target: "/things/7",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: "{}",
      },
    ]);
  });

  it("when the run has no token, then only the examples sent without one run", async () => {
    deployment.serve(thingsDocument(), conforming);

    const run = await runConformance(
      options({ token: null, fresh: true, allowWrites: true, operations: ["getThing"] }),
    );

    expect(failures(run)).toEqual([]);
    expect(named(run, "example ").map((check) => check.name)).toEqual(["example anonymous"]);
    expect(named(run, "gone (setup)")).toEqual([]);
  });

  it("when the run is fresh but may not write, then the write examples and those whose setup writes are left out, and nothing fails", async () => {
    deployment.serve(thingsDocument(), conforming);

    const run = await runConformance(
      options({ fresh: true, operations: ["createThing", "getThing"] }),
    );

    expect(failures(run)).toEqual([]);
    expect(named(run, "example ").map((check) => check.name)).toEqual([
      "example missing",
      "example fern",
      "example several",
      "example far",
      "example anonymous",
    ]);
    expect(deployment.seen.filter((request) => request.method !== "GET")).toEqual([]);
  });

  it("when the deployment has data of its own, then only reads answered 3xx or 4xx without setup are compared", async () => {
    deployment.serve(thingsDocument(), conforming);

    const run = await runConformance(
      options({ allowWrites: true, operations: ["createThing", "getThing"] }),
    );

    expect(failures(run)).toEqual([]);
    expect(named(run, "example ").map((check) => check.name)).toEqual([
      "example missing",
      "example several",
      "example anonymous",
    ]);
    expect(named(run, "gone (setup)")).toEqual([]);
  });

  it("when an example is answered with another status or another body, then each is named", async () => {
    const document = thingsDocument();
    const long = { id: 7, name: "fern ".repeat(80) };
    const get = operationAt(document, "/things/{thingId}", "get");
    Object.assign(get, {
      responses: {
        ...(get["responses"] as object),
        "200": {
          description: "the thing",
          content: { "application/json": { examples: { fern: { value: long } } } },
        },
      },
    });
    deployment.serve(
      document,
      at("GET", "/things/404", json(200, { id: 404, name: "not missing" })),
      at("GET", "/things/7", json(200, { id: 7, name: "oak" })),
      at("GET", "/things/8", { status: 404, body: "no thing 8", type: "application/json" }),
      conforming,
    );

    const run = await runConformance(
      options({ fresh: true, allowWrites: true, operations: ["getThing"] }),
    );

    expect(brokenOf(run, "getThing", "example missing")).toEqual([
      ["the example answers 404, the deployment 200"],
    ]);
    expect(brokenOf(run, "getThing", "example fern")).toEqual([
      [`the body differs from the example: ${JSON.stringify(long).slice(0, 300)}`],
    ]);
    // Not JSON: the contract check says so; it is not compared with the example.
    const gone = brokenOf(run, "getThing", "example gone").flat();
    expect(gone.length).toBeGreaterThan(0);
    expect(gone.filter((line) => line.startsWith("the body differs"))).toEqual([]);
  });
});

describe("credentials", () => {
  it("when a request without a token or a token without the scope is let through, then the status is named with the scopes", async () => {
    const document = thingsDocument();
    operationAt(document, "/count", "get")["security"] = [];
    deployment.serve(
      document,
      ({ method, url, headers }) => {
        if (headers.authorization !== undefined) return undefined;
        if (method === "POST") return json(201, FERN);
        return method === "GET" && url === "/things/404" ? json(403, { message: "no" }) : undefined;
      },
      ({ method, headers }) =>
        method === "POST" && headers.authorization === `Bearer ${WEAK_TOKEN}`
          ? json(400, { message: "invalid" })
          : undefined,
      conforming,
    );

    const run = await runConformance(
      options({
        allowWrites: true,
        tokenWithoutScope: WEAK_TOKEN,
        operations: ["listThings", "createThing", "getThing", "deleteThing", "countThings"],
      }),
    );

    expect(brokenOf(run, "listThings", "no token")).toEqual([[]]);
    // Open in the document: nothing to refuse.
    expect(brokenOf(run, "countThings", "no token")).toEqual([]);
    expect(brokenOf(run, "listThings", "token without the scope")).toEqual([[]]);
    expect(brokenOf(run, "createThing", "no token")).toEqual([
      ["a request without a token is answered 201, not 401"],
    ]);
    expect(brokenOf(run, "createThing", "token without the scope")).toEqual([
      ["a token without things:read, things:write is answered 400, not 403"],
    ]);
    expect(brokenOf(run, "getThing", "no token")).toEqual([
      ["a request without a token is answered 403, not 401"],
    ]);
    // getThing names no scope: a token without scopes is not sent to it.
    expect(brokenOf(run, "getThing", "token without the scope")).toEqual([]);
    // An invalid body for a write: if it is let through, nothing is written.
    expect(
      run.checks.find((check) => check.name === "no token" && check.operationId === "createThing")
        ?.request,
    ).toEqual({
      method: "POST",
      target: "/things",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(
      run.checks.find((check) => check.name === "no token" && check.operationId === "getThing")
        ?.request,
    ).toEqual({
      method: "GET",
      target: "/things/404",
      headers: {},
    });
    // A write that takes no body is sent none.
    expect(
      run.checks.find((check) => check.name === "no token" && check.operationId === "deleteThing")
        ?.request,
    ).toEqual({ method: "DELETE", target: "/things/404", headers: {} });
  });

  it("when the document is the deployment's own, then no operation is taken as served open, and the document is read once", async () => {
    const document = thingsDocument();
    operationAt(document, "/things/{thingId}", "get")["security"] = [{ keyHeader: [] }];
    deployment.serve(document, withoutToken("GET", "/things/404", json(200, FERN)), conforming);

    const run = await runConformance(options({ operations: ["getThing"] }));

    expect(brokenOf(run, "getThing", "no token")).toEqual([
      ["a request without a token is answered 200, not 401"],
    ]);
    expect(sent("GET", "/openapi.json")).toHaveLength(1);
    expect(run.notes.filter((note) => note.includes("served open"))).toEqual([]);
  });

  it("when a --document file secures operations with schemes of its own, then only those the deployment publishes as open may answer without a token", async () => {
    const file = thingsDocument();
    const secure = (path: string, method: string, security: unknown[]) => {
      operationAt(file, path, method)["security"] = security;
    };
    // Schemes of its own: open where the deployment publishes them so.
    secure("/things/{thingId}", "get", [{ keyHeader: [] }, { cookieKey: [] }]);
    secure("/things", "get", [{ keyHeader: [] }]);
    // The document's default among them: never open.
    secure("/things/{thingId}", "delete", [{ bearer: [] }, { keyHeader: [] }]);
    // A token optional: no scheme of its own.
    secure("/things", "post", [{}]);
    // Published with a requirement, or with the default one.
    secure("/count", "get", [{ keyHeader: [] }]);
    secure("/things/{thingId}", "patch", [{ keyHeader: [] }]);
    const published = thingsDocument();
    for (const [path, method] of [
      ["/things/{thingId}", "get"],
      ["/things", "get"],
      ["/things/{thingId}", "delete"],
      ["/things", "post"],
    ] as const) {
      operationAt(published, path, method)["security"] = [];
    }
    operationAt(published, "/count", "get")["security"] = [{ keyHeader: [] }];
    deployment.serve(
      published,
      ({ headers, method, url }) => {
        if (headers.authorization !== undefined) return undefined;
        // Served open, but not a success: 300 is the first status that is not one.
        if (url === "/things") return method === "GET" ? { status: 300 } : json(201, FERN);
        if (url === "/things/404") return method === "DELETE" ? { status: 204 } : json(200, FERN);
        if (url === "/count") return { status: 200, body: "3", type: "text/plain" };
        if (url === "/things/7") return json(200, FERN);
        return undefined;
      },
      conforming,
    );

    const run = await runConformance(
      options({
        document: documentFile(file),
        allowWrites: true,
        operations: [
          "listThings",
          "createThing",
          "getThing",
          "updateThing",
          "deleteThing",
          "countThings",
        ],
      }),
    );

    const noToken = (operationId: string) => brokenOf(run, operationId, "no token");
    expect(noToken("getThing")).toEqual([[]]);
    expect(noToken("listThings")).toEqual([
      [
        "status not documented (listThings does not document it)",
        "a request without a token is answered 300, not 401",
      ],
    ]);
    expect(noToken("deleteThing")).toEqual([
      ["a request without a token is answered 204, not 401"],
    ]);
    expect(noToken("createThing")).toEqual([
      ["a request without a token is answered 201, not 401"],
    ]);
    expect(noToken("countThings")).toEqual([
      ["a request without a token is answered 200, not 401"],
    ]);
    expect(noToken("updateThing")).toEqual([
      ["a request without a token is answered 200, not 401"],
    ]);
    expect(run.notes.filter((note) => note.includes("served open"))).toEqual([
      "listThings is served open, as the deployment's /openapi.json says (keyHeader not configured)",
      "getThing is served open, as the deployment's /openapi.json says (keyHeader, cookieKey not configured)",
    ]);
    expect(sent("GET", "/openapi.json")).toHaveLength(1);
  });

  it("when the deployment's own document is answered with an error, then what it says is not taken", async () => {
    const file = thingsDocument();
    operationAt(file, "/things/{thingId}", "get")["security"] = [{ keyHeader: [] }];
    const published = thingsDocument();
    operationAt(published, "/things/{thingId}", "get")["security"] = [];
    deployment.serve(
      file,
      withoutToken("GET", "/openapi.json", json(500, published)),
      withoutToken("GET", "/things/404", json(200, FERN)),
      conforming,
    );

    const run = await runConformance(
      options({ document: documentFile(file), operations: ["getThing"] }),
    );

    expect(brokenOf(run, "getThing", "no token")).toEqual([
      ["a request without a token is answered 200, not 401"],
    ]);
    expect(run.notes.filter((note) => note.includes("served open"))).toEqual([]);
  });
});

const COLLECTION = ["listThings", "getThing", "createThing", "deleteThing"];
const X = String(FIRST);

describe("exact ids", () => {
  it("when the deployment keeps ids exactly, then one is created past 2^53, read back, and three listed ones read back", async () => {
    const listed = [X, "9007199254740995", "9007199254740997", "9007199254740999"];
    deployment.serve(
      thingsDocument(),
      at("GET", "/things", raw(200, `[${listed.map((id) => `{"id":${id},"name":"fern"}`)}]`)),
      conforming,
    );

    const run = await runConformance(options({ allowWrites: true, operations: COLLECTION }));

    expect(failures(run)).toEqual([]);
    const ids = run.checks.filter(
      (check) =>
        check.name.startsWith("create id") ||
        check.name.startsWith("id ") ||
        check.name === "list for ids" ||
        check.name === "delete what the run created",
    );
    expect(ids.map((check) => `${check.operationId} ${check.name}`)).toEqual([
      `createThing create id ${X} (past 2^53)`,
      `getThing id ${X} reads back (created)`,
      "listThings list for ids",
      `getThing id ${X} reads back (listed)`,
      "getThing id 9007199254740995 reads back (listed)",
      "getThing id 9007199254740997 reads back (listed)",
      "deleteThing delete what the run created",
    ]);
    expect(ids.map((check) => check.request)).toEqual([
      {
        method: "POST",
        target: "/things",
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        body: `{"id":${X},"name":"fern"}`,
      },
      ...[X, X, "9007199254740995", "9007199254740997"].flatMap((id, index) => [
        ...(index === 1
          ? [{ method: "GET", target: "/things", headers: { authorization: `Bearer ${TOKEN}` } }]
          : []),
        { method: "GET", target: `/things/${id}`, headers: { authorization: `Bearer ${TOKEN}` } },
      ]),
      { method: "DELETE", target: `/things/${X}`, headers: { authorization: `Bearer ${TOKEN}` } },
    ]);
  });

  it("when ids come back rounded or not at all, then each is named", async () => {
    const rounded = String(Number(X));
    deployment.serve(
      thingsDocument(),
      at("POST", "/things", raw(201, `{"id":${rounded},"name":"fern"}`)),
      at("GET", `/things/${X}`, raw(200, `{"id":${rounded},"name":"fern"}`)),
      at(
        "GET",
        "/things",
        raw(200, `[{"id":9007199254740995,"name":"fern"},{"id":9007199254740997,"name":"fern"}]`),
      ),
      at("GET", "/things/9007199254740995", json(404, { message: "no thing" })),
      at("GET", "/things/9007199254740997", json(200, { name: "fern" })),
      conforming,
    );

    const run = await runConformance(options({ allowWrites: true, operations: COLLECTION }));

    expect(brokenOf(run, "createThing", `create id ${X} (past 2^53)`)).toEqual([
      [`created id ${X} is answered as ${rounded}`],
    ]);
    expect(brokenOf(run, "getThing", `id ${X} reads back (created)`)).toEqual([
      [`id ${X} (created) reads back as ${rounded}`],
    ]);
    expect(brokenOf(run, "getThing", "id 9007199254740995 reads back (listed)")).toEqual([
      ["id 9007199254740995 (listed) is answered 404"],
    ]);
    const [noId] = brokenOf(run, "getThing", "id 9007199254740997 reads back (listed)");
    expect(noId?.filter((line) => line.startsWith("id "))).toEqual([
      "id 9007199254740997 (listed) reads back as no id",
    ]);
  });

  // 300: the first status that is not a success.
  it.each([300, 409])(
    "when the create is answered %i, then nothing is read back or deleted, whatever id its answer names",
    async (status) => {
      deployment.serve(
        thingsDocument(),
        at("POST", "/things", json(status, { message: "taken", id: 5 })),
        conforming,
      );

      const run = await runConformance(options({ allowWrites: true, operations: COLLECTION }));

      const [create] = brokenOf(run, "createThing", `create id ${X} (past 2^53)`);
      expect(create?.filter((line) => line.startsWith("created id"))).toEqual([]);
      expect(named(run, `id ${X} reads back`)).toEqual([]);
      expect(
        deployment.seen.filter(
          (request) => request.method === "DELETE" && request.headers.authorization !== undefined,
        ),
      ).toEqual([]);
    },
  );

  it("when the create's answer names no id, then it is not said to name another", async () => {
    deployment.serve(
      thingsDocument(),
      at("POST", "/things", json(201, { name: "fern" })),
      conforming,
    );

    const run = await runConformance(options({ allowWrites: true, operations: COLLECTION }));

    const [create] = brokenOf(run, "createThing", `create id ${X} (past 2^53)`);
    expect(create?.filter((line) => line.startsWith("created id"))).toEqual([]);
    expect(brokenOf(run, "getThing", `id ${X} reads back (created)`)).toEqual([[]]);
  });

  it("when --id-range is used up, then no id is created", async () => {
    deployment.serve(thingsDocument(), conforming);

    const run = await runConformance(
      options({
        allowWrites: true,
        operations: COLLECTION,
        idRange: { from: FIRST, to: FIRST - 1n },
      }),
    );

    expect(named(run, "create id")).toEqual([]);
    expect(named(run, "delete what the run created")).toEqual([]);
  });

  it("when the run has no token, then the secured list is not read for ids", async () => {
    deployment.serve(thingsDocument(), conforming);

    const run = await runConformance(options({ token: null, operations: COLLECTION }));

    expect(named(run, "list for ids")).toEqual([]);
    expect(named(run, "id ")).toEqual([]);
  });
});

describe("probes", () => {
  it("when a create has no example to make an exact id from, then the probes' valid creates take the ids of --id-range from its first, and are deleted", async () => {
    const document = thingsDocument();
    const create = operationAt(document, "/things", "post");
    create["requestBody"] = {
      content: {
        "application/json": {
          schema: (create["requestBody"] as { content: Record<string, { schema: unknown }> })
            .content["application/json"]?.schema,
        },
      },
    };
    deployment.serve(document, conforming);

    const run = await runConformance(
      options({ allowWrites: true, operations: COLLECTION, probesPerOperation: 6 }),
    );

    expect(named(run, "create id")).toEqual([]);
    const valid = run.checks.filter(
      (check) => check.operationId === "createThing" && check.name === "probe (valid)",
    );
    expect(valid.length).toBeGreaterThan(0);
    expect(valid[0]?.request.body).toContain(`"id":${X}`);
    expect(
      named(run, "delete what the run created").map((check) => check.request.target),
    ).toContain(`/things/${X}`);
  });

  it("when a collection has no delete, then its create gets no valid probe, and the notes say why", async () => {
    deployment.serve(thingsDocument(), conforming);

    const run = await runConformance(
      options({
        allowWrites: true,
        operations: ["listThings", "getThing", "createThing"],
        probesPerOperation: 6,
      }),
    );

    expect(named(run, "probe (valid)").filter((check) => check.request.method === "POST")).toEqual(
      [],
    );
    expect(run.notes).toContain(
      "createThing: no valid probes, as what it writes has no id to keep in --id-range",
    );
  });

  it("when the run has no token, then the secured operations are not probed", async () => {
    const document = thingsDocument();
    operationAt(document, "/count", "get")["security"] = [];
    deployment.serve(document, conforming);

    const run = await runConformance(
      options({ token: null, operations: ["getThing", "countThings"], probesPerOperation: 3 }),
    );

    const probed = new Set(named(run, "probe (").map((check) => check.operationId));
    expect([...probed]).toEqual(["countThings"]);
  });
});

/**
 * A deployment that keeps the things it is sent, by their exact id, and lists those a filter on
 * name matches over two pages: the first names the second in its Link header.
 */
function keepingThings(): Script {
  const kept = new Map<string, string>();
  return ({ method, url, body, headers }) => {
    if (headers.authorization !== `Bearer ${TOKEN}`) return undefined;
    const id = idIn(url);
    if (method === "POST" && url === "/things") {
      const made = /"id":(\d+)/.exec(body)?.[1] ?? "";
      kept.set(made, body);
      return raw(201, body);
    }
    const thing = id === undefined ? undefined : kept.get(id);
    if (method === "GET" && thing !== undefined) return raw(200, thing);
    if (method === "DELETE" && id !== undefined) {
      kept.delete(id);
      return { status: 204 };
    }
    const filter = /^\/things\?name=([^&]*)(&page=2)?$/.exec(url);
    if (method === "GET" && filter !== null) {
      if (filter[2] === undefined) {
        return { ...json(200, []), headers: { link: `<${url}&page=2>; rel="next"` } };
      }
      const name = decodeURIComponent(filter[1] ?? "");
      const matching = [...kept.values()].filter(
        (text) => (JSON.parse(text) as { name?: string }).name === name,
      );
      return raw(200, `[${matching.join(",")}]`);
    }
    return undefined;
  };
}

describe("stored data", () => {
  it("when the deployment keeps what it is sent, then each table with keys to give is checked, filters read to the last page, and a table without says so once", async () => {
    deployment.serve(thingsAndTagsDocument(), keepingThings(), conforming);

    const run = await runConformance(options({ allowWrites: true }));

    expect(failures(run)).toEqual([]);
    const writes = named(run, "stored data: POST /things");
    expect(writes.length).toBeGreaterThan(0);
    for (const { request } of writes) {
      expect(request.headers).toEqual({
        authorization: `Bearer ${TOKEN}`,
        "content-type": "application/json",
      });
      expect(BigInt(/"id":(\d+)/.exec(request.body ?? "")?.[1] ?? 0)).toBeGreaterThan(FIRST);
    }
    const reads = named(run, "stored data: GET /things/");
    expect(reads.length).toBeGreaterThan(0);
    for (const { request } of reads) {
      expect(request.headers).toEqual({ authorization: `Bearer ${TOKEN}` });
    }
    expect(
      deployment.seen.filter((request) => request.url.endsWith("&page=2")).length,
    ).toBeGreaterThan(0);
    expect(named(run, "stored data: POST /tags")).toEqual([]);
    expect(run.notes.filter((note) => note.startsWith("tags not checked"))).toEqual([
      "tags not checked for dropped members: no key of tags to write",
    ]);
  });

  it("when a member does not read back as sent, then the finding names it and its table", async () => {
    const keeping = keepingThings();
    // Keeps every thing, but answers each read back with its name changed.
    const renaming: Script = (request) => {
      const answer = keeping(request);
      if (request.method !== "GET" || idIn(request.url) === undefined || answer === undefined) {
        return answer;
      }
      return raw(200, String(answer.body).replace(/"name":"[^"]*"/, '"name":"renamed"'));
    };
    deployment.serve(thingsAndTagsDocument(), renaming, conforming);

    const run = await runConformance(options({ allowWrites: true }));

    const kept = run.checks.filter((check) => check.operationId === "(stored data)");
    expect(kept.map(({ name, request, answer }) => ({ name, request, answer }))).toEqual([
      {
        name: "every member kept",
        request: { method: "-", target: "", headers: {} },
        answer: { status: 0, headers: {}, body: "" },
      },
    ]);
    expect(kept[0]?.broken).toHaveLength(1);
    expect(kept[0]?.broken[0]).toMatch(
      /^after the create, things\.name came back as "renamed", not as sent \(".*"\): the member is dropped or changed$/,
    );
  });

  it("when the run may not write, then stored data is not checked", async () => {
    deployment.serve(thingsAndTagsDocument(), keepingThings(), conforming);

    const run = await runConformance(options({}));

    expect(failures(run)).toEqual([]);
    expect(named(run, "stored data: ")).toEqual([]);
  });

  it("when the chosen operations leave out a table's create, then the table is not written", async () => {
    deployment.serve(thingsAndTagsDocument(), keepingThings(), conforming);

    const run = await runConformance(
      options({ allowWrites: true, operations: ["listThings", "getThing", "deleteThing"] }),
    );

    expect(named(run, "stored data: ")).toEqual([]);
    expect(sent("POST", "/things")).toEqual([]);
  });

  it("when the document declares its data wrongly, then the stored data is not checked and the note says why", async () => {
    const document = thingsAndTagsDocument();
    const schemas = document.components["schemas"] as Record<string, Record<string, unknown>>;
    if (schemas["Tag"] !== undefined) schemas["Tag"]["x-table"] = { name: "Tags", key: "label" };
    deployment.serve(document, keepingThings(), conforming);

    const run = await runConformance(options({ allowWrites: true }));

    expect(named(run, "stored data: ")).toEqual([]);
    expect(run.notes.filter((note) => note.startsWith("stored data"))).toEqual([
      "stored data not checked: Tag: x-table's name \"Tags\" must be lower case letters, digits and _, and not a table of the service's own",
    ]);
  });
});
