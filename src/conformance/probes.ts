// Schema-driven probes of each operation (fuzz-request.ts): every part valid, or one made
// invalid, each answer held to probe-rules.ts. A valid write is sent only where the run can keep
// what it writes in --id-range: a collection's create (its body's `id` pinned) or a write to
// one of its items (the path's id pinned); what it may have made is deleted afterwards.
import fc from "fast-check";
import { requestReferences } from "../openapi/references.ts";
import { type FuzzRequest, schemaArbitraries } from "./fuzz-request.ts";
import { type Collection, idOf, withId } from "./int64.ts";
import type { DocumentedOperation } from "./operations.ts";
import type { ConformanceOptions } from "./options.ts";
import { unexpectedAnswer } from "./probe-rules.ts";
import { type Answer, isWrite, type Request } from "./sender.ts";

// Probe bodies stay small: the run checks the contract, not the body limit.
const PROBE_BODY_LIMIT = 4096;

export interface ProbeRun {
  document: object;
  operations: readonly DocumentedOperation[];
  collections: readonly Collection[];
  options: ConformanceOptions;
  /** Writes are sent: --allow-writes given, and not refused since. */
  writing: boolean;
  auth: Record<string, string>;
  /** The next id of --id-range, or undefined once it is used up. */
  nextId(): bigint | undefined;
  /** Sends, checks and records; `rules` add what this check requires. */
  check(
    operationId: string,
    name: string,
    request: Request,
    rules: (answer: Answer) => string[],
  ): Promise<Answer>;
  /** Marks a path the run may have created, for deleting at its end. */
  created(path: string, collection: Collection): void;
  note(line: string): void;
}

export async function runProbes(run: ProbeRun): Promise<void> {
  const { fuzzRequest } = schemaArbitraries(run.document);
  for (const operation of run.operations) {
    const keeper = run.writing ? keeperOf(operation, run.collections) : undefined;
    const mayBeValid = !isWrite(operation.method) || keeper !== undefined;
    if (!mayBeValid && run.writing) {
      run.note(
        `${operation.operationId}: no valid probes, as what it writes has no id to keep in --id-range`,
      );
    }
    const samples = fc.sample(
      fuzzRequest(operation, PROBE_BODY_LIMIT).filter(
        (probe) => mayBeValid || probe.invalid !== undefined,
      ),
      { seed: run.options.seed, numRuns: run.options.probesPerOperation },
    );
    const references = requestReferences(operation.operation, run.document);
    for (const sample of samples) {
      const kept =
        sample.invalid === undefined && keeper !== undefined ? keeper(sample, run) : undefined;
      if (kept === null) continue;
      const probe = kept?.probe ?? sample;
      const request: Request = {
        method: probe.method,
        target: probe.url,
        headers: { ...run.auth, ...probe.headers },
        ...(probe.body === undefined ? {} : { body: probe.body }),
      };
      const name = `probe (${probe.invalid === undefined ? "valid" : `invalid ${probe.invalid}`})`;
      const answer = await run.check(operation.operationId, name, request, (a) => {
        const broken = unexpectedAnswer(
          probe,
          { status: a.status, message: messageOf(a) },
          references,
        );
        return broken === undefined ? [] : [broken];
      });
      if (kept?.made !== undefined && answer.status < 300)
        run.created(kept.made.path, kept.made.collection);
    }
  }
}

/** A valid write pinned into --id-range, and what it makes when it succeeds; null if it cannot be. */
type Keeper = (
  probe: FuzzRequest,
  run: ProbeRun,
) => { probe: FuzzRequest; made?: { path: string; collection: Collection } } | null;
/** How a valid write of `operation` is kept in --id-range, or undefined if it cannot be. */
function keeperOf(
  operation: DocumentedOperation,
  collections: readonly Collection[],
): Keeper | undefined {
  for (const collection of collections) {
    // What a write may make must be deleted afterwards.
    if (collection.remove === undefined) continue;
    const itemPath = (id: bigint) =>
      collection.item.template.replace(`{${collection.parameter}}`, String(id));
    const at = (id: bigint) => ({ path: itemPath(id), collection });
    if (operation === collection.create) {
      return (probe, run) => {
        if (probe.body === undefined || idOf(probe.body) === undefined) return null;
        const id = run.nextId();
        if (id === undefined) return null;
        return { probe: { ...probe, body: withId(probe.body, id) }, made: at(id) };
      };
    }
    if (operation.template === collection.item.template) {
      return (probe, run) => {
        const id = run.nextId();
        if (id === undefined) return null;
        const query = probe.url.indexOf("?");
        const url = itemPath(id) + (query === -1 ? "" : probe.url.slice(query));
        return {
          probe: { ...probe, url },
          ...(operation.method === "DELETE" ? {} : { made: at(id) }),
        };
      };
    }
  }
  return undefined;
}

const messageOf = (answer: Answer): string | undefined => {
  try {
    const { message } = JSON.parse(answer.body) as { message?: unknown };
    return typeof message === "string" ? message : undefined;
  } catch {
    return undefined;
  }
};
