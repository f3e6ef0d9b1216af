// Media types as text: the part compared, and whether bodies of a type are JSON.

/** A media type (`type/subtype`, any parameters dropped) as compared: lower case, trimmed. */
export const essence = (mediaType: string): string =>
  (mediaType.split(";")[0] ?? "").trim().toLowerCase();

/** Whether a media type's bodies are JSON: application/json, or a +json suffix (RFC 6839). */
export function isJsonMediaType(type: string): boolean {
  const slash = type.indexOf("/");
  return (
    type === "application/json" ||
    (slash > 0 && !type.includes("*") && type.endsWith("+json") && type.length > slash + 6)
  );
}
