// The configuration: every setting of settings.ts read once at start-up, put where its entry's
// `to` says, and checked together. Its type is derived from the table too, so a setting is
// added in the table alone. An invalid value stops the process with one line naming the
// variable (see src/main.ts).
import { ConfigError } from "./error.ts";
import { parseJwt } from "./jwt.ts";
import {
  nameOf,
  SETTING_NAMES,
  SETTINGS,
  type SettingName,
  type SettingPath,
  type SettingPaths,
  type SettingValues,
} from "./settings.ts";

export { redactUrl } from "./postgres-url.ts";
export { JWT_SHAPE, type LogLevel } from "./readers.ts";
export { ConfigError, SETTINGS };

type Env = Readonly<Record<string, string | undefined>>;

/** Reads every setting from `env` (defaults where unset); throws ConfigError for a bad one. */
export function readSettings(env: Env, cwd: string): SettingValues {
  const values: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const entry = SETTINGS[name];
    values[name] = entry.read(env[name] ?? entry.default, name, cwd);
  }
  return values as SettingValues;
}

/** `{{NAME}}` → text, for every setting a consumer can rely on (see Setting.published). */
export function publishedValues(values: SettingValues): Readonly<Record<string, string>> {
  const texts: Record<string, string> = {};
  for (const name of SETTING_NAMES) {
    const entry: { published?(value: unknown): string } = SETTINGS[name];
    if (entry.published !== undefined) texts[name] = entry.published(values[name]);
  }
  return texts;
}

const GROUPS = ["ops", "webhooks", "jwt", "postgres"] as const;
type Group = (typeof GROUPS)[number];

/** The values whose `to` is `group.field`, by field. */
export type Landed<G extends Group> = {
  [N in SettingName as SettingPaths[N] extends `${G}.${infer Field}`
    ? Field
    : never]: SettingValues[N];
};
/** The values whose `to` is a plain field. */
type TopLevel = {
  [N in SettingName as SettingPaths[N] extends `${string}.${string}`
    ? never
    : SettingPaths[N]]: SettingValues[N];
};
type Landing = { top: TopLevel } & { [G in Group]: Landed<G> };

/** Every value put where its entry's `to` says. */
function land(values: SettingValues): Landing {
  const landing: Record<string, Record<string, unknown>> = { top: {} };
  for (const group of GROUPS) landing[group] = {};
  for (const name of SETTING_NAMES) {
    const path: string = SETTINGS[name].to;
    const dot = path.indexOf(".");
    const target = landing[dot < 0 ? "top" : path.slice(0, dot)];
    // Its type would drop such a value without a word; a test reading the table fails here.
    if (target === undefined) throw new Error(`${name} lands in no known group: ${path}`);
    target[path.slice(dot + 1)] = values[name];
  }
  return landing as unknown as Landing;
}

export function loadConfig(env: Env, cwd: string = process.cwd()) {
  const values = readSettings(env, cwd);
  const { top, postgres, jwt, ops, webhooks } = land(values);
  const { database, ...rest } = top;
  // Any PLANTSTORE_JWT_* given turns JWTs on, a default (the clock skew) does not.
  const jwtGiven = SETTING_NAMES.some(
    (name) => SETTINGS[name].to.startsWith("jwt.") && env[name] !== undefined,
  );
  return {
    ...rest,
    database: database.engine === "sqlite" ? database : { ...database, ...postgres },
    jwt: jwtGiven ? parseJwt(jwt, cwd) : undefined,
    ops: checkOps(ops, values),
    webhooks: checkWebhooks(webhooks),
  };
}

export type Config = ReturnType<typeof loadConfig>;
export type DatabaseConfig = Config["database"];
export type PostgresDatabase = Extract<DatabaseConfig, { engine: "postgres" }>;
export type OpsConfig = Config["ops"];
export type { JwtConfig, JwtKeySource } from "./jwt.ts";

/** Running in production: probes, metrics, limits, timeouts, CORS, shutdown. */
function checkOps(ops: Landed<"ops">, values: SettingValues) {
  mustExceed(
    ["ops.requestTimeoutMs", ops.requestTimeoutMs],
    ["ops.headersTimeoutMs", ops.headersTimeoutMs],
    "must not be shorter than",
  );
  // `published`: the limits and deadlines the published document states, as it states them.
  return { ...ops, published: publishedValues(values) };
}

/** The webhook deliverer's settings (src/webhooks/deliverer.ts). */
function checkWebhooks(webhooks: Landed<"webhooks">) {
  mustExceed(
    ["webhooks.leaseMs", webhooks.leaseMs],
    ["webhooks.timeoutMs", webhooks.timeoutMs],
    "must exceed",
  );
  return webhooks;
}

/** Two durations that only make sense one longer than the other (or, "not shorter", equal). */
function mustExceed(
  [longer, long]: [SettingPath, number],
  [shorter, short]: [SettingPath, number],
  rule: "must exceed" | "must not be shorter than",
): void {
  if (rule === "must exceed" ? long > short : long >= short) return;
  throw new ConfigError(`${nameOf(longer)} (${long}) ${rule} ${nameOf(shorter)} (${short})`);
}

/** The operating settings with nothing set: what an app built without them gets. */
export const defaultOpsConfig = (): OpsConfig => loadConfig({}).ops;
