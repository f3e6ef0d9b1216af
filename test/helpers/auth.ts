// Polling for things that happen "within a second or two" without asserting a time.
import { sleep } from "./load.ts";

/** Polls an async condition until it holds; rejects with `what` after `timeoutMs`. */
export async function waitUntilAsync(
  condition: () => Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await sleep(50);
  }
}
