// Whether a request's path, as sent, has the literal parts of an operation's path template
// exactly: Fastify's router decodes %XX before it matches (/pl%61nts finds /plants) and takes
// an empty segment for a parameter (/plants/ finds /plants/{id}); the document's paths are
// matched as written, and a template variable stands for one or more characters.

/** The check for one template, built once; linear in the path's length. */
export function literalPartsOf(template: string): (path: string) => boolean {
  const segments = template.split("/").map(segmentMatcher);
  return (path) => {
    const given = path.split("/");
    if (given.length !== segments.length) return false;
    for (let at = 0; at < segments.length; at++) {
      if (!(segments[at] as (segment: string) => boolean)(given[at] as string)) return false;
    }
    return true;
  };
}

/** One segment: literal, or a literal prefix and suffix around a variable. */
function segmentMatcher(segment: string): (given: string) => boolean {
  const open = segment.indexOf("{");
  if (open === -1) return (given) => given === segment;
  const prefix = segment.slice(0, open);
  const suffix = segment.slice(segment.lastIndexOf("}") + 1);
  return (given) =>
    given.length > prefix.length + suffix.length &&
    given.startsWith(prefix) &&
    given.endsWith(suffix);
}
