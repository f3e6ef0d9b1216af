// What a run found: one check per request sent, grouped by operation; a failure names the
// rules broken and carries the request and the answer.
import type { Answer, Request } from "./sender.ts";

export interface Check {
  operationId: string;
  /** What the request was for: an example's name, "probe (valid)", "no token", … */
  name: string;
  request: Request;
  answer: Answer;
  /** Rules broken; empty when the check passed. */
  broken: string[];
  /** The request is a webhook message the deployment sent the run, not one the run sent. */
  received?: true;
}

export interface RunResult {
  baseUrl: string;
  checks: Check[];
  /** What the run left out and why (a budget spent, read-only mode). */
  notes: string[];
  requests: number;
  writes: number;
}
