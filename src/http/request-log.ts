// One structured line per request, written once it is answered (Fastify writes two).
import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import { jsonString, RequestLogger } from "./request-logger.ts";

export interface RequestLine {
  method: string;
  url: string;
  status: number;
  ms?: number;
}

const COMPLETED = "request completed";

export const logAnswered = (log: FastifyBaseLogger, line: RequestLine): void =>
  log.info({ ...line, url: redactQuery(line.url) }, COMPLETED);

/** Query values can carry secrets (`?access_token=`): keep only the parameter names. */
export function redactQuery(url: string): string {
  const at = url.indexOf("?");
  if (at === -1) return url;
  const names = url
    .slice(at + 1)
    .split("&")
    .map((pair) => `${pair.split("=")[0]}=…`);
  return `${url.slice(0, at)}?${names.join("&")}`;
}

/**
 * The line's members in JSON, as pino writes them (a number that is not finite as null);
 * undefined when a text is one pino writes its own way (see jsonString).
 */
export function asMembers({ method, url, status, ms }: Required<RequestLine>): string | undefined {
  const methodText = jsonString(method);
  const urlText = jsonString(url);
  if (methodText === undefined || urlText === undefined) return undefined;
  return `,"method":${methodText},"url":${urlText},"status":${status},"ms":${Number.isFinite(ms) ? ms : null}`;
}

/** Fastify's log controller: no line when a request comes in (one when it is answered). */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  // Fastify calls this only with a logger of its own, an onResponse hook or a handlerTimeout,
  // none of which the app has (root-logger.ts; a test checks the hooks): the completion line
  // is written by logCompleted.
  override requestCompleted(): void {}
}

/** The completion line of an answered request (called by request-end.ts). */
export function logCompleted(request: FastifyRequest, reply: FastifyReply, ms: number): void {
  // Built once with the query already redacted: this runs for every request.
  const line = {
    method: request.method,
    url: redactQuery(request.url),
    status: reply.statusCode,
    ms: Math.round(ms * 10) / 10,
  };
  const log = reply.log;
  if (!(log instanceof RequestLogger && wroteOwnLine(log, line))) log.info(line, COMPLETED);
}

function wroteOwnLine(log: RequestLogger, line: Required<RequestLine>): boolean {
  const members = asMembers(line);
  return members !== undefined && log.wroteOwn("info", members, COMPLETED);
}
