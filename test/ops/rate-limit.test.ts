// Rate limits through app.inject: requests per bearer token, and rejected credentials per client
// address. Each test builds its own app, so counts never carry over.
import { describe, expect, it } from "vitest";
import { generateToken } from "../../src/auth/managed-token.ts";
import {
  AUTH,
  createTestApp,
  expectError,
  JSON_TYPE,
  OTHER_TOKEN,
  plantJson,
  postPlant,
  uniqueId,
} from "../helpers/app.ts";
import { hmacKey, jwtConfig, signJwt } from "../helpers/jwt.ts";

const WRONG = { authorization: "Bearer wrong-token-0123456789" };

function expectRetryAfter(value: string | string[] | number | undefined): void {
  expect(Number(value)).toBeGreaterThanOrEqual(1);
  expect(Number(value)).toBeLessThanOrEqual(60);
}

describe("requests per bearer token", () => {
  it("when a caller makes requests, then each answer announces the limit and what is left of it, down to the 429", async () => {
    const t = await createTestApp(undefined, undefined, { ops: { tokenRateLimit: 3 } });
    try {
      const seen: { status: number; policy: unknown; left: unknown }[] = [];
      const record = (res: { statusCode: number; headers: Record<string, unknown> }) =>
        seen.push({
          status: res.statusCode,
          policy: res.headers["ratelimit-policy"],
          left: String(res.headers["ratelimit"]).replace(/;t=\d+$/, ";t=…"),
        });
      record(await postPlant(t.app, plantJson(uniqueId(), "one")));
      record(await t.app.inject({ method: "GET", url: "/plants?limit=0", headers: AUTH }));
      record(await t.app.inject({ method: "GET", url: "/plants/1", headers: AUTH }));
      record(await t.app.inject({ method: "GET", url: "/plants", headers: AUTH }));
      const policy = '"per-caller";q=3;w=60';
      expect(seen).toEqual([
        { status: 200, policy, left: '"per-caller";r=2;t=…' },
        { status: 400, policy, left: '"per-caller";r=1;t=…' },
        { status: 404, policy, left: '"per-caller";r=0;t=…' },
        { status: 429, policy, left: '"per-caller";r=0;t=…' },
      ]);
      const last = await t.app.inject({ method: "GET", url: "/plants", headers: AUTH });
      const resetIn = Number(/;t=(\d+)$/.exec(String(last.headers["ratelimit"]))?.[1]);
      expect(resetIn).toBeGreaterThanOrEqual(1);
      expect(resetIn).toBeLessThanOrEqual(60);
      // Nothing is announced where no caller was counted: no credentials, or an open operation.
      for (const res of [
        await t.app.inject({ method: "GET", url: "/plants" }),
        await t.app.inject({ method: "GET", url: "/healthz", headers: AUTH }),
      ]) {
        expect(res.headers["ratelimit"]).toBeUndefined();
        expect(res.headers["ratelimit-policy"]).toBeUndefined();
      }
    } finally {
      await t.close();
    }
  });

  it("when the per-caller limit is off (0), then no answer announces one", async () => {
    const t = await createTestApp(undefined, undefined, { ops: { tokenRateLimit: 0 } });
    try {
      const res = await postPlant(t.app, plantJson(uniqueId(), "unlimited"));
      expect(res.statusCode).toBe(200);
      expect(res.headers["ratelimit"]).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it("when a token makes more requests than its limit in a minute, then 429 with Retry-After and nothing stored; other tokens and probes go on", async () => {
    const t = await createTestApp(undefined, undefined, { ops: { tokenRateLimit: 3 } });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await postPlant(t.app, plantJson(uniqueId(), "within"))).statusCode).toBe(200);
      }
      const id = uniqueId();
      const refused = await postPlant(t.app, plantJson(id, "over"));
      expectError(refused, 429, /more than 3 requests this minute; retry in \d+ s$/);
      expectRetryAfter(refused.headers["retry-after"]);
      expect(await t.db.store.resources.plants.get(id)).toBeUndefined();

      const other = uniqueId();
      const res = await postPlant(t.app, plantJson(other, "other token"), {
        authorization: `Bearer ${OTHER_TOKEN}`,
      });
      expect(res.statusCode).toBe(200);
      expect(await t.db.store.resources.plants.get(other)).toEqual({
        id: other,
        name: "other token",
      });
      expect(
        (await t.app.inject({ method: "GET", url: "/healthz", headers: AUTH })).statusCode,
      ).toBe(200);
      // Routing still comes first.
      expectError(await t.app.inject({ method: "PUT", url: "/plants", headers: AUTH }), 405);
    } finally {
      await t.close();
    }
  });

  it("when one token is sent under seven spellings of the header, then they share one limit", async () => {
    const t = await createTestApp(undefined, undefined, { ops: { tokenRateLimit: 5 } });
    const token = AUTH.authorization.slice("Bearer ".length);
    const spellings = ["Bearer", "bearer", "BEARER", "BeArEr", "Bearer ", "Bearer\t", " bearer "];
    try {
      const statuses: number[] = [];
      for (const scheme of spellings) {
        for (let i = 0; i < 5; i++) {
          const res = await postPlant(t.app, plantJson(uniqueId(), "spelt"), {
            authorization: `${scheme} ${token}`,
          });
          statuses.push(res.statusCode);
        }
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(5);
      expect(statuses.filter((status) => status === 429)).toHaveLength(30);
    } finally {
      await t.close();
    }
  });

  it("when two JWTs of one subject are used, then they share one limit; another subject has its own", async () => {
    const key = hmacKey("s".repeat(32));
    const t = await createTestApp(undefined, undefined, {
      ops: { tokenRateLimit: 2 },
      jwt: jwtConfig({ kind: "hs256-secret", secret: "s".repeat(32) }),
    });
    const send = async (subject: string) => {
      const jwt = await signJwt(key, { extra: { sub: subject } });
      return (
        await postPlant(t.app, plantJson(uniqueId(), "jwt"), { authorization: `Bearer ${jwt}` })
      ).statusCode;
    };
    try {
      expect([await send("alice"), await send("alice"), await send("alice")]).toEqual([
        200, 200, 429,
      ]);
      expect(await send("bob")).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("when the limit is 0, then no token is ever limited", async () => {
    const t = await createTestApp(undefined, undefined, { ops: { tokenRateLimit: 0 } });
    try {
      for (let i = 0; i < 20; i++) {
        expect((await postPlant(t.app, plantJson(uniqueId(), "unlimited"))).statusCode).toBe(200);
      }
    } finally {
      await t.close();
    }
  });
});

describe("rejected credentials per client address", () => {
  it("when an address sends more wrong tokens than the limit, then its next requests get 429 before any token is checked, and other addresses are unaffected", async () => {
    const t = await createTestApp(undefined, undefined, { ops: { authFailureLimit: 2 } });
    const from = (remoteAddress: string, headers: Record<string, string>, id = uniqueId()) =>
      t.app.inject({
        method: "POST",
        url: "/plants",
        remoteAddress,
        headers: { ...JSON_TYPE, ...headers },
        payload: plantJson(id, "guess"),
      });
    try {
      expectError(await from("192.0.2.10", WRONG), 401);
      expectError(await from("192.0.2.10", WRONG), 401);
      const guess = await from("192.0.2.10", WRONG);
      expectError(guess, 429, /too many rejected credentials from this address/);
      expectRetryAfter(guess.headers["retry-after"]);
      // Even the right token gets no answer about itself from a blocked address.
      const id = uniqueId();
      expectError(await from("192.0.2.10", AUTH, id), 429);
      expect(await t.db.store.resources.plants.get(id)).toBeUndefined();

      const elsewhere = uniqueId();
      expect((await from("192.0.2.11", AUTH, elsewhere)).statusCode).toBe(200);
      expect(await t.db.store.resources.plants.get(elsewhere)).toEqual({
        id: elsewhere,
        name: "guess",
      });
      expectError(await from("192.0.2.11", WRONG), 401);
      // Probes need no credentials and are never limited.
      const probe = await t.app.inject({
        method: "GET",
        url: "/healthz",
        remoteAddress: "192.0.2.10",
      });
      expect(probe.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("when 200 wrong tokens arrive at once from one address, then at most the limit are answered 401 and the rest 429", async () => {
    const t = await createTestApp(undefined, undefined, { ops: { authFailureLimit: 10 } });
    try {
      // Well-formed managed tokens that do not exist: each is looked up in the store, so all
      // 200 are being checked at once, as over 200 connections.
      const answers = await Promise.all(
        Array.from({ length: 200 }, () =>
          t.app.inject({
            method: "POST",
            url: "/plants",
            remoteAddress: "192.0.2.20",
            headers: { ...JSON_TYPE, authorization: `Bearer ${generateToken()}` },
            payload: plantJson(uniqueId(), "guess"),
          }),
        ),
      );
      const statuses = answers.map((res) => res.statusCode);
      expect(statuses.filter((status) => status === 401)).toHaveLength(10);
      expect(statuses.filter((status) => status === 429)).toHaveLength(190);
      // Blocked now, the right token included.
      const id = uniqueId();
      const right = await t.app.inject({
        method: "POST",
        url: "/plants",
        remoteAddress: "192.0.2.20",
        headers: { ...JSON_TYPE, ...AUTH },
        payload: plantJson(id, "right"),
      });
      expectError(right, 429);
      expect(await t.db.store.resources.plants.get(id)).toBeUndefined();
    } finally {
      await t.close();
    }
  });

  it("when requests carry no credentials at all, then they are 401 and never count as guesses", async () => {
    const t = await createTestApp(undefined, undefined, { ops: { authFailureLimit: 1 } });
    try {
      for (let i = 0; i < 5; i++) {
        expectError(await t.app.inject({ method: "POST", url: "/plants" }), 401);
      }
      expect((await postPlant(t.app, plantJson(uniqueId(), "still fine"))).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("when the limit is 0, then wrong tokens are answered 401 however many", async () => {
    const t = await createTestApp(undefined, undefined, { ops: { authFailureLimit: 0 } });
    try {
      for (let i = 0; i < 10; i++) {
        expectError(await t.app.inject({ method: "POST", url: "/plants", headers: WRONG }), 401);
      }
    } finally {
      await t.close();
    }
  });
});
