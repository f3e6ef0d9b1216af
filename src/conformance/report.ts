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

// Characters a terminal acts on rather than prints: C0 and C1 controls, DEL, and the Unicode
// marks that reorder or hide text (bidirectional overrides and isolates, line separators).
const CONTROL = /[\p{Cc}\p{Bidi_Control}\p{Zl}\p{Zp}]/gu;

const escapeCode = (c: string): string => {
  const code = c.codePointAt(0) ?? 0;
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
};

/** `text` with every control character written as an escape: one printable line. */
export function printable(text: string): string {
  return text.replace(CONTROL, escapeCode);
}

/**
 * One word for a POSIX shell that stands for `text` exactly: single quotes (nothing inside is
 * expanded), or `$'…'` with escapes where it holds control characters, which a terminal would
 * otherwise act on and a paste would carry.
 */
export function shellQuote(text: string): string {
  if (!/\p{Cc}/u.test(text)) return `'${text.replaceAll("'", "'\\''")}'`;
  const escaped = text
    .replaceAll("\\", "\\\\")
    .replaceAll("'", "\\'")
    .replace(/\p{Cc}/gu, escapeCode);
  return `$'${escaped}'`;
}

const BEARER = /^Bearer [\x21-\x7e]+$/;

/**
 * A curl line sending the request again, each argument quoted for the shell; a bearer token is
 * written as "$TOKEN", the one part a shell expands.
 */
export function curlLine(url: string, request: Request): string {
  const headers = Object.entries(request.headers).map(([name, value]) =>
    name.toLowerCase() === "authorization" && BEARER.test(value)
      ? `-H "authorization: Bearer $TOKEN"`
      : `-H ${shellQuote(`${name}: ${value}`)}`,
  );
  const body = request.body === undefined ? [] : [`--data-raw ${shellQuote(request.body)}`];
  const method = /^[A-Z]+$/.test(request.method) ? request.method : shellQuote(request.method);
  return ["curl -i", `-X ${method}`, shellQuote(url), ...headers, ...body].join(" ");
}

const clip = (text: string, length = 300): string =>
  text.length > length ? `${text.slice(0, length)}… (${text.length} characters)` : text;

export function textReport(run: RunResult, urlOf: (target: string) => string): string {
  const lines: string[] = [`Conformance of ${run.baseUrl}`, ""];
  for (const [operationId, checks] of byOperation(run.checks)) {
    const failed = checks.filter((c) => c.broken.length > 0);
    const mark = failed.length === 0 ? "ok  " : "FAIL";
    lines.push(`${mark} ${operationId}: ${checks.length} checks, ${failed.length} failed`);
    for (const check of failed) lines.push(...failureLines(check, urlOf));
  }
  const failed = run.checks.filter((c) => c.broken.length > 0).length;
  lines.push(
    "",
    ...run.notes.map((note) => `note: ${note}`),
    `${run.checks.length} checks, ${failed} failed; ${run.requests} requests, ${run.writes} writes`,
  );
  // Operation ids, names, targets, rules and bodies come from the deployment: each line is
  // made printable whole, so no character of theirs reaches the terminal as a control.
  return `${lines.map(printable).join("\n")}\n`;
}

function failureLines(check: Check, urlOf: (target: string) => string): string[] {
  const { request, answer } = check;
  const rules = check.broken.map((rule) => `      ${clip(rule)}`);
  if (check.received === true) {
    return [
      `  ✗ ${check.name}: a webhook message`,
      ...rules,
      `      message: ${clip(request.body ?? "", 300) || "(no body)"}`,
    ];
  }
  if (request.method === "-") return [`  ✗ ${check.name}`, ...rules];
  return [
    `  ✗ ${check.name}: ${request.method} ${clip(request.target, 120)} → ${answer.status}`,
    ...rules,
    `      answer: ${clip(answer.body, 200) || "(no body)"}`,
    `      reproduce: ${clip(curlLine(urlOf(request.target), request), 600)}`,
  ];
}

const xml = (text: string): string =>
  // Controls are written as escapes, as in the text report (a CI page shows this to people);
  // what else XML 1.0 cannot carry (lone surrogates, U+FFFE, U+FFFF) is dropped.
  [...printable(text)]
    .filter((c) => {
      const code = c.codePointAt(0) ?? 0;
      return !(code >= 0xd800 && code <= 0xdfff) && code !== 0xfffe && code !== 0xffff;
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
      ]
        .map(xml)
        .join("\n");
      return [
        `    <testcase classname="${xml(operationId)}" name="${xml(name)}">`,
        `      <failure message="${xml(check.broken.join("; "))}">${detail}</failure>`,
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
