// Whether a request's path, as sent, has the literal parts of an operation's path template
// exactly: Fastify's router decodes %XX before it matches (/pl%61nts finds /plants) and takes
// an empty segment for a parameter (/plants/ finds /plants/{id}); the document's paths are
// matched as written, and a template variable stands for one or more characters.
/** The check for one template, built once; linear in the path's length, no copies. */
export function literalPartsOf(template: string): (path: string) => boolean {
  if (!template.includes("{")) return (path) => path === template;
  const segments = template.split("/").map((segment) => {
    const open = segment.indexOf("{");
    return open === -1
      ? { prefix: segment, suffix: undefined }
      : { prefix: segment.slice(0, open), suffix: segment.slice(segment.lastIndexOf("}") + 1) };
  });
  return (path) => {
    let from = 0;
    for (const [at, { prefix, suffix }] of segments.entries()) {
      const slash = path.indexOf("/", from);
      const last = at === segments.length - 1;
      if (last !== (slash === -1)) return false;
      const end = last ? path.length : slash;
      if (suffix === undefined) {
        if (end - from !== prefix.length || !path.startsWith(prefix, from)) return false;
      } else if (
        end - from <= prefix.length + suffix.length ||
        !path.startsWith(prefix, from) ||
        !path.endsWith(suffix, end)
      ) {
        return false;
      }
      from = end + 1;
    }
    return true;
  };
}
