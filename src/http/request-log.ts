// One structured line per request, written once it is answered (Fastify writes two).
import {
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";

export interface RequestLine {
  method: string;
  url: string;
  status: number;
  ms?: number;
}

export const logAnswered = (log: FastifyBaseLogger, line: RequestLine): void =>
  log.info({ ...line, url: redactQuery(line.url) }, "request completed");

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

export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line: RequestLine = {
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error)
      reply.log.error({ ...line, url: redactQuery(line.url), err: error }, "request failed");
    else logAnswered(reply.log, line);
  }
}
