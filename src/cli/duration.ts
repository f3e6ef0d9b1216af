// "--expires-in" values: a whole number and a unit, e.g. 90m, 12h, 30d, 52w.
const UNIT_MS: Readonly<Record<string, number>> = {
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};
const MAX_MS = 10 * 366 * 86_400_000;

/** Milliseconds, or undefined when the text is not such a duration (or is over ten years). */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,6})([mhdw])$/.exec(text.trim());
  if (match === null) return undefined;
  const ms = Number(match[1]) * (UNIT_MS[match[2] ?? ""] ?? Number.NaN);
  return ms > 0 && ms <= MAX_MS ? ms : undefined;
}
