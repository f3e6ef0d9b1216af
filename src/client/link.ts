// The `rel="next"` target of a Link header (RFC 8288), read without a backtracking pattern:
// split into links at commas outside <…>, then each into its target and parameters.

export function nextLink(header: string | null): string | undefined {
  if (header === null) return undefined;
  for (const link of splitLinks(header)) {
    const close = link.indexOf(">");
    if (!link.startsWith("<") || close === -1) continue;
    const parameters = link
      .slice(close + 1)
      .split(";")
      .map((p) => p.trim().toLowerCase());
    const rels = parameters
      .filter((p) => p.startsWith("rel="))
      .flatMap((p) => p.slice(4).replaceAll('"', "").split(" "));
    if (rels.includes("next")) return link.slice(1, close);
  }
  return undefined;
}

function splitLinks(header: string): string[] {
  const links: string[] = [];
  let inside = false;
  let start = 0;
  for (let i = 0; i < header.length; i++) {
    const c = header[i];
    if (c === "<") inside = true;
    else if (c === ">") inside = false;
    else if (c === "," && !inside) {
      links.push(header.slice(start, i).trim());
      start = i + 1;
    }
  }
  links.push(header.slice(start).trim());
  return links;
}
