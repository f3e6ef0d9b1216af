import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  generatedPath,
  renderSettingsDoc,
  renderTypes,
  settingsDocPath,
} from "../../scripts/generate.ts";

describe("generated types", () => {
  it("when openapi/plants.yaml changes, then generated/plants.ts must be regenerated (npm run generate)", async () => {
    const committed = readFileSync(generatedPath, "utf8");
    expect(
      committed === (await renderTypes()),
      "generated/plants.ts is stale: run `npm run generate`",
    ).toBe(true);
  });

  it("when src/config/settings.ts changes, then docs/operating.md's table of settings must be rewritten (npm run generate)", () => {
    const page = readFileSync(settingsDocPath, "utf8");
    expect(
      page === renderSettingsDoc(page),
      "docs/operating.md is stale: run `npm run generate`",
    ).toBe(true);
  });
});
