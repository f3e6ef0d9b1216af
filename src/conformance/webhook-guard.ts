// A run never makes a deployment message a real subscriber unless told it may: before its first
// write, a run that would write, against a document that declares webhooks, asks the endpoint
// registry whether any endpoint is registered. When one is, or the run cannot tell (no registry
// in the document, no token, an answer it cannot read), it sends no write and says why, unless
// --allow-webhooks is given.
import { asDocument } from "./operations.ts";
import { auth, type ConformanceRun } from "./run-context.ts";
import { declaredEvents, endpointRegistry } from "./webhook-registry.ts";

export async function guardWebhooks(run: ConformanceRun): Promise<void> {
  if (!run.writing || run.options.allowWebhooks) return;
  const document = asDocument(run.document);
  if (declaredEvents(document).length === 0) return;
  const why = await registeredEndpoints(run);
  if (why === undefined) return;
  run.refuseWrites(
    `${why}, and what the run writes would be sent to them as webhooks; give --allow-webhooks to write anyway`,
  );
}

/** Why writing could message a subscriber; undefined when no endpoint is registered. */
async function registeredEndpoints(run: ConformanceRun): Promise<string | undefined> {
  const list = endpointRegistry(asDocument(run.document))?.list;
  if (list === undefined) {
    return "the document declares webhooks but no list of endpoints to tell whether any is registered";
  }
  const paged = list.parameters.some((p) => p.in === "query" && p.name === "limit");
  const answer = await run.check(list.operationId, "webhook endpoints before writing", {
    method: "GET",
    target: paged ? `${list.template}?limit=1` : list.template,
    headers: auth(run.options.token),
  });
  let endpoints: unknown;
  try {
    endpoints = answer.status === 200 ? JSON.parse(answer.body) : undefined;
  } catch {
    endpoints = undefined;
  }
  if (!Array.isArray(endpoints)) {
    return `whether webhook endpoints are registered cannot be told (${list.operationId} is answered ${answer.status})`;
  }
  return endpoints.length > 0 ? "webhook endpoints are registered at the deployment" : undefined;
}
