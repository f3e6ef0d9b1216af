// Where a webhook may be sent (SSRF rules): only to public unicast addresses, unless the
// operator allows private ones. ipaddr.js names each special-purpose range; anything it does not
// call "unicast" is refused, so a range it learns later is refused too.
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { nameOf } from "../config/settings.ts";

const RANGE_NAMES: Readonly<Record<string, string>> = {
  loopback: "a loopback address",
  private: "a private address",
  linkLocal: "a link-local address",
  unspecified: "the unspecified address",
  carrierGradeNat: "a carrier-grade NAT address",
  uniqueLocal: "a unique local address",
  multicast: "a multicast address",
  broadcast: "the broadcast address",
  reserved: "a reserved address",
};

// The deprecated IPv4-compatible IPv6 addresses (::a.b.c.d), which ipaddr.js calls unicast.
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/** Why the address `ip` must not be contacted (e.g. "a loopback address"); undefined if it may. */
export function refusedAddress(ip: string): string | undefined {
  if (!ipaddr.isValid(ip)) return "not an IP address";
  // IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it reaches.
  const address = ipaddr.process(ip);
  const range = address.range();
  if (range !== "unicast") return RANGE_NAMES[range] ?? `a special-purpose address (${range})`;
  if (address.kind() === "ipv6" && address.match(IPV4_COMPATIBLE)) return RANGE_NAMES["reserved"];
  return undefined;
}

/** "resolves to 10.0.0.1, a private address" for the first refused address; undefined if none. */
export function refusedAmong(addresses: readonly string[]): string | undefined {
  for (const address of addresses) {
    const why = refusedAddress(address);
    if (why !== undefined) return `resolves to ${address}, ${why}`;
  }
  return undefined;
}

// Said with each refusal the setting lifts, so that whoever meets one with a local receiver
// (from the API or the command line) learns what allows it.
const allowedOnlyWith = (what: string): string =>
  `${what} is allowed only with ${nameOf("webhooks.allowPrivate")}=true, for local receivers and tests`;

/**
 * Why a webhook URL is refused at registration, in one sentence; undefined when it is fine.
 * `allowPrivate` (tests, a private network) also allows plain http, and any host: its name is
 * not looked up.
 */
export async function checkEndpointUrl(
  url: string,
  allowPrivate: boolean,
): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "the webhook URL is not a valid absolute URL";
  }
  const schemes = allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(parsed.protocol)) {
    if (allowPrivate) return "the webhook URL must use https or http";
    return parsed.protocol === "http:"
      ? `the webhook URL must use https (${allowedOnlyWith("http")})`
      : "the webhook URL must use https";
  }
  // Credentials in a URL would be shown and logged wherever the URL is.
  if (parsed.username !== "" || parsed.password !== "") {
    return "the webhook URL must not contain a user name or password";
  }
  if (parsed.hash !== "" || url.includes("#")) return "the webhook URL must not have a fragment";
  // The lookup is there to refuse private addresses; with those allowed it could refuse nothing
  // but a name that does not resolve yet, which the sender meets (and retries) anyway.
  if (allowPrivate) return undefined;
  const host = parsed.hostname.startsWith("[") ? parsed.hostname.slice(1, -1) : parsed.hostname;
  let addresses: string[];
  try {
    addresses = (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return `the webhook URL's host ${host} does not resolve to an address`;
  }
  const refused = refusedAmong(addresses);
  return refused === undefined
    ? undefined
    : `the webhook URL's host ${refused} (${allowedOnlyWith("it")})`;
}
