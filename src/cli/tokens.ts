// `plantstore tokens create|list|revoke`: managed API tokens in DATABASE_URL's database.

import { parseArgs } from "node:util";
import { issueToken } from "../auth/issue-token.ts";
import { documentScopes, loadDocument } from "../openapi/document.ts";
import type { TokenRecord, TokenStore } from "../store/tokens.ts";
import { parseDuration } from "./duration.ts";
import { unknownName } from "./suggest.ts";

export class UsageError extends Error {
  override name = "UsageError";
}

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export type TokensCommand = (store: TokenStore, io: Output) => Promise<void>;

export const TOKENS_USAGE = `usage:
  plantstore tokens create --name NAME [--expires-in 30d] [--scopes "plants:write"]
  plantstore tokens list
  plantstore tokens revoke NAME|ID

--expires-in takes a whole number of minutes, hours, days or weeks (90m, 12h, 30d, 52w);
without it the token is valid until revoked. --scopes takes scope names separated by spaces
or commas; without it the token carries no scope claim and has full access.`;

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
// RFC 6749 §3.3 scope-token: printable ASCII except space, " and \.
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** Checks the arguments before anything opens the database. */
export function parseTokensCommand(args: readonly string[]): TokensCommand {
  const [command, ...rest] = args;
  switch (command) {
    case "create":
      return createCommand(rest);
    case "list":
      positionals(rest, 0);
      return list;
    case "revoke": {
      const [target = ""] = positionals(rest, 1);
      return (store, io) => revoke(store, io, target);
    }
    default:
      throw new UsageError(
        command === undefined
          ? "a tokens command is needed"
          : unknownName("tokens command", command, ["create", "list", "revoke"]),
      );
  }
}

function positionals(args: readonly string[], count: number): string[] {
  const { positionals: found } = parse(args, {});
  if (found.length !== count) {
    throw new UsageError(
      `expected ${count === 0 ? "no arguments" : "one NAME or ID"}, got ${found.length}`,
    );
  }
  return found;
}

function parse(args: readonly string[], options: Record<string, { type: "string" }>) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function createCommand(args: readonly string[]): TokensCommand {
  const { values, positionals: extra } = parse(args, {
    name: { type: "string" },
    "expires-in": { type: "string" },
    scopes: { type: "string" },
  });
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  const name = values["name"] ?? "";
  if (!NAME.test(name) || name.startsWith("tok_")) {
    throw new UsageError(
      "--name must be 1-64 characters of A-Z a-z 0-9 . _ -, start with a letter or digit, and not start with tok_",
    );
  }
  const expiresIn = values["expires-in"];
  const expiresInMs = expiresIn === undefined ? undefined : parseDuration(expiresIn);
  if (expiresIn !== undefined && expiresInMs === undefined) {
    throw new UsageError(
      `--expires-in must be like 90m, 12h, 30d or 52w (at most ten years), got "${expiresIn}"`,
    );
  }
  const scopes = values["scopes"]?.split(/[\s,]+/).filter((scope) => scope !== "");
  if (scopes !== undefined && (scopes.length === 0 || !scopes.every((s) => SCOPE.test(s)))) {
    throw new UsageError(
      "--scopes must list scope names such as plants:write, separated by spaces or commas",
    );
  }
  // A scope no operation requires would give a token nothing; refusing it catches typos
  // (plants:wrte) before a token is handed out that fails every call with 403.
  const known = documentScopes(loadDocument());
  const unknown = scopes?.find((scope) => !known.includes(scope));
  if (unknown !== undefined) {
    throw new UsageError(
      `--scopes: "${unknown}" is not a scope of this API; its scopes are ${known.join(", ")}`,
    );
  }
  return async (store, io) => {
    const { token, record } = await issueToken(store, {
      name,
      ...(expiresInMs === undefined ? {} : { expiresInMs }),
      ...(scopes === undefined ? {} : { scopes }),
    });
    // The secret alone on stdout, so that TOKEN=$(plantstore tokens create ...) works.
    io.out(`${token}\n`);
    const lifetime =
      record.expiresAt === null ? "valid until revoked" : `expires ${when(record.expiresAt)}`;
    io.err(
      `plantstore: created token "${record.name}" (${record.id}), ${lifetime}; it is shown only this once\n`,
    );
  };
}

async function list(store: TokenStore, io: Output): Promise<void> {
  const now = new Date();
  const rows = (await store.list()).map((token) => [
    token.id,
    token.name,
    status(token, now),
    when(token.createdAt),
    token.expiresAt === null ? "never" : when(token.expiresAt),
    token.lastUsedAt === null ? "never" : when(token.lastUsedAt),
    token.scopes === null ? "(all)" : token.scopes.join(" "),
  ]);
  const header = ["ID", "NAME", "STATUS", "CREATED", "EXPIRES", "LAST USED", "SCOPES"];
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? "").length)),
  );
  for (const row of [header, ...rows]) {
    io.out(
      `${row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join("  ")
        .trimEnd()}\n`,
    );
  }
}

async function revoke(store: TokenStore, io: Output, target: string): Promise<void> {
  const result = await store.revoke(target, new Date());
  if (result.kind === "not-found") {
    throw new Error(`no token has the id "${target}", and no unrevoked token has that name`);
  }
  const { name, id, revokedAt } = result.token;
  io.out(
    result.kind === "revoked"
      ? `revoked token "${name}" (${id}); running servers refuse it within about a second\n`
      : `token "${name}" (${id}) was already revoked at ${when(revokedAt)}\n`,
  );
}

function status(token: TokenRecord, now: Date): string {
  if (token.revokedAt !== null) return "revoked";
  return token.expiresAt !== null && token.expiresAt <= now ? "expired" : "active";
}

/** UTC to the second: 2025-01-31T12:00:00Z. */
const when = (date: Date | null): string =>
  date === null ? "-" : `${date.toISOString().slice(0, 19)}Z`;
