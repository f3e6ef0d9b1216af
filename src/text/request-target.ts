// The request target (RFC 9112 §3.2) as received, read as text: its path, whether it is one to
// serve, how it is logged, and whether its query is well encoded: origin-form (`/plants?limit=2`),
// or absolute-form from a proxy (`http://host/plants`). Read in one pass, no patterns.
/** The path, as sent: no scheme and authority, no query; no dot-segment or %XX normalisation. */
export function targetPath(target: string): string {
  const rest = target.startsWith("/") ? target : afterAuthority(target);
  const query = rest.indexOf("?");
  return query === -1 ? rest : rest.slice(0, query);
}

/**
 * Why the target is not one to serve, or undefined: a fragment has no place in a request
 * (RFC 9112 §3.2), userinfo in an http URI is to be treated as an error (RFC 9110 §4.2.4), and
 * an absolute-form target names a resource of this server only with http or https.
 */
export function targetProblem(target: string): string | undefined {
  if (target.includes("#")) return "the request target is not valid: it has a fragment (#)";
  if (target.startsWith("/")) return undefined;
  const scheme = schemeOf(target);
  if (scheme !== undefined && scheme !== "http" && scheme !== "https") {
    // Cut: the scheme is the client's text, and this is only to name it.
    return `the request target is not valid: its scheme ${JSON.stringify(scheme.slice(0, MAX_LOGGED_NAME))} is not http or https`;
  }
  if (authorityOf(target).includes("@")) {
    return "the request target is not valid: it has userinfo (user@)";
  }
  return undefined;
}

/** The scheme of an absolute-form target, lower-cased; undefined for any other form. */
function schemeOf(target: string): string | undefined {
  const at = target.indexOf(SCHEME_END);
  return at === -1 ? undefined : target.slice(0, at).toLowerCase();
}

/**
 * The target as logged: the path and the names of the query's parameters, never a value (a
 * query can carry `access_token=`), a fragment or userinfo. An item without `=` may be a bare
 * secret rather than a name, so it is not written either.
 */
export function loggedTarget(target: string): string {
  const fragment = target.indexOf("#");
  const cut = fragment === -1 ? target : target.slice(0, fragment);
  const path = targetPath(cut);
  const query = cut.indexOf("?");
  if (query === -1) return path;
  const names = cut
    .slice(query + 1)
    .split("&")
    .map((pair) => {
      const equals = pair.indexOf("=");
      return equals === -1 ? "…" : `${pair.slice(0, Math.min(equals, MAX_LOGGED_NAME))}=…`;
    });
  return `${path}?${names.join("&")}`;
}

/**
 * Why the query of a target is not valid percent-encoding, naming the parameter, or undefined:
 * each "%" must start an escape of two hex digits, and the escapes must spell UTF-8 (RFC 3986
 * §2.1). Fastify's query parser keeps such text as it is (`?tag=%E0%A4%A` would reach a handler
 * as "%E0%A4%A"); it is refused here, as the router refuses it in the path. Linear: one scan for
 * a "%" in the usual query, then decodeURIComponent on each part that holds one.
 */
export function queryEncodingProblem(target: string): string | undefined {
  const start = target.indexOf("?");
  if (start === -1 || target.indexOf("%", start) === -1) return undefined;
  const fragment = target.indexOf("#", start);
  const query = target.slice(start + 1, fragment === -1 ? undefined : fragment);
  for (const pair of query.split("&")) {
    if (!pair.includes("%")) continue;
    const equals = pair.indexOf("=");
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const name = decodedOrUndefined(rawName);
    if (name === undefined) {
      return `query parameter name ${JSON.stringify(rawName)} has malformed percent-encoding`;
    }
    if (equals !== -1 && decodedOrUndefined(pair.slice(equals + 1)) === undefined) {
      return `query parameter ${name} has malformed percent-encoding`;
    }
  }
  return undefined;
}

/** A query part as the query parser reads it ("+" is a space), or undefined if malformed. */
function decodedOrUndefined(part: string): string | undefined {
  try {
    return decodeURIComponent(part.replaceAll("+", " "));
  } catch {
    return undefined;
  }
}

const SCHEME_END = "://";
// Longer names are cut: a name is there to tell parameters apart, not to carry data.
const MAX_LOGGED_NAME = 64;

/** The authority of an absolute-form target; empty for any other. */
function authorityOf(target: string): string {
  const at = target.indexOf(SCHEME_END);
  if (at === -1) return "";
  const from = at + SCHEME_END.length;
  let end = from;
  while (end < target.length && !"/?#".includes(target[end] ?? "")) end++;
  return target.slice(from, end);
}

/** What follows the authority of an absolute-form target, starting with "/". */
function afterAuthority(target: string): string {
  const at = target.indexOf(SCHEME_END);
  if (at === -1) return target;
  const from = at + SCHEME_END.length + authorityOf(target).length;
  const rest = target.slice(from);
  return rest.startsWith("/") ? rest : `/${rest}`;
}
