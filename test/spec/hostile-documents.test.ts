// Developer commands refuse a hostile document the way the server's build does, all by one
// reader (parseYaml): `npm run generate` hands openapi-typescript a parsed object, so no $ref to
// a file or a URL is followed, and every command bounds aliases and nesting alike.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { renderTypes } from "../../scripts/generate.ts";
import { DOCUMENT_LIMITS, DocumentRefused, parseYaml } from "../../src/openapi/document.ts";
import { aliasBomb, deepNesting, withExternalRef } from "../helpers/hostile-yaml.ts";

const dir = mkdtempSync(join(tmpdir(), "plantstore-hostile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string): URL => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return pathToFileURL(path);
};

describe("npm run generate on a hostile document", () => {
  it("when a $ref names a URL, then generate refuses the document and makes no connection", async () => {
    let connections = 0;
    const server = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      const spec = file("url-ref.yaml", withExternalRef(`http://127.0.0.1:${port}/schema.yaml`));

      await expect(renderTypes(spec)).rejects.toThrow(DocumentRefused);
      expect(connections).toBe(0);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("when a $ref names a file outside the project, then generate refuses the document without reading it", async () => {
    const outside = join(dir, "secret.yaml");
    writeFileSync(outside, "Secret:\n  type: string\n  description: not for the types\n");
    const spec = file("file-ref.yaml", withExternalRef(`${outside}#/Secret`));

    await expect(renderTypes(spec)).rejects.toThrow(
      /a \$ref to ".*secret\.yaml#\/Secret": only references inside it/,
    );
  });

  it("when the document is an alias bomb, then generate refuses it", async () => {
    await expect(renderTypes(file("bomb.yaml", aliasBomb()))).rejects.toThrow(
      /Excessive alias count/,
    );
  });

  it("when the document nests past the limit, then generate refuses it", async () => {
    const spec = file("deep.yaml", deepNesting(DOCUMENT_LIMITS.depth + 5));
    await expect(renderTypes(spec)).rejects.toThrow(
      `nests deeper than ${DOCUMENT_LIMITS.depth} levels`,
    );
  });
});

describe("the one reader every command uses", () => {
  it("when a $ref points inside the document, then it is read", () => {
    const parsed = parseYaml('a: {$ref: "#/b"}\nb: {type: string}\n') as { a: { $ref: string } };
    expect(parsed.a.$ref).toBe("#/b");
  });

  it("when a $ref names a place by an escaped token or an index, then it is read", () => {
    for (const text of ['a: {$ref: "#/b~1c~0d"}\nb/c~d: 1\n', 'a: {$ref: "#/b/1"}\nb: [1, 2]\n']) {
      expect(() => parseYaml(text), text).not.toThrow();
    }
  });

  it("when a $ref names nothing in the document, then it is refused, saying which", () => {
    for (const [text, ref] of [
      ['a: {$ref: "#/components/schemas/Missing"}\n', "#/components/schemas/Missing"],
      ['a: {$ref: "#/b/x"}\nb: 3\n', "#/b/x"],
      ['a: {$ref: "#/b/2"}\nb: [1, 2]\n', "#/b/2"],
      ['a: {$ref: "#/b/length"}\nb: [1, 2]\n', "#/b/length"],
      ['a: {$ref: "#/b/01"}\nb: [1, 2]\n', "#/b/01"],
      ['a: {$ref: "#/b~1c"}\nb: {c: 1}\n', "#/b~1c"],
      ['a: {$ref: "#/%ZZ"}\n', "#/%ZZ"],
    ]) {
      expect(() => parseYaml(text ?? ""), text).toThrow(
        new DocumentRefused(
          `the document has a $ref to ${JSON.stringify(ref)}, which names nothing in it`,
        ),
      );
    }
  });

  it("when a member is named $ref in a schema's properties, then it is a member, not a reference", () => {
    const text = "properties:\n  $ref:\n    type: string\n";
    expect(parseYaml(text)).toEqual({ properties: { $ref: { type: "string" } } });
  });

  it("when the nesting is deep but within the limit, then it is read", () => {
    expect(() => parseYaml(deepNesting(DOCUMENT_LIMITS.depth - 2))).not.toThrow();
  });
});
