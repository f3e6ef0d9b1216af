// Loaded into the server by `npm run bench:request-files` (node --import): a worker thread that
// attaches V8's inspector to the main thread and answers the bench on REQUEST_ORDER_PORT.
//   POST /count  starts counting calls (precise coverage) from zero
//   POST /arm?n  the functions of src/ called at least n times since: a breakpoint on each
//   POST /disarm the breakpoints hit since /arm, in order, each with its src/ call stack
// A breakpoint pauses the main thread, and the worker resumes it at once. Plain JavaScript: the
// service's own worker threads load it too, and do nothing with it.
import { isMainThread, Worker } from "node:worker_threads";

const WORKER = `
const { Session } = require("node:inspector");
const { createServer } = require("node:http");
const { workerData } = require("node:worker_threads");
const session = new Session();
session.connectToMainThread();
const post = (method, params = {}) =>
  new Promise((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))));
const urls = new Map();
let hits;
let breakpoints = [];
session.on("Debugger.scriptParsed", ({ params }) => {
  if (params.url.startsWith(workerData.srcUrl)) urls.set(params.scriptId, params.url);
});
session.on("Debugger.paused", ({ params }) => {
  if (hits !== undefined) {
    hits.push(params.callFrames
      .filter((frame) => urls.has(frame.location.scriptId))
      .map((frame) => ({ url: urls.get(frame.location.scriptId), name: frame.functionName || "(anonymous)" })));
  }
  session.post("Debugger.resume");
});
async function arm(n) {
  const { result } = await post("Profiler.takePreciseCoverage");
  await post("Profiler.stopPreciseCoverage");
  const chosen = [];
  const sources = new Map();
  for (const script of result) {
    if (!urls.has(script.scriptId)) continue;
    for (const fn of script.functions) {
      const range = fn.ranges[0];
      if (range === undefined || range.count < n || range.startOffset === 0) continue;
      if (!sources.has(script.scriptId)) {
        sources.set(script.scriptId, (await post("Debugger.getScriptSource", { scriptId: script.scriptId })).scriptSource);
      }
      const before = sources.get(script.scriptId).slice(0, range.startOffset).split("\\n");
      const location = { scriptId: script.scriptId, lineNumber: before.length - 1, columnNumber: before.at(-1).length };
      const { breakpointId } = await post("Debugger.setBreakpoint", { location });
      breakpoints.push(breakpointId);
      chosen.push({ url: script.url, name: fn.functionName || "(anonymous)" });
    }
  }
  hits = [];
  return chosen;
}
async function disarm() {
  for (const breakpointId of breakpoints) await post("Debugger.removeBreakpoint", { breakpointId });
  breakpoints = [];
  const seen = hits;
  hits = undefined;
  return seen;
}
async function count() {
  await post("Profiler.enable");
  await post("Debugger.enable");
  await post("Profiler.startPreciseCoverage", { callCount: true, detailed: false });
  await post("Profiler.takePreciseCoverage");
  return {};
}
createServer(async (request, response) => {
  const url = new URL(request.url, "http://localhost");
  try {
    const answer =
      url.pathname === "/count" ? await count()
      : url.pathname === "/arm" ? await arm(Number(url.searchParams.get("n")))
      : await disarm();
    response.end(JSON.stringify(answer));
  } catch (error) {
    response.statusCode = 500;
    response.end(String(error));
  }
}).listen(workerData.port, "127.0.0.1");
`;

if (isMainThread) {
  const port = Number(process.env.REQUEST_ORDER_PORT);
  const srcUrl = new URL("../../src/", import.meta.url).href;
  new Worker(WORKER, { eval: true, workerData: { port, srcUrl } }).unref();
}
