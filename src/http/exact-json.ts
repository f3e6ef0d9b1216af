// JSON text for an answer, with every bigint written as the exact integer literal it is
// (JSON.stringify refuses bigints, and a Number would round past 2^53).

export function exactJson(value: unknown): string {
  switch (typeof value) {
    case "bigint":
      return value.toString();
    case "object": {
      if (value === null) return "null";
      if (Array.isArray(value)) {
        return `[${value.map((item) => (item === undefined ? "null" : exactJson(item))).join(",")}]`;
      }
      // Concatenated as it goes: every answer passes here, and arrays of parts cost more.
      let text = "{";
      for (const key of Object.keys(value)) {
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined) continue;
        text += `${text.length === 1 ? "" : ","}${JSON.stringify(key)}:${exactJson(member)}`;
      }
      return `${text}}`;
    }
    default:
      return JSON.stringify(value) ?? "null";
  }
}
