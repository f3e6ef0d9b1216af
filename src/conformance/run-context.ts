// What a run's steps share: the options, the sender, the document and the operations chosen,
// every check made so far, the notes, the ids of --id-range and what the run created.
import { type ContractChecker, createContractChecker } from "./contract-check.ts";
import {
  asDocument,
  type DocumentedOperation,
  type OpenApiDocument,
  operationsOf,
  securityOf,
} from "./operations.ts";
import type { ConformanceOptions } from "./options.ts";
import type { Check, RunResult } from "./results.ts";
import { type Answer, exchangeOf, isWrite, type Request, type Sender } from "./sender.ts";

const PROGRESS_EVERY = 50;

export const auth = (token: string | undefined): Record<string, string> =>
  token === undefined ? {} : { authorization: `Bearer ${token}` };

export class ConformanceRun {
  readonly notes: string[] = [];
  /** What the run created, to delete at its end. */
  readonly created: { path: string; remove: DocumentedOperation }[] = [];
  /** The operations chosen (--operations), in the document's order. */
  readonly operations: DocumentedOperation[];
  private readonly checker: ContractChecker;
  private idsTaken = 0n;

  constructor(
    readonly options: ConformanceOptions,
    readonly sender: Sender,
    readonly document: OpenApiDocument,
    readonly checks: Check[],
    private readonly progress: (line: string) => void,
  ) {
    this.checker = createContractChecker(document);
    this.operations = operationsOf(document).filter(
      (op) => options.operations.length === 0 || options.operations.includes(op.operationId),
    );
  }

  /** Sends, checks the answer against the document and `rules`, and records the check. */
  async check(
    operationId: string,
    name: string,
    request: Request,
    rules: (answer: Answer) => string[] = () => [],
  ): Promise<Answer> {
    const { sender, checks } = this;
    const answer = await sender.send(request);
    const broken =
      answer.status === 0
        ? [answer.body]
        : [...this.checker(exchangeOf(request, answer)).map(withoutWhere), ...rules(answer)];
    checks.push({ operationId, name, request, answer, broken });
    if (sender.sent % PROGRESS_EVERY === 0) {
      const failed = checks.filter((c) => c.broken.length > 0).length;
      this.progress(`${sender.sent} requests, ${checks.length} checks, ${failed} failed`);
    }
    return answer;
  }

  inScope(op: DocumentedOperation): boolean {
    return this.options.allowWrites || !isWrite(op.method);
  }

  /** Without a token, a secured operation can only be checked for refusing one. */
  reachable(op: DocumentedOperation): boolean {
    return (
      this.inScope(op) &&
      (this.options.token !== undefined || securityOf(asDocument(this.document), op).length === 0)
    );
  }

  /** The next id of --id-range, or undefined once it is used up. */
  nextId(): bigint | undefined {
    const id = this.options.idRange.from + this.idsTaken;
    if (id > this.options.idRange.to) return undefined;
    this.idsTaken++;
    return id;
  }
}

export const resultOf = (
  options: ConformanceOptions,
  sender: Sender,
  checks: Check[],
  notes: string[],
): RunResult => ({
  baseUrl: options.baseUrl,
  checks,
  notes,
  requests: sender.sent,
  writes: sender.writes,
});

/** The checker's lines start with "METHOD target → status: "; the report says that itself. */
const withoutWhere = (problem: string): string => problem.replace(/^[^:]*→ \d+: /, "");
