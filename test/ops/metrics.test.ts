// GET /metrics through app.inject: Prometheus text with the request, store, authentication and
// process metrics, and PLANTSTORE_METRICS_TOKEN when it is set.
import type { FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import { METRICS_TEXT_MS, madeAtMostEvery } from "../../src/ops/metrics.ts";
import {
  AUTH,
  createTestApp,
  expectError,
  OTHER_TOKEN,
  plantJson,
  postPlant,
  uniqueId,
  useTestApp,
} from "../helpers/app.ts";
import { storeEngines } from "../helpers/stores.ts";

const METRICS_TOKEN = "metrics-token-0123456789abcdef";

async function scrape(app: FastifyInstance, headers: Record<string, string> = {}): Promise<string> {
  const res = await app.inject({ method: "GET", url: "/metrics", headers });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
  return res.body;
}

/** The value of one sample, e.g. sample(text, 'plantstore_plants_created_total'). */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe.each(storeEngines)("metrics ($name)", (engine) => {
  it("when plants are created, replayed and refused, then the counters and histograms say so", async () => {
    const t = await createTestApp(engine);
    try {
      const id = uniqueId();
      expect((await postPlant(t.app, plantJson(id, "Secretia metricata"))).statusCode).toBe(200);
      expect((await postPlant(t.app, plantJson(id, "Secretia metricata"))).statusCode).toBe(200);
      expect((await postPlant(t.app, plantJson(id, "other"))).statusCode).toBe(409);
      await t.app.inject({ method: "POST", url: "/plants", payload: "{}" });
      await t.app.inject({
        method: "POST",
        url: "/plants",
        headers: { authorization: "Bearer not-a-token-0123456789" },
      });
      await t.app.inject({ method: "GET", url: `/nowhere/${uniqueId()}` });
      // Fastify's router takes this for /plants; openapi-backend does not, nor do the labels.
      await t.app.inject({ method: "POST", url: "/pl%61nts", headers: AUTH });
      // Answered by a hook before the route's handler: counted all the same.
      const twoTypes = await t.app.inject({
        method: "POST",
        url: "/plants",
        headers: { ...AUTH, "content-type": ["application/json", "application/json"] },
        payload: plantJson(uniqueId(), "x"),
      });
      expect(twoTypes.statusCode, twoTypes.body).toBe(400);

      const text = await scrape(t.app);
      expect(sample(text, "plantstore_plants_created_total")).toBe(1);
      expect(
        sample(
          text,
          'plantstore_http_requests_total{route="createPlant",method="POST",status="200"}',
        ),
      ).toBe(2);
      expect(
        sample(
          text,
          'plantstore_http_requests_total{route="createPlant",method="POST",status="409"}',
        ),
      ).toBe(1);
      expect(
        sample(text, 'plantstore_http_requests_total{route="unmatched",method="GET",status="404"}'),
      ).toBe(1);
      expect(
        sample(
          text,
          'plantstore_http_requests_total{route="unmatched",method="POST",status="404"}',
        ),
      ).toBe(1);
      expect(text).not.toMatch(/route="createPlant",method="POST",status="404"/);
      expect(
        sample(
          text,
          'plantstore_http_requests_total{route="createPlant",method="POST",status="400"}',
        ),
      ).toBe(1);
      expect(sample(text, 'plantstore_auth_failures_total{reason="missing"}')).toBe(1);
      expect(sample(text, 'plantstore_auth_failures_total{reason="invalid_token"}')).toBe(1);
      expect(
        sample(
          text,
          'plantstore_store_commit_seconds_count{write="createPlant",outcome="created"}',
        ),
      ).toBe(1);
      expect(
        sample(
          text,
          'plantstore_store_commit_seconds_count{write="createPlant",outcome="replayed"}',
        ),
      ).toBe(1);
      expect(
        sample(
          text,
          'plantstore_store_commit_seconds_count{write="createPlant",outcome="conflict"}',
        ),
      ).toBe(1);
      expect(
        sample(
          text,
          'plantstore_http_request_duration_seconds_count{route="createPlant",method="POST",status="200"}',
        ),
      ).toBe(2);
      // Timed, not just counted.
      expect(
        sample(
          text,
          'plantstore_http_request_duration_seconds_sum{route="createPlant",method="POST",status="200"}',
        ),
      ).toBeGreaterThan(0);
      // Process and event-loop metrics.
      for (const name of [
        "process_cpu_user_seconds_total",
        "nodejs_eventloop_lag_seconds",
        "nodejs_heap_size_used_bytes",
      ]) {
        expect(text).toMatch(new RegExp(`^${name} `, "m"));
      }
      // Nothing a client sent becomes a label or a value.
      expect(text).not.toContain("Secretia");
      expect(text).not.toContain("not-a-token");
      expect(text).not.toContain("/nowhere");
    } finally {
      await t.close();
    }
  });
});

describe("the metrics text", () => {
  it("when asked again within its time, then the text made first is served; after it, a new one", async () => {
    let now = 0;
    let made = 0;
    const text = madeAtMostEvery(
      1000,
      async () => `text ${++made}`,
      () => now,
    );
    expect(await text()).toBe("text 1");
    now = 999;
    expect(await text()).toBe("text 1");
    now = 1000;
    expect(await text()).toBe("text 2");
  });

  it("when scraped after a second, then the text counts what happened since", async () => {
    const t = await createTestApp();
    try {
      await scrape(t.app);
      await postPlant(t.app, plantJson(uniqueId(), "counted later"));
      await new Promise((resolve) => setTimeout(resolve, METRICS_TEXT_MS + 50));
      const later = await scrape(t.app);
      expect(sample(later, "plantstore_plants_created_total")).toBe(1);
    } finally {
      await t.close();
    }
  });
});

describe("metrics of one app are its own", () => {
  it("when two apps run in one process, then each counts only its own requests", async () => {
    const first = await createTestApp();
    const second = await createTestApp();
    try {
      await postPlant(first.app, plantJson(uniqueId(), "first only"));
      expect(sample(await scrape(first.app), "plantstore_plants_created_total")).toBe(1);
      expect(sample(await scrape(second.app), "plantstore_plants_created_total")).toBe(0);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe("metrics behind PLANTSTORE_METRICS_TOKEN", () => {
  const app = useTestApp(undefined, { ops: { metricsToken: METRICS_TOKEN } });

  it("when the metrics token is sent, then 200", async () => {
    await scrape(app().app, { authorization: `Bearer ${METRICS_TOKEN}` });
  });

  it.each([
    ["no credentials", {}, /Bearer realm="plantstore"$/],
    ["a plant token", AUTH, /error="invalid_token"/],
    ["another token", { authorization: `Bearer ${OTHER_TOKEN}x` }, /error="invalid_token"/],
  ])(
    "when /metrics is asked with %s, then 401 with a Bearer challenge",
    async (_what, headers, challenge) => {
      const res = await app().app.inject({ method: "GET", url: "/metrics", headers });
      expectError(res, 401);
      expect(res.headers["www-authenticate"]).toMatch(challenge);
    },
  );

  it("when /metrics is scraped up to the rate limit, then the plant tokens' allowance is untouched", async () => {
    const t = await createTestApp(undefined, undefined, {
      ops: { metricsToken: METRICS_TOKEN, tokenRateLimit: 2 },
    });
    try {
      const scraper = { authorization: `Bearer ${METRICS_TOKEN}` };
      for (let i = 0; i < 2; i++) await scrape(t.app, scraper);
      const res = await t.app.inject({ method: "GET", url: "/plants", headers: AUTH });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["ratelimit"]).toMatch(/^"per-caller";r=1;t=\d+$/);
      // And the other way round: the scraper's own allowance is spent, not the plant token's.
      const third = await t.app.inject({ method: "GET", url: "/metrics", headers: scraper });
      expectError(third, 429);
    } finally {
      await t.close();
    }
  });

  it("when the metrics token is used to create a plant, then 401: it opens /metrics only", async () => {
    const id = uniqueId();
    const res = await postPlant(app().app, plantJson(id, "x"), {
      authorization: `Bearer ${METRICS_TOKEN}`,
    });
    expectError(res, 401);
    expect(await app().db.store.resources.plants.get(id)).toBeUndefined();
  });
});
