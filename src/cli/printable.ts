/**
 * Text as a terminal shows it safely: control and format characters (a newline that would
 * forge a row, an escape sequence, a bidi override) written as escapes. One pass, no patterns
 * that backtrack.
 */
export function printable(text: string): string {
  return text.replace(/[\p{Cc}\p{Cf}\u2028\u2029\\]/gu, (c) => {
    if (c === "\\") return "\\\\";
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    if (c === "\r") return "\\r";
    return `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, "0")}`;
  });
}
