// How a setting a consumer of the API can rely on (a limit, a deadline) reads in the published
// document: the text that fills its `{{NAME}}` (see Setting.published).
import { DAY_MS } from "./readers.ts";

/** A duration in ms as a reader of the document takes it: "10 s", or "250 ms". */
export const duration = (ms: number): string => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
/** A limit where 0 turns it off. */
export const limitOrNone = (count: number): string => (count === 0 ? "no limit" : String(count));

/** Retry delays as a reader of the document takes them: "5 s, 5 min and 2 h". */
export const delays = (list: readonly number[]): string => {
  const one = (ms: number): string =>
    ms % DAY_MS === 0
      ? `${ms / DAY_MS} d`
      : ms % 3_600_000 === 0
        ? `${ms / 3_600_000} h`
        : ms % 60_000 === 0
          ? `${ms / 60_000} min`
          : `${ms / 1000} s`;
  const texts = list.map(one);
  return texts.length === 1
    ? (texts[0] ?? "")
    : `${texts.slice(0, -1).join(", ")} and ${texts.at(-1)}`;
};
/** A plain count. */
export const count = (value: number): string => String(value);
/** A retention period, held in ms, as days. */
export const days = (ms: number): string => {
  const count = ms / DAY_MS;
  return count === 1 ? "1 day" : `${count} days`;
};
