// Where webhooks may go: the refused address ranges, and the URL rules at registration. No
// external DNS: allowed URLs use IP literals, and `localhost` stands for a name that resolves
// to a refused address.
import { describe, expect, it } from "vitest";
import { checkEndpointUrl, refusedAddress } from "../../src/webhooks/endpoint-address.ts";

describe("refusedAddress", () => {
  it.each([
    ["127.0.0.1", "a loopback address"],
    ["10.1.2.3", "a private address"],
    ["172.16.0.1", "a private address"],
    ["192.168.1.1", "a private address"],
    ["169.254.169.254", "a link-local address"],
    ["0.0.0.0", "the unspecified address"],
    ["100.64.0.1", "a carrier-grade NAT address"],
    ["224.0.0.1", "a multicast address"],
    ["255.255.255.255", "the broadcast address"],
    ["240.0.0.1", "a reserved address"],
    ["::1", "a loopback address"],
    ["::", "the unspecified address"],
    ["fc00::1", "a unique local address"],
    ["fd12::1", "a unique local address"],
    ["fe80::1", "a link-local address"],
    ["ff02::1", "a multicast address"],
    ["::ffff:127.0.0.1", "a loopback address"],
    ["::ffff:10.0.0.1", "a private address"],
    // The deprecated IPv4-compatible form (::127.0.0.1, which ipaddr.js reads as mapped).
    ["::7f00:1", "a reserved address"],
    ["::127.0.0.1", "a loopback address"],
    // Ranges without a name of ours are refused by the name ipaddr.js gives them.
    ["2002::1", "a special-purpose address (6to4)"],
    ["2001::1", "a special-purpose address (teredo)"],
  ])("when the address is %s, then it is refused as %s", (ip, why) => {
    expect(refusedAddress(ip)).toBe(why);
  });

  it.each(["8.8.8.8", "2001:4860:4860::8888", "::ffff:8.8.8.8"])(
    "when the address is %s (public), then it is allowed",
    (ip) => {
      expect(refusedAddress(ip)).toBeUndefined();
    },
  );

  it("when it is not an IP address, then it is refused", () => {
    expect(refusedAddress("example.com")).toBe("not an IP address");
  });
});

const ALLOWED =
  "allowed only with PLANTSTORE_WEBHOOK_ALLOW_PRIVATE=true, for local receivers and tests";

describe("checkEndpointUrl", () => {
  it.each([
    ["http://8.8.8.8/hook", `the webhook URL must use https (http is ${ALLOWED})`],
    ["ftp://8.8.8.8/hook", "the webhook URL must use https"],
    [
      "https://user:secret@8.8.8.8/hook",
      "the webhook URL must not contain a user name or password",
    ],
    ["https://user@8.8.8.8/hook", "the webhook URL must not contain a user name or password"],
    ["https://:secret@8.8.8.8/hook", "the webhook URL must not contain a user name or password"],
    ["https://8.8.8.8/hook#part", "the webhook URL must not have a fragment"],
    // An empty fragment: URL parsing drops it from `hash`, so the text itself is looked at.
    ["https://8.8.8.8/hook#", "the webhook URL must not have a fragment"],
    ["not a url", "the webhook URL is not a valid absolute URL"],
    ["/relative/hook", "the webhook URL is not a valid absolute URL"],
    [
      "https://localhost/hook",
      `the webhook URL's host resolves to 127.0.0.1, a loopback address (it is ${ALLOWED})`,
    ],
    [
      "https://127.0.0.1/hook",
      `the webhook URL's host resolves to 127.0.0.1, a loopback address (it is ${ALLOWED})`,
    ],
    [
      "https://[::1]/hook",
      `the webhook URL's host resolves to ::1, a loopback address (it is ${ALLOWED})`,
    ],
    [
      "https://10.0.0.1/hook",
      `the webhook URL's host resolves to 10.0.0.1, a private address (it is ${ALLOWED})`,
    ],
    [
      "https://[::ffff:169.254.169.254]/",
      `the webhook URL's host resolves to ::ffff:a9fe:a9fe, a link-local address (it is ${ALLOWED})`,
    ],
  ])("when the URL is %s, then it is refused: %s", async (url, why) => {
    expect(await checkEndpointUrl(url, false)).toBe(why);
  });

  it("when the host does not resolve, then it is refused", async () => {
    expect(await checkEndpointUrl("https://no-such-host.invalid/hook", false)).toBe(
      "the webhook URL's host no-such-host.invalid does not resolve to an address",
    );
  });

  it("when the URL is https to a public IP, then it is accepted", async () => {
    expect(await checkEndpointUrl("https://8.8.8.8/hook", false)).toBeUndefined();
    expect(
      await checkEndpointUrl("https://[2001:4860:4860::8888]:8443/h?x=1", false),
    ).toBeUndefined();
  });

  it("when private addresses are allowed, then http to loopback is accepted", async () => {
    expect(await checkEndpointUrl("http://127.0.0.1:1234/", true)).toBeUndefined();
    expect(await checkEndpointUrl("https://localhost/", true)).toBeUndefined();
  });

  it("when private addresses are allowed, then a name is not looked up at registration (nothing could be refused by it)", async () => {
    expect(await checkEndpointUrl("https://no-such-host.invalid/hook", true)).toBeUndefined();
  });

  it("when private addresses are allowed, then credentials and other schemes are still refused", async () => {
    expect(await checkEndpointUrl("http://u:p@127.0.0.1:1234/", true)).toBe(
      "the webhook URL must not contain a user name or password",
    );
    expect(await checkEndpointUrl("ftp://127.0.0.1/", true)).toBe(
      "the webhook URL must use https or http",
    );
  });
});
