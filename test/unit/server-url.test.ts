import { describe, expect, it } from "vitest";
import { serverUrl } from "../../src/docs/published-document.ts";

describe("the servers URL of the published document", () => {
  const fallback = "http://127.0.0.1:8080";

  it("when PLANTSTORE_PUBLIC_URL is set, then it wins over the listening address", () => {
    const address = { address: "127.0.0.1", family: "IPv4", port: 3000 };
    expect(serverUrl("https://plants.example.com", address, fallback)).toBe(
      "https://plants.example.com",
    );
  });

  it.each([
    [{ address: "127.0.0.1", family: "IPv4", port: 3000 }, "http://127.0.0.1:3000"],
    [{ address: "0.0.0.0", family: "IPv4", port: 3000 }, "http://127.0.0.1:3000"],
    [{ address: "::", family: "IPv6", port: 3000 }, "http://[::1]:3000"],
    [{ address: "fe80::1", family: "IPv6", port: 80 }, "http://[fe80::1]:80"],
  ])("when it listens on %j, then the URL is %s", (address, expected) => {
    expect(serverUrl(undefined, address, fallback)).toBe(expected);
  });

  it("when it is not listening (app.inject), then the YAML's own server is kept", () => {
    expect(serverUrl(undefined, null, fallback)).toBe(fallback);
  });
});
