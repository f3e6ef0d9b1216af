// The benchmark's ceilings: a bare Fastify route with the same NewPlant schema (from the
// YAML) and a bearer check, and no store. Whatever plantstore does on top of this is what
// a durable create costs. With BENCH_SQLITE_PATH, the read ceiling instead: GET /plants/:id
// with the same bearer check and one prepared better-sqlite3 get on that file. Run as a
// process of its own by scripts/bench.ts and scripts/bench/paired.ts.
import Database from "better-sqlite3";
import Fastify from "fastify";
import { loadDocument } from "../../src/openapi/document.ts";

const port = Number(process.env["PORT"] ?? "0");
const token = process.env["BENCH_TOKEN"] ?? "";

/** The YAML's NewPlant with its local $refs inlined, as plain JSON Schema. */
function newPlantSchema(): unknown {
  const document = loadDocument() as { components: { schemas: Record<string, unknown> } };
  const inline = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(inline);
    if (typeof value !== "object" || value === null) return value;
    const ref = (value as { $ref?: string }).$ref;
    if (ref !== undefined) return inline(document.components.schemas[ref.split("/").pop() ?? ""]);
    return Object.fromEntries(
      Object.entries(value)
        // Examples and x- extensions are for readers and generators, not for a validator.
        .filter(([key]) => key !== "example" && !key.startsWith("x-"))
        .map(([k, v]) => [k, inline(v)]),
    );
  };
  return inline(document.components.schemas["NewPlant"]);
}

const app = Fastify({
  ajv: { customOptions: { formats: { int64: true }, coerceTypes: false } },
});
const expected = `Bearer ${token}`;
app.post(
  "/plants",
  {
    schema: { body: newPlantSchema() as object },
    onRequest: async (request, reply) => {
      if (request.headers.authorization !== expected) {
        await reply.code(401).send({ error: 401, message: "unauthorized" });
      }
    },
  },
  async (request) => {
    const { name, tag } = request.body as { name: string; tag?: string };
    return tag === undefined ? { name } : { name, tag };
  },
);
const sqlitePath = process.env["BENCH_SQLITE_PATH"];
if (sqlitePath !== undefined) {
  const select = new Database(sqlitePath, { readonly: true })
    .prepare<[bigint], { id: bigint; name: string; tag: string | null }>(
      "SELECT id, name, tag FROM plants WHERE id = ?",
    )
    .safeIntegers(true);
  app.get("/plants/:id", async (request, reply) => {
    if (request.headers.authorization !== expected) {
      return reply.code(401).send({ error: 401, message: "unauthorized" });
    }
    let id: bigint;
    try {
      id = BigInt((request.params as { id: string }).id);
    } catch {
      return reply.code(400).send({ error: 400, message: "bad id" });
    }
    const row = select.get(id);
    if (row === undefined) return reply.code(404).send({ error: 404, message: "no such plant" });
    const tag = row.tag === null ? "" : `,"tag":${JSON.stringify(row.tag)}`;
    return reply
      .type("application/json; charset=utf-8")
      .send(`{"id":${row.id},"name":${JSON.stringify(row.name)}${tag}}`);
  });
}
app.get("/healthz", async () => ({ status: "ok" }));
await app.listen({ port, host: "127.0.0.1" });
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
