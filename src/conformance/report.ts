// A run's report: a summary for people (per operation, checks run and each failure with the
// request, the answer, the rules broken and a curl line to reproduce) and JUnit XML for CI.
import type { Check, RunResult } from "./results.ts";
import type { Request } from "./sender.ts";

const byOperation = (checks: readonly Check[]): Map<string, Check[]> => {
  const groups = new Map<string, Check[]>();
  for (const check of checks) {
    groups.set(check.operationId, [...(groups.get(check.operationId) ?? []), check]);
  }
  return groups;
};

const quote = (text: string): string => `'${text.replaceAll("'", "'\\''")}'`;

/** A curl line sending the request again; a bearer token is written as $TOKEN. */
export function curlLine(url: string, request: Request): string {
  const headers = Object.entries(request.headers).map(([name, value]) =>
    name.toLowerCase() === "authorization"
      ? `-H "authorization: ${value.replace(/^Bearer .*/, "Bearer $TOKEN")}"`
      : `-H ${quote(`${name}: ${value}`)}`,
  );
  const body = request.body === undefined ? [] : [`--data-raw ${quote(request.body)}`];
  return ["curl -i", `-X ${request.method}`, quote(url), ...headers, ...body].join(" ");
}

const clip = (text: string, length = 300): string =>
  text.length > length ? `${text.slice(0, length)}… (${text.length} characters)` : text;

export function textReport(run: RunResult, urlOf: (target: string) => string): string {
  const lines: string[] = [`Conformance of ${run.baseUrl}`, ""];
  for (const [operationId, checks] of byOperation(run.checks)) {
    const failed = checks.filter((c) => c.broken.length > 0);
    const mark = failed.length === 0 ? "ok  " : "FAIL";
    lines.push(`${mark} ${operationId}: ${checks.length} checks, ${failed.length} failed`);
    for (const check of failed) {
      const { request, answer } = check;
      lines.push(
        `  ✗ ${check.name}: ${request.method} ${clip(request.target, 120)} → ${answer.status}`,
        ...check.broken.map((rule) => `      ${clip(rule)}`),
        `      answer: ${clip(answer.body.replaceAll("\n", " "), 200) || "(no body)"}`,
        `      reproduce: ${clip(curlLine(urlOf(request.target), request), 600)}`,
      );
    }
  }
  const failed = run.checks.filter((c) => c.broken.length > 0).length;
  lines.push(
    "",
    ...run.notes.map((note) => `note: ${note}`),
    `${run.checks.length} checks, ${failed} failed; ${run.requests} requests, ${run.writes} writes`,
  );
  return `${lines.join("\n")}\n`;
}

const xml = (text: string): string =>
  // Characters XML 1.0 cannot carry are dropped; the rest escaped.
  [...text]
    .filter((c) => {
      const code = c.codePointAt(0) ?? 0;
      return (
        code === 9 ||
        code === 10 ||
        code === 13 ||
        (code >= 0x20 && !(code >= 0xd800 && code <= 0xdfff) && code !== 0xfffe && code !== 0xffff)
      );
    })
    .join("")
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

export function junitReport(run: RunResult, urlOf: (target: string) => string): string {
  const suites = [...byOperation(run.checks)].map(([operationId, checks]) => {
    const failed = checks.filter((c) => c.broken.length > 0).length;
    const cases = checks.map((check) => {
      const name = `${check.name}: ${check.request.method} ${clip(check.request.target, 120)}`;
      if (check.broken.length === 0) {
        return `    <testcase classname="${xml(operationId)}" name="${xml(name)}"/>`;
      }
      const detail = [
        `answer ${check.answer.status}: ${clip(check.answer.body, 1000)}`,
        `reproduce: ${curlLine(urlOf(check.request.target), check.request)}`,
      ].join("\n");
      return [
        `    <testcase classname="${xml(operationId)}" name="${xml(name)}">`,
        `      <failure message="${xml(check.broken.join("; "))}">${xml(detail)}</failure>`,
        "    </testcase>",
      ].join("\n");
    });
    return [
      `  <testsuite name="${xml(operationId)}" tests="${checks.length}" failures="${failed}">`,
      ...cases,
      "  </testsuite>",
    ].join("\n");
  });
  const failures = run.checks.filter((c) => c.broken.length > 0).length;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="plantstore conformance" tests="${run.checks.length}" failures="${failures}">`,
    ...suites,
    "</testsuites>",
    "",
  ].join("\n");
}
