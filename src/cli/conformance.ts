// `plantstore conformance --base-url URL …`: checks a deployment against the published
// document (src/conformance/) and prints the report; exit 1 when any check fails.
import { writeFileSync } from "node:fs";
import { type ConformanceOptions, DEFAULT_OPTIONS } from "../conformance/options.ts";
import { junitReport, printable, textReport } from "../conformance/report.ts";
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
  --timeout 10s             per request, its answer's body included (s or ms), default ${DEFAULT_OPTIONS.timeoutMs / 1000}s
  --max-time 5m             the whole run, requests in flight cut at it (s, m), default ${DEFAULT_OPTIONS.maxTimeMs / 60_000}m
  --max-body 4MiB           an answer's body is read up to this size (B, KiB, MiB; at most 64MiB), default ${DEFAULT_OPTIONS.maxBodyBytes / 1024 / 1024}MiB
  --seed N                  for the probes, default ${DEFAULT_OPTIONS.seed}
  --probes N                probes per operation, default ${DEFAULT_OPTIONS.probesPerOperation}
  --allow-writes            also operations that write (default: read-only operations only);
                            refused while webhook endpoints are registered (or that cannot be told)
  --allow-webhooks          write even so: what the run creates is sent to those endpoints
  --webhook-receiver HOST:PORT
                            listen there, register an endpoint for it, make the writes that send
                            each declared event, check each message, delete the endpoint
                            (needs --allow-writes; the deployment must reach HOST:PORT)
  --max-writes N            default ${DEFAULT_OPTIONS.maxWrites}
  --id-range FROM-TO        ids the run may create, default ${DEFAULT_OPTIONS.idRange.from}-${DEFAULT_OPTIONS.idRange.to}
  --fresh                   the deployment is empty and disposable: run every example in order,
                            writes included, and compare every answer in full (needs --allow-writes)
  --junit FILE              also write a JUnit XML report`;

const FLAGS = new Set(["--allow-writes", "--allow-webhooks", "--fresh"]);

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

const SIZE_UNIT: Readonly<Record<string, number>> = { B: 1, KiB: 1024, MiB: 1024 ** 2 };
// A body is held whole once read, and parsed: past this a run's memory is the answer's to set.
const MOST_BODY_BYTES = 64 * 1024 ** 2;

function bytes(text: string, name: string): number {
  const match = /^(\d{1,9})(B|KiB|MiB)?$/.exec(text);
  const size = match === null ? 0 : Number(match[1]) * (SIZE_UNIT[match[2] ?? "B"] ?? 1);
  if (size < 1 || size > MOST_BODY_BYTES) {
    throw new UsageError(`${name} takes a size up to 64MiB, e.g. 4MiB, 512KiB or 65536`);
  }
  return size;
}

function hostPort(text: string): { host: string; port: number } {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(text);
  const port = Number(match?.[2]);
  if (match === null || port > 65_535) {
    throw new UsageError("--webhook-receiver takes HOST:PORT, e.g. 127.0.0.1:9400");
  }
  return { host: (match[1] ?? "").replace(/^\[(.*)\]$/, "$1"), port };
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
      case "--max-body":
        options.maxBodyBytes = bytes(value, name);
        break;
      case "--allow-webhooks":
        options.allowWebhooks = true;
        break;
      case "--webhook-receiver":
        options.webhookReceiver = hostPort(value);
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
  if (options.webhookReceiver !== undefined && !options.allowWrites) {
    throw new UsageError("--webhook-receiver needs --allow-writes");
  }
  return options;
}

/** Runs and reports; resolves to the exit status (1 when a check failed). */
export async function runConformanceCommand(
  options: ConformanceOptions & { junit?: string },
  io: Output,
): Promise<number> {
  const progress = (line: string) => io.err(`conformance: ${printable(line)}\n`);
  let run: Awaited<ReturnType<typeof runConformance>>;
  try {
    run = await runConformance(options, progress);
  } catch (error) {
    // What the deployment sent may be in the message: printed as text, never as controls.
    io.err(`plantstore: the conformance run stopped: ${printable(String(error))}\n`);
    return 1;
  }
  const sender = new Sender(options);
  const urlOf = (target: string) => sender.url(target);
  io.out(textReport(run, urlOf));
  if (options.junit !== undefined) writeFileSync(options.junit, junitReport(run, urlOf));
  const failed = run.checks.some((check) => check.broken.length > 0);
  return failed || run.checks.length === 0 ? 1 : 0;
}
