// A conformance run: the document's request examples, schema-driven probes, credentials and
// scopes, and exact int64 ids, sent to a deployment within the run's bounds; every answer is
// also checked against the document (status, media type, body schema, required headers).
import { readFileSync } from "node:fs";
import { parseYaml } from "../openapi/document.ts";
import { asDocument, type OpenApiDocument } from "./operations.ts";
import type { ConformanceOptions } from "./options.ts";
import type { Check, RunResult } from "./results.ts";
import { auth, ConformanceRun, resultOf } from "./run-context.ts";
import { BudgetSpent, type Request, Sender } from "./sender.ts";
import { credentials, exactIds, examples, probes, storedData } from "./steps.ts";
import { checkWebhooks } from "./webhook-check.ts";
import { guardWebhooks } from "./webhook-guard.ts";

export async function runConformance(
  options: ConformanceOptions,
  progress: (line: string) => void = () => {},
): Promise<RunResult> {
  const sender = new Sender(options);
  const checks: Check[] = [];
  const document = await loadDocument(options, sender, checks);
  if (document === undefined) return resultOf(options, sender, checks, []);
  const run = new ConformanceRun(options, sender, document, checks, progress);
  // Whether writes may message a subscriber is known before any write; the webhook checks
  // clean up before the examples run (a fresh deployment's examples see nothing of theirs);
  // the probes last: they may spend what is left of --max-writes.
  const steps = [guardWebhooks, checkWebhooks, examples, exactIds, storedData, credentials, probes];
  try {
    // A step cut short by a spent budget leaves the next ones their reads.
    for (const step of steps) {
      try {
        await step(run);
      } catch (error) {
        if (error instanceof BudgetSpent) {
          run.notes.push(`a step stopped early: ${error.message}`);
          continue;
        }
        // A document the step cannot handle fails the run, in the report, not as a crash.
        const why = error instanceof Error ? error.message : String(error);
        run.record("(run)", `step ${step.name}`, NO_REQUEST, [`the step stopped: ${why}`]);
      }
    }
  } finally {
    await cleanUp(run);
  }
  return resultOf(options, sender, checks, run.notes);
}

const NO_REQUEST: Request = { method: "-", target: "", headers: {} };

async function cleanUp(run: ConformanceRun): Promise<void> {
  for (const { path, remove } of run.created.splice(0)) {
    // Past the budgets too: what the run created must go.
    run.sender.allowCleanUp();
    await run.check(
      remove.operationId,
      "delete what the run created",
      { method: "DELETE", target: path, headers: auth(run.options.token) },
      ({ status }) => (status < 300 ? [] : [`deleting ${path} is answered ${status}`]),
    );
  }
}

async function loadDocument(
  options: ConformanceOptions,
  sender: Sender,
  checks: Check[],
): Promise<OpenApiDocument | undefined> {
  const fromFile = options.document !== "deployment";
  const request: Request = fromFile
    ? { method: "-", target: "", headers: {} }
    : { method: "GET", target: "/openapi.json", headers: {} };
  const answer = fromFile ? { status: 0, headers: {}, body: "" } : await sender.send(request);
  try {
    if (options.document !== "deployment") {
      return asDocument(parseYaml(readFileSync(options.document.file, "utf8")));
    }
    if (answer.unread !== undefined) throw new Error(answer.unread);
    if (answer.status !== 200) throw new Error(`answered ${answer.status}`);
    // Read as every command reads a document: aliases, nesting and $refs bounded.
    return asDocument(parseYaml(answer.body));
  } catch (error) {
    const where = fromFile ? (options.document as { file: string }).file : "/openapi.json";
    checks.push({
      operationId: "(document)",
      name: "the published document",
      request,
      answer,
      broken: [`${where} cannot be read: ${(error as Error).message}`],
    });
    return undefined;
  }
}
