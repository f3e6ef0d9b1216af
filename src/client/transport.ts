// How the client sends a request: one attempt is a fetch that refuses redirects and reads the
// answer only within its bound; idempotent calls (all of this API's) are tried again on 503 and
// network errors, honouring Retry-After, within a number of attempts and a time budget.
import { AnswerTooLargeError, PlantStoreError } from "./errors.ts";

export interface RetryOptions {
  /** Attempts in all, the first included (4). */
  attempts?: number;
  /** The longest wait between attempts, whatever Retry-After says (10 s). */
  maxDelayMs?: number;
  /** No retry starts once this long has passed since the first attempt (30 s). */
  budgetMs?: number;
}

/** The client's options as an attempt uses them, defaults filled in. */
export interface Transport {
  fetch: typeof fetch;
  token: string | undefined;
  retry: Required<RetryOptions>;
  timeoutMs: number;
  maxAnswerBytes: number;
}

export interface WireRequest {
  method: string;
  url: string;
  body: string | undefined;
  bodyType: string;
  headers: Record<string, string>;
}

export interface Sent {
  response: Response;
  text: string;
  /**
   * Whether an earlier attempt may have reached the server and acted, its answer lost (a
   * connection dropped or timed out after sending); a 503 or a refused connection did not.
   */
  mayHaveActed: boolean;
}

/** The request, tried again on 503 and failures in transit while attempts and budget last. */
export async function sendWithRetries(transport: Transport, request: WireRequest): Promise<Sent> {
  const { retry } = transport;
  const started = Date.now();
  let mayHaveActed = false;
  for (let attempt = 1; ; attempt++) {
    let wait: number;
    // What to give up with when out of budget: the last 503, or the last network error.
    let answered: { response: Response; text: string } | undefined;
    let failure: unknown;
    try {
      const answer = await sendOnce(transport, request);
      if (answer.response.status !== 503 || attempt >= retry.attempts) {
        return { ...answer, mayHaveActed };
      }
      answered = answer;
      wait = retryAfterMs(answer.response.headers.get("retry-after"), attempt);
    } catch (error) {
      // A redirect or an oversized answer would come again: only failures in transit are retried.
      const final = error instanceof PlantStoreError || error instanceof AnswerTooLargeError;
      if (final || attempt >= retry.attempts) throw error;
      if (!refusedConnection(error)) mayHaveActed = true;
      wait = backoffMs(attempt);
      failure = error;
    }
    wait = Math.min(wait, retry.maxDelayMs);
    // No attempt starts past the budget: what failed last is the answer.
    if (Date.now() - started + wait > retry.budgetMs) {
      if (answered !== undefined) return { ...answered, mayHaveActed };
      throw failure;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

async function sendOnce(
  transport: Transport,
  { method, url, body, bodyType, headers }: WireRequest,
): Promise<{ response: Response; text: string }> {
  // Called unbound: a browser's fetch throws when called as another object's method.
  const { fetch: doFetch, token } = transport;
  const response = await doFetch(url, {
    method,
    headers: {
      accept: "application/json",
      ...headers,
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { "content-type": bodyType }),
    },
    ...(body === undefined ? {} : { body }),
    // The API never redirects: a redirected create could land elsewhere or become a GET.
    redirect: "manual",
    signal: AbortSignal.timeout(transport.timeoutMs),
  });
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw redirected(response);
  }
  return { response, text: await readBounded(response, transport.maxAnswerBytes) };
}

/** A redirect, refused as the error it is for this API. */
function redirected(response: Response): PlantStoreError {
  const location = response.headers.get("location");
  const to = location === null ? "" : ` to ${location}`;
  return new PlantStoreError(
    response.status,
    {
      error: response.status,
      message: `the server answered ${response.status}, a redirect${to}; this API never redirects, so it was not followed`,
    },
    response.headers,
  );
}

/** The answer's text, read only while it stays within `limit` bytes. */
async function readBounded(response: Response, limit: number): Promise<string> {
  const reader = response.body?.getReader();
  if (reader === undefined) return "";
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.length;
    if (length > limit) {
      await reader.cancel();
      throw new AnswerTooLargeError(limit);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}

/** Retry-After in seconds or as an HTTP date; a backoff when it is absent or unreadable. */
function retryAfterMs(header: string | null, attempt: number): number {
  if (header === null) return backoffMs(attempt);
  const seconds = Number(header);
  if (header.trim() !== "" && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? backoffMs(attempt) : Math.max(0, date - Date.now());
}

/** A connection the server refused outright: nothing was sent, so nothing was done. */
function refusedConnection(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return cause?.code === "ECONNREFUSED";
}

const backoffMs = (attempt: number): number => 200 * 2 ** (attempt - 1);
