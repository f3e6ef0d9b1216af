// Whether a value is a promise (any thenable). The request path awaits a step's result only
// when it is one: an `await` on anything else still costs a turn of the microtask queue, and a
// request passes several steps.
export const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as { then?: unknown } | null | undefined)?.then === "function";
