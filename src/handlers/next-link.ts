// The Link to the next page of a keyset-paged list, for every list operation alike.
// Relative to this server unless PLANTSTORE_PUBLIC_URL says where clients reach it.

type PathValues = Readonly<Record<string, string | bigint | number>>;

/** The operation's path template with each `{name}` replaced by its value, percent-encoded. */
export function concretePath(template: string, values: PathValues = {}): string {
  // A nested list (/parents/{id}/children) links to its own parent, never to the template.
  return template.replace(/\{([^{}]+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined)
      throw new Error(`${template}: no value for the path parameter ${name}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * `{ link }` for a full page ending at `last`; none when the page is empty. `list` is the
 * operation's path template (context.operation.path) and the request's path parameters;
 * `filters` the query parameters that filtered this page, which the next one keeps.
 */
export function nextPageLink(
  list: { template: string; path?: PathValues | undefined },
  publicUrl: string | undefined,
  last: string | bigint | undefined,
  limit: number,
  filters: Readonly<Record<string, unknown>> = {},
): { link: string } | undefined {
  if (last === undefined) return undefined;
  const query = [
    ...Object.entries(filters).map(([name, value]) => [name, String(value)]),
    ["after", String(last)],
    ["limit", String(limit)],
  ].map(([name, value]) => `${encodeURIComponent(name ?? "")}=${encodeURIComponent(value ?? "")}`);
  const path = concretePath(list.template, list.path);
  return { link: `<${publicUrl ?? ""}${path}?${query.join("&")}>; rel="next"` };
}
