// The logger each request gets (request.log, reply.log). Fastify asks for a pino child bound to
// the request's id for every request, and pino serialises the bindings each time; yet most
// requests log nothing but their completion line. This one makes pino's child the first time
// something is logged through it, and can write the completion line itself (request-log.ts):
// about 0.26 µs a request where pino's child and line took 0.55-0.78 µs (BENCHMARKS.md, fifth
// session).
import { hostname } from "node:os";
import type { FastifyBaseLogger } from "fastify";

type Bindings = Parameters<FastifyBaseLogger["child"]>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger["child"]>[1]>;
type Level = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
type LogFn = FastifyBaseLogger["info"];
interface PinoExtras {
  isLevelEnabled(level: string): boolean;
  bindings(): Bindings;
  flush(callback?: (error?: Error) => void): void;
}

/** Where lines written without pino go, and what pino would put before a child's bindings. */
export interface OwnLines {
  write(line: string): void;
  /** `,"pid":…,"hostname":…`: pino's default base, as it writes it. */
  base: string;
}

/** pino's numeric levels; a line is written when its level is at least the logger's. */
const LEVELS: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

export const pinoBase = (): string =>
  `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;

// What JSON.stringify would escape: a quote, a backslash, a control character, or a lone
// surrogate. One character class, no repetition: linear in the text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
const SURROGATE = /[\ud800-\udfff]/;

/**
 * JSON.stringify(text), in a third of the time for the plain text a log line mostly holds;
 * undefined for text with a surrogate, which pino writes its own way (a short text's lone
 * surrogate unescaped), so that such a line is left to pino.
 */
export function jsonString(text: string): string | undefined {
  if (!NEEDS_ESCAPE.test(text)) return `"${text}"`;
  return SURROGATE.test(text) ? undefined : JSON.stringify(text);
}

export class RequestLogger implements FastifyBaseLogger {
  #child: FastifyBaseLogger | undefined;
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  declare silent: LogFn;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly childBindings: Bindings,
    private readonly options: ChildLoggerOptions,
    private readonly own: OwnLines | undefined,
  ) {}

  /** pino's child, made on first use. */
  real(): FastifyBaseLogger {
    this.#child ??= this.parent.child(this.childBindings, this.options);
    return this.#child;
  }

  /** pino's child's level: a route's own, or its parent's. */
  get level(): string {
    return this.#child?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  // The rest of a pino logger that callers beyond Fastify's own type may use.
  private pino(): FastifyBaseLogger & PinoExtras {
    return this.real() as FastifyBaseLogger & PinoExtras;
  }

  isLevelEnabled(level: string): boolean {
    return this.pino().isLevelEnabled(level);
  }

  bindings(): Bindings {
    return this.pino().bindings();
  }

  flush(callback?: (error?: Error) => void): void {
    this.pino().flush(callback);
  }

  /**
   * Writes `{"level":…,"time":…` + pino's base + the bindings + `fields` + `,"msg":…}` as pino
   * would for this child, when the line is due at this logger's level; false when it is left
   * for pino to write (no stream of its own, options of its own, a binding that is no string,
   * text with a surrogate).
   * @param fields members already in JSON, each with its leading comma: `,"status":200`.
   */
  wroteOwn(level: Exclude<Level, "silent">, fields: string, msg: string): boolean {
    const own = this.own;
    const value = LEVELS[level];
    const threshold = LEVELS[this.level];
    if (own === undefined || value === undefined || threshold === undefined) return false;
    // Options of its own (a route's log level or serializers) are pino's to apply.
    for (const _ in this.options) return false;
    if (value < threshold) return true;
    let line = `{"level":${value},"time":${Date.now()}${own.base}`;
    for (const name in this.childBindings) {
      const bound = this.childBindings[name];
      const key = jsonString(name);
      const text = typeof bound === "string" ? jsonString(bound) : undefined;
      if (key === undefined || text === undefined) return false;
      line += `,${key}:${text}`;
    }
    const message = jsonString(msg);
    if (message === undefined) return false;
    own.write(`${line}${fields},"msg":${message}}\n`);
    return true;
  }
}

for (const level of ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const) {
  RequestLogger.prototype[level] = function (this: RequestLogger, ...args: unknown[]): void {
    const real = this.real();
    (real[level] as (...args: unknown[]) => void).apply(real, args);
  };
}

/**
 * Fastify's childLoggerFactory: a RequestLogger for each request, a child of `root`. Fastify
 * runs without a logger of its own (root-logger.ts), so the one it passes is a stand-in.
 */
export function requestLoggers(root: FastifyBaseLogger, own: OwnLines | undefined) {
  return (_logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) =>
    new RequestLogger(root, bindings, options, own);
}
