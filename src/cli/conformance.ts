// `plantstore conformance --base-url URL …`: checks a deployment against the published
// document (src/conformance/) and prints the report; exit 1 when any check fails.
import { writeFileSync } from "node:fs";
import { type ConformanceOptions, DEFAULT_OPTIONS } from "../conformance/options.ts";
import { junitReport, textReport } from "../conformance/report.ts";
import { runConformance } from "../conformance/run.ts";
import { Sender } from "../conformance/sender.ts";
import { type Output, UsageError } from "./tokens.ts";

export const CONFORMANCE_USAGE = `usage:
  plantstore conformance --base-url URL [--token T] [options]

Checks a deployment against its OpenAPI document: the document's request examples, schema-driven
probes, credentials and scopes, exact int64 ids; every answer against the document.
  --token T                 bearer token with the operations' scopes (or CONFORMANCE_TOKEN)
  --token-without-scope T2  a token lacking them: scoped operations must answer 403
  --document FILE           the document to check against (default: the deployment's /openapi.json)
  --operations A,B          only these operationIds
  --max-requests N          default ${DEFAULT_OPTIONS.maxRequests}
  --rate N                  requests per second, default ${DEFAULT_OPTIONS.rate}
  --timeout 10s             per request (s or ms), default ${DEFAULT_OPTIONS.timeoutMs / 1000}s
  --max-time 5m             the whole run (s, m), default ${DEFAULT_OPTIONS.maxTimeMs / 60_000}m
  --seed N                  for the probes, default ${DEFAULT_OPTIONS.seed}
  --probes N                probes per operation, default ${DEFAULT_OPTIONS.probesPerOperation}
  --allow-writes            also operations that write (default: read-only operations only)
  --max-writes N            default ${DEFAULT_OPTIONS.maxWrites}
  --id-range FROM-TO        ids the run may create, default ${DEFAULT_OPTIONS.idRange.from}-${DEFAULT_OPTIONS.idRange.to}
  --fresh                   the deployment is empty and disposable: run every example in order,
                            writes included, and compare every answer in full (needs --allow-writes)
  --junit FILE              also write a JUnit XML report`;

const FLAGS = new Set(["--allow-writes", "--fresh"]);

function parseArgs(args: readonly string[]): Map<string, string> {
  const given = new Map<string, string>();
  for (let index = 0; index < args.length; index += 1) {
    const name = args[index] ?? "";
    if (FLAGS.has(name)) {
      given.set(name, "true");
      continue;
    }
    const value = args[index + 1];
    if (!name.startsWith("--") || value === undefined) throw new UsageError(`unexpected "${name}"`);
    given.set(name, value);
    index += 1;
  }
  return given;
}

const count = (text: string, name: string): number => {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`${name} takes a positive integer`);
  return n;
};

const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000 };

function milliseconds(text: string, name: string): number {
  const match = /^(\d{1,6})(ms|s|m)$/.exec(text);
  if (match === null) throw new UsageError(`${name} takes e.g. 10s, 500ms or 5m`);
  return Number(match[1]) * (UNIT_MS[match[2] ?? ""] ?? 1000);
}

function idRange(text: string): ConformanceOptions["idRange"] {
  const match = /^(-?\d+)-(-?\d+)$/.exec(text);
  if (match === null)
    throw new UsageError("--id-range takes FROM-TO, e.g. 9007199254740993-9007199254741992");
  const range = { from: BigInt(match[1] ?? ""), to: BigInt(match[2] ?? "") };
  if (range.from > range.to) throw new UsageError("--id-range: FROM is past TO");
  return range;
}

/** The run's options from the arguments (and CONFORMANCE_TOKEN), checked before anything is sent. */
export function parseConformanceCommand(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): ConformanceOptions & { junit?: string } {
  const given = parseArgs(args);
  const baseUrl = given.get("--base-url");
  if (baseUrl === undefined || !/^https?:$/.test(URL.parse(baseUrl)?.protocol ?? "")) {
    throw new UsageError("--base-url takes an http:// or https:// URL");
  }
  const options: ConformanceOptions & { junit?: string } = { ...DEFAULT_OPTIONS, baseUrl };
  const token = given.get("--token") ?? env["CONFORMANCE_TOKEN"];
  if (token !== undefined) options.token = token;
  for (const [name, value] of given) {
    switch (name) {
      case "--base-url":
      case "--token":
        break;
      case "--token-without-scope":
        options.tokenWithoutScope = value;
        break;
      case "--document":
        options.document = { file: value };
        break;
      case "--operations":
        options.operations = value.split(",").map((id) => id.trim());
        break;
      case "--max-requests":
        options.maxRequests = count(value, name);
        break;
      case "--rate":
        options.rate = count(value, name);
        break;
      case "--timeout":
        options.timeoutMs = milliseconds(value, name);
        break;
      case "--max-time":
        options.maxTimeMs = milliseconds(value, name);
        break;
      case "--seed":
        options.seed = count(value, name);
        break;
      case "--probes":
        options.probesPerOperation = count(value, name);
        break;
      case "--allow-writes":
        options.allowWrites = true;
        break;
      case "--max-writes":
        options.maxWrites = count(value, name);
        break;
      case "--id-range":
        options.idRange = idRange(value);
        break;
      case "--fresh":
        options.fresh = true;
        break;
      case "--junit":
        options.junit = value;
        break;
      default:
        throw new UsageError(`unknown option "${name}"`);
    }
  }
  if (options.fresh && !options.allowWrites) throw new UsageError("--fresh needs --allow-writes");
  return options;
}

/** Runs and reports; resolves to the exit status (1 when a check failed). */
export async function runConformanceCommand(
  options: ConformanceOptions & { junit?: string },
  io: Output,
): Promise<number> {
  const progress = (line: string) => io.err(`conformance: ${line}\n`);
  const run = await runConformance(options, progress);
  const sender = new Sender(options);
  const urlOf = (target: string) => sender.url(target);
  io.out(textReport(run, urlOf));
  if (options.junit !== undefined) writeFileSync(options.junit, junitReport(run, urlOf));
  const failed = run.checks.some((check) => check.broken.length > 0);
  return failed || run.checks.length === 0 ? 1 : 0;
}
