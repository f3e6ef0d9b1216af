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
      const members: string[] = [];
      for (const [key, member] of Object.entries(value)) {
        if (member !== undefined) members.push(`${JSON.stringify(key)}:${exactJson(member)}`);
      }
      return `{${members.join(",")}}`;
    }
    default:
      return JSON.stringify(value) ?? "null";
  }
}
