// The Link to the next page of a keyset-paged list, for every list operation alike.
// Relative to this server unless PLANTSTORE_PUBLIC_URL says where clients reach it.

/** `{ link }` for a full page ending at `last`; none when the page is empty. */
export function nextPageLink(
  path: string,
  publicUrl: string | undefined,
  last: string | bigint | undefined,
  limit: number,
): { link: string } | undefined {
  if (last === undefined) return undefined;
  const after = encodeURIComponent(String(last));
  return { link: `<${publicUrl ?? ""}${path}?after=${after}&limit=${limit}>; rel="next"` };
}
