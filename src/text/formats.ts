// The formats the document's schemas name, as validators check them: pure, and linear.

/** RFC 3339, as the answers write times (toISOString); linear, with no nested repeats. */
export const DATE_TIME_FORMAT = {
  type: "string",
  validate: (text: string) =>
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i.test(text) &&
    !Number.isNaN(Date.parse(text)),
} as const;

/** An absolute URI (RFC 3986), as the WHATWG URL parser the server uses reads it; no spaces. */
export const URI_FORMAT = {
  type: "string",
  validate: (text: string) => !/[\s\p{Cc}]/u.test(text) && URL.canParse(text),
} as const;

/** An int64, as checked on the double stand-ins of exact values (src/text/int64.ts). */
export const INT64_FORMAT = {
  type: "number",
  validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 63) && n < 2 ** 63,
} as const;
