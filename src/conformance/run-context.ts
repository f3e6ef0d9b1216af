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
  /** Why the run sends no write though --allow-writes was given (see webhook-guard.ts). */
  writesRefused: string | undefined;
  /** The deployment's own /openapi.json, read once where a --document run needs it. */
  published: Promise<OpenApiDocument | undefined> | undefined;

  constructor(
    readonly options: ConformanceOptions,
    readonly sender: Sender,
    readonly document: OpenApiDocument,
    readonly checks: Check[],
    private readonly progress: (line: string) => void,
  ) {
    const unchecked = new Set<string>();
    this.checker = createContractChecker(document, (pattern, why) => {
      if (unchecked.has(pattern)) return;
      unchecked.add(pattern);
      this.notes.push(`pattern ${JSON.stringify(pattern)} is not checked: ${why}`);
    });
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
        : answer.unread !== undefined
          ? [answer.unread]
          : [...this.checker(exchangeOf(request, answer)).map(withoutWhere), ...rules(answer)];
    checks.push({ operationId, name, request, answer, broken });
    if (sender.sent % PROGRESS_EVERY === 0) {
      const failed = checks.filter((c) => c.broken.length > 0).length;
      this.progress(`${sender.sent} requests, ${checks.length} checks, ${failed} failed`);
    }
    return answer;
  }

  /** Records a check made without sending `request` (a step that could not run, say why). */
  record(operationId: string, name: string, request: Request, broken: string[]): void {
    this.checks.push({
      operationId,
      name,
      request,
      answer: { status: 0, headers: {}, body: "" },
      broken,
    });
  }

  /** Whether the run sends writes: --allow-writes given, and not refused since. */
  get writing(): boolean {
    return this.options.allowWrites && this.writesRefused === undefined;
  }

  /** Refuses every write from now on, saying why in the notes. */
  refuseWrites(reason: string): void {
    this.writesRefused = reason;
    this.sender.refuseWrites(reason);
    this.notes.push(`no write was sent: ${reason}`);
  }

  inScope(op: DocumentedOperation): boolean {
    return this.writing || !isWrite(op.method);
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
