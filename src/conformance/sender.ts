// Sends a run's requests to the deployment and nowhere else: one origin, at most maxRequests
// requests (maxWrites of them writes), no faster than the rate, each with its deadline, none
// started past the run's.
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
}

export class BudgetSpent extends Error {}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
export const isWrite = (method: string): boolean => !SAFE.has(method.toUpperCase());

export class Sender {
  sent = 0;
  writes = 0;
  private nextAt = 0;
  private cleaningUp = false;
  private readonly deadline: number;
  private readonly base: URL;

  constructor(private readonly options: ConformanceOptions) {
    this.deadline = Date.now() + options.maxTimeMs;
    this.base = new URL(options.baseUrl.endsWith("/") ? options.baseUrl : `${options.baseUrl}/`);
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
      if (over && this.writes >= this.options.maxWrites) {
        throw new BudgetSpent("--max-writes reached");
      }
      this.writes += 1;
    }
    this.sent += 1;
    const wait = this.nextAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    this.nextAt = Math.max(Date.now(), this.nextAt) + 1000 / this.options.rate;
    try {
      const response = await fetch(this.url(request.target), {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        redirect: "manual",
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const body = await response.text();
      return { status: response.status, headers: Object.fromEntries(response.headers), body };
    } catch (error) {
      // No answer is an answer to report: status 0, the cause as the body.
      const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      return { status: 0, headers: {}, body: `no answer: ${cause}` };
    }
  }
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
