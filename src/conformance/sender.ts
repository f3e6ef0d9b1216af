// Sends a run's requests to the deployment and nowhere else: one origin, at most maxRequests
// requests (maxWrites of them writes), no faster than the rate, each with its deadline and cut
// at the run's (the clean-up excepted), none started past it, and each answer's body read up to
// maxBodyBytes.
import type { Exchange } from "./contract-check.ts";
import type { ConformanceOptions } from "./options.ts";

export interface Request {
  method: string;
  /** Path and query, relative to the base URL. */
  target: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Why the answer was not read: its body is over --max-body. */
  unread?: string;
}

export class BudgetSpent extends Error {}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
export const isWrite = (method: string): boolean => !SAFE.has(method.toUpperCase());

export class Sender {
  sent = 0;
  writes = 0;
  private nextAt = 0;
  private cleaningUp = false;
  private writesRefused: string | undefined;
  private readonly deadline: number;
  /** Aborts what is in flight when --max-time is reached. */
  private readonly runEnds: AbortSignal;
  private readonly base: URL;

  constructor(private readonly options: ConformanceOptions) {
    this.deadline = Date.now() + options.maxTimeMs;
    this.runEnds = AbortSignal.timeout(options.maxTimeMs);
    this.base = new URL(options.baseUrl.endsWith("/") ? options.baseUrl : `${options.baseUrl}/`);
  }

  /** From now on no write is sent, for `reason`. */
  refuseWrites(reason: string): void {
    this.writesRefused = reason;
  }

  /** The time left of --max-time, in milliseconds (0 once it is spent). */
  timeLeft(): number {
    return Math.max(0, this.deadline - Date.now());
  }

  /** The absolute URL of a target, always under the base URL. */
  url(target: string): string {
    return `${this.base.origin}${this.base.pathname.replace(/\/$/, "")}${target}`;
  }

  /** From now on, the deletes of what the run created go past the budgets. */
  allowCleanUp(): void {
    this.cleaningUp = true;
  }

  async send(request: Request): Promise<Answer> {
    const over = !this.cleaningUp;
    if (over && this.sent >= this.options.maxRequests) {
      throw new BudgetSpent("--max-requests reached");
    }
    if (over && Date.now() >= this.deadline) throw new BudgetSpent("--max-time reached");
    if (isWrite(request.method)) {
      if (!this.options.allowWrites) throw new Error(`${request.method} needs --allow-writes`);
      if (this.writesRefused !== undefined && !this.cleaningUp) {
        throw new Error(`${request.method} refused: ${this.writesRefused}`);
      }
      if (over && this.writes >= this.options.maxWrites) {
        throw new BudgetSpent("--max-writes reached");
      }
      this.writes += 1;
    }
    this.sent += 1;
    const wait = this.nextAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    this.nextAt = Math.max(Date.now(), this.nextAt) + 1000 / this.options.rate;
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    // The clean-up may run past --max-time: each of its requests has --timeout alone.
    const signal = over ? AbortSignal.any([timeout, this.runEnds]) : timeout;
    try {
      const response = await fetch(this.url(request.target), {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        redirect: "manual",
        signal,
      });
      const headers = Object.fromEntries(response.headers);
      const body = await readBounded(response, this.options.maxBodyBytes);
      return body.over
        ? {
            status: response.status,
            headers,
            body: "",
            unread: `the answer's body is over ${this.options.maxBodyBytes} bytes (--max-body): not read`,
          }
        : { status: response.status, headers, body: body.text };
    } catch (error) {
      // No answer is an answer to report: status 0, the cause as the body.
      const why = this.runEnds.aborted
        ? "--max-time reached"
        : timeout.aborted
          ? `no answer within --timeout ${this.options.timeoutMs} ms`
          : ((error as Error & { cause?: Error }).cause?.message ?? (error as Error).message);
      return { status: 0, headers: {}, body: `no answer: ${why}` };
    }
  }
}

/** The body as text, read chunk by chunk and dropped once it is over `limit` bytes. */
async function readBounded(
  response: Response,
  limit: number,
): Promise<{ over: false; text: string } | { over: true }> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > limit || response.body === null) {
    await response.body?.cancel();
    return declared > limit ? { over: true } : { over: false, text: "" };
  }
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of response.body) {
    length += chunk.byteLength;
    // Leaving the loop cancels the stream: the rest is never read.
    if (length > limit) return { over: true };
    chunks.push(chunk);
  }
  return { over: false, text: Buffer.concat(chunks).toString("utf8") };
}

export const exchangeOf = (request: Request, answer: Answer): Exchange => ({
  method: request.method,
  url: request.target,
  requestHeaders: Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]),
  ),
  status: answer.status,
  headers: answer.headers,
  body: answer.body,
});
