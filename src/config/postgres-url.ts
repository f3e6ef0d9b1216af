// DATABASE_URL for PostgreSQL, read as libpq reads it: one host, or several
// (`postgres://USER@HOST1:PORT1,HOST2:PORT2/DATABASE`, what pg_auto_failover and other
// failover managers hand out), tried in turn for a writable one. No driver here: the settings
// check a URL without loading postgres.js.
import { ConfigError } from "./error.ts";

export interface PostgresAddress {
  host: string;
  port: number;
}

/** Which server of the list a connection may stay on; the service writes, so never a standby. */
export type TargetSessionAttrs = "any" | "read-write" | "primary";

export interface PostgresLocation {
  /** DATABASE_URL as given (masked by redactUrl wherever it is shown). */
  url: string;
  /** The URL postgres.js is given: the first host, without the options read here. */
  driverUrl: string;
  hosts: readonly PostgresAddress[];
  targetSessionAttrs: TargetSessionAttrs;
  /** `?prepare=false` (or true): overrides the detection of a connection pooler. */
  prepare: boolean | undefined;
}

const DEFAULT_PORT = 5432;
/** Read here, so the driver never sees them (it refuses `any`, and mis-checks `read-write`). */
const OWN_OPTIONS = ["target_session_attrs", "prepare"];

/** `name`: the variable that holds the URL, for messages. */
export function parsePostgresUrl(raw: string, name: string): PostgresLocation {
  const parts = splitUrl(raw);
  if (parts === undefined) throw new ConfigError(`${name} is not a valid postgres:// URL`);
  const { scheme, userinfo, hostList, rest } = parts;
  const entries = hostList.split(",");
  const hosts = entries.map((entry) => {
    // Each host on its own is checked as the URL with only that host would be.
    const url = parseOne(`${scheme}://${userinfo}${entry}${rest}`, raw, name);
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1"); // an IPv6 address, unbracketed
    return { host, port: url.port === "" ? DEFAULT_PORT : Number(url.port) };
  });
  const first = parseOne(`${scheme}://${userinfo}${entries[0] ?? ""}${rest}`, raw, name);
  const options = first.searchParams;
  const targetSessionAttrs = readTargetSessionAttrs(
    options.get("target_session_attrs"),
    hosts.length,
    name,
  );
  const prepare = readPrepare(options.get("prepare"), name);
  for (const name of OWN_OPTIONS) options.delete(name);
  return { url: raw, driverUrl: first.toString(), hosts, targetSessionAttrs, prepare };
}

interface UrlParts {
  scheme: string;
  userinfo: string;
  hostList: string;
  rest: string;
}

/** The parts of a URL around its host list, split where the WHATWG URL parser would split. */
function splitUrl(raw: string): UrlParts | undefined {
  const separator = raw.indexOf("://");
  if (separator < 0) return undefined;
  const afterScheme = raw.slice(separator + 3);
  // The authority ends at the first / ? or #; a password cannot hold them unencoded.
  const end = afterScheme.search(/[/?#]/);
  const authority = end < 0 ? afterScheme : afterScheme.slice(0, end);
  const at = authority.lastIndexOf("@");
  return {
    scheme: raw.slice(0, separator),
    userinfo: authority.slice(0, at + 1),
    hostList: authority.slice(at + 1),
    rest: end < 0 ? "" : afterScheme.slice(end),
  };
}

function parseOne(single: string, raw: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(single);
  } catch {
    throw new ConfigError(`${name} is not a valid postgres:// URL`);
  }
  if (url.hostname === "" || url.pathname.length <= 1) {
    throw new ConfigError(
      `${name} must name a host and a database, e.g. postgres://postgres@127.0.0.1:5432/plants, got ${redactUrl(raw)}`,
    );
  }
  return url;
}

function readTargetSessionAttrs(
  value: string | null,
  hosts: number,
  name: string,
): TargetSessionAttrs {
  // Several hosts are listed to find the writable one; libpq's default (any) would stay on
  // whichever answers first, a standby included.
  if (value === null) return hosts > 1 ? "read-write" : "any";
  if (value === "any" || value === "read-write" || value === "primary") return value;
  throw new ConfigError(
    `${name}'s target_session_attrs must be read-write, primary or any (plantstore writes, so never a standby), got "${value}"`,
  );
}

function readPrepare(value: string | null, name: string): boolean | undefined {
  if (value === null) return undefined;
  if (value === "true" || value === "false") return value === "true";
  throw new ConfigError(`${name}'s prepare must be true or false, got "${value}"`);
}

/** The URL with any password replaced, for messages and logs; any URL, one host or several. */
export function redactUrl(raw: string): string {
  const { scheme, userinfo, hostList, rest } = splitUrlLoosely(raw);
  const colon = userinfo.indexOf(":");
  if (colon < 0 || colon === userinfo.length - 2) return raw;
  return `${scheme}://${userinfo.slice(0, colon)}:***@${hostList}${rest}`;
}

function splitUrlLoosely(raw: string): UrlParts {
  return splitUrl(raw) ?? { scheme: "", userinfo: "", hostList: "", rest: "" };
}
