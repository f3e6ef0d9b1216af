import { describe, expect, it } from "vitest";
import { addressKey } from "../../src/http/connections.ts";

describe("addressKey", () => {
  it("when the address is IPv4 (also as IPv4-mapped IPv6), then the key is the IPv4 address", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("when the address is IPv6, then every address of one /64 has the same key", () => {
    const key = addressKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd");
    expect(key).toBe("2001:db8:1:2");
    expect(addressKey("2001:0DB8:0001:0002::1")).toBe(key);
    expect(addressKey("2001:db8:1:3::1")).not.toBe(key);
  });

  it("when there is no address or it is not an IP address, then it is kept as given", () => {
    expect(addressKey(undefined)).toBe("unknown");
    expect(addressKey("not-an-address")).toBe("not-an-address");
    expect(addressKey("no:such:thing")).toBe("no:such:thing");
  });
});
