// "did you mean …?" for a mistyped command: the known name nearest by edit distance, if it is
// near enough to be the one meant.
import { closest, distance } from "fastest-levenshtein";
import { printable } from "./printable.ts";

// Longer input is no typo of a short command name; not compared (bounded work on argv).
const MAX_COMPARED = 64;

/** `unknown <what> "x"; did you mean "y"?` (or without the question when nothing is near). */
export function unknownName(what: string, given: string, known: readonly string[]): string {
  const shown = `unknown ${what} "${printable(given.slice(0, MAX_COMPARED))}"`;
  if (given.length > MAX_COMPARED || known.length === 0) return shown;
  const nearest = closest(given, [...known]);
  // A third of the name may be wrong ("token", "webhoks", "conformace"), and at least 2 letters.
  const near = distance(given, nearest) <= Math.max(2, Math.floor(nearest.length / 3));
  return near ? `${shown}; did you mean "${nearest}"?` : shown;
}
