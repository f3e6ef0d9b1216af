// The JSON name of a parsed value's type, for messages ("got null", "got an array").
export type JsonType = "null" | "array" | "object" | "string" | "number" | "boolean";

export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const type = typeof value;
  return type === "string" || type === "number" || type === "boolean" ? type : "object";
}

export const withArticle = (word: string): string =>
  /^[aeiou]/.test(word) ? `an ${word}` : word === "null" ? word : `a ${word}`;
