// The deliverer's sending side (src/webhooks/dispatch.ts) on a store double, the real slots and
// a real receiver on 127.0.0.1: what is sent and how its outcome is recorded, which claims are
// set aside to be given back (leases too short, endpoints gone), one pump at a time, and
// stopping. Only Date (or performance) is faked, where a lease's or an attempt's time matters;
// every wait is for an event (a request arriving, a slot freed, a connection closed).
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type AttemptRecord,
  type ClaimedDelivery,
  newWebhookSecret,
  type WebhookEndpoint,
  type WebhookStore,
} from "../../src/store/webhooks.ts";
import type { DelivererSettings } from "../../src/webhooks/deliverer.ts";
import { Dispatch } from "../../src/webhooks/dispatch.ts";
import { closeWebhookConnections } from "../../src/webhooks/send.ts";
import { Slots } from "../../src/webhooks/slots.ts";

const SETTINGS: DelivererSettings = {
  timeoutMs: 10_000,
  leaseMs: 60_000,
  retryScheduleMs: [60_000],
  retentionMs: 86_400_000,
  allowPrivate: true,
  concurrency: 4,
  endpointConcurrency: 1,
};
// With SETTINGS, the latest claim time an attempt may start from: its lease outlasts the timeout.
const LEASE_LEFT_MS = SETTINGS.leaseMs - SETTINGS.timeoutMs;
const NOW = 1_750_000_000_750;
const SECRET = newWebhookSecret();

/** A count that can be waited for. */
function counter() {
  let count = 0;
  const waiting: { at: number; resolve: () => void }[] = [];
  return {
    add() {
      count += 1;
      for (const wait of waiting.filter(({ at }) => at <= count)) wait.resolve();
    },
    reached: (at: number) =>
      count >= at
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiting.push({ at, resolve });
          }),
  };
}

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

interface Request {
  method: string | undefined;
  headers: IncomingMessage["headers"];
  body: string;
  answer(status: number): void;
}

const closing: (() => Promise<void>)[] = [];

/**
 * A receiver that hands each request to `answering` (all answered 200 unless it says); what it
 * received, when the n-th request arrives, and when every connection it saw has closed.
 */
async function receiver(answering: (request: Request) => void = (r) => r.answer(200)) {
  const requests: Request[] = [];
  const arrived = counter();
  const sockets: Socket[] = [];
  const server = createServer((incoming, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const request: Request = {
        method: incoming.method,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        answer: (status) => response.writeHead(status).end(),
      };
      requests.push(request);
      arrived.add();
      answering(request);
    });
  });
  // Idle connections are kept open past any test (the sender's keep-alive follows the server's
  // hint): one that closes was closed by the sender's pool.
  server.keepAliveTimeout = 600_000;
  server.on("connection", (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closing.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    ids: () => requests.map((request) => request.headers["webhook-id"]),
    arrived: arrived.reached,
    allClosed: () =>
      Promise.all(
        sockets.map((socket) =>
          socket.closed
            ? undefined
            : new Promise<void>((resolve) => socket.once("close", () => resolve())),
        ),
      ),
    connections: () => sockets.length,
  };
}

/** A URL where nothing listens (a port just freed). */
async function nothingListening(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}/hook`;
}

function delivery(
  id: string,
  endpointId: string,
  url: string,
  more: Partial<ClaimedDelivery> = {},
): ClaimedDelivery {
  return {
    id,
    event: "newPlant",
    endpointId,
    url,
    body: `{"delivery":"${id}"}`,
    attempts: 0,
    secrets: [SECRET],
    ...more,
  };
}

const endpoint = (id: string, disabledAt: Date | null = null): WebhookEndpoint => ({
  id,
  url: "http://127.0.0.1/unused",
  description: null,
  createdAt: new Date(0),
  disabledAt,
  events: ["newPlant"],
});

const dispatches: Dispatch[] = [];

/** A dispatch on a store double whose endpoints all exist, unless `endpoints` says otherwise. */
function dispatchWith(
  options: {
    settings?: Partial<DelivererSettings>;
    endpoints?: Record<string, WebhookEndpoint | undefined>;
  } = {},
) {
  const settings = { ...SETTINGS, ...options.settings };
  const endpoints = options.endpoints ?? {};
  const slots = new Slots(settings.concurrency, settings.endpointConcurrency);
  const store = {
    getEndpoint: vi.fn(
      async (id: string): Promise<WebhookEndpoint | undefined> =>
        id in endpoints ? endpoints[id] : endpoint(id),
    ),
    complete: vi.fn(async (_id: string, _owner: string, _record: AttemptRecord) => true),
  };
  const log = { info: vi.fn(), warn: vi.fn() };
  const metrics = { attempt: vi.fn(), backlog: vi.fn() };
  const freed = counter();
  const dispatch = new Dispatch({
    store: store as unknown as WebhookStore,
    settings,
    log,
    metrics,
    owner: "owner-1",
    slots,
    slotFreed: () => freed.add(),
  });
  dispatches.push(dispatch);
  return {
    dispatch,
    slots,
    store,
    log,
    metrics,
    /** Resolves once `n` attempts have ended and the pump after each has run. */
    freed: freed.reached,
    queue(list: ClaimedDelivery[], claimedAt = Date.now()) {
      slots.enqueue(list.map((item) => ({ delivery: item, claimedAt })));
    },
    /** The ids and records of the outcomes written. */
    completed: () => store.complete.mock.calls.map(([id, , record]) => [id, record]),
  };
}

afterEach(async () => {
  for (const dispatch of dispatches.splice(0)) {
    dispatch.stopStarting();
    await dispatch.abortAll();
  }
  await Promise.all(closing.splice(0).map((close) => close()));
  await closeWebhookConnections();
  vi.useRealTimers();
});

describe("the dispatch's attempts", () => {
  it("when a delivery is sent, then the receiver gets its body as a POST, signed at the time of sending, with its event and the user agent", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    const hook = await receiver();
    const d = dispatchWith();
    const sent = delivery("msg_sign", "ep_sign", hook.url);
    d.queue([sent]);
    await d.dispatch.pump();
    await d.freed(1);
    const [got] = hook.requests;
    expect(got?.method).toBe("POST");
    expect(got?.body).toBe(sent.body);
    expect(got?.headers).toMatchObject({
      "webhook-id": "msg_sign",
      "webhook-timestamp": String(Math.floor(NOW / 1000)),
      "webhook-event": "newPlant",
      "user-agent": "plantstore-webhooks/1",
      "content-type": "application/json",
    });
    const headers = got?.headers as Record<string, string>;
    expect(() => new Webhook(SECRET).verify(got?.body ?? "", headers)).not.toThrow();
  });

  it("when the receiver answers 2xx, then the attempt is recorded delivered under the owner, counted with its time in seconds, and logged with its fields", async () => {
    vi.useFakeTimers({ toFake: ["performance"] });
    vi.advanceTimersByTime(10_000);
    const hook = await receiver((request) => {
      vi.advanceTimersByTime(1250);
      request.answer(204);
    });
    const d = dispatchWith();
    d.queue([delivery("msg_ok", "ep_ok", hook.url, { attempts: 2 })]);
    await d.dispatch.pump();
    await d.freed(1);
    expect(d.store.complete.mock.calls).toEqual([
      ["msg_ok", "owner-1", { kind: "delivered", status: 204 }],
    ]);
    expect(d.metrics.attempt.mock.calls).toEqual([["delivered", 1.25]]);
    expect(d.log.info.mock.calls).toEqual([
      [
        {
          endpoint: "ep_ok",
          delivery: "msg_ok",
          attempt: 3,
          status: 204,
          error: undefined,
          outcome: "delivered",
          durationMs: 1250,
        },
        "webhook attempt",
      ],
    ]);
    expect(d.log.warn).not.toHaveBeenCalled();
    expect(d.dispatch.takeReleases()).toEqual([]);
  });

  it("when an endpoint answers with more queued for it, then they are sent one after another, none is set aside, and it stays well", async () => {
    const hook = await receiver();
    const d = dispatchWith();
    d.queue(["msg_a", "msg_b", "msg_c"].map((id) => delivery(id, "ep_well", hook.url)));
    await d.dispatch.pump();
    await d.freed(3);
    expect(hook.ids()).toEqual(["msg_a", "msg_b", "msg_c"]);
    expect(d.dispatch.takeReleases()).toEqual([]);
    // Well and idle, it is forgotten: nothing more is wanted for it.
    expect(d.slots.wantedByEndpoint(16)).toEqual({});
  });

  it("when the receiver answers 500, or nothing listens on the last attempt, then a retry or a failure is recorded and logged with the status or the error", async () => {
    const hook = await receiver((request) => request.answer(500));
    const d = dispatchWith();
    d.queue([
      delivery("msg_500", "ep_500", hook.url),
      delivery("msg_refused", "ep_refused", await nothingListening(), { attempts: 1 }),
    ]);
    await d.dispatch.pump();
    await d.freed(2);
    const records = Object.fromEntries(d.completed());
    expect(records).toEqual({
      msg_500: { kind: "retry", status: 500, error: null, delayMs: expect.any(Number) },
      msg_refused: { kind: "failed", status: null, error: "connection refused" },
    });
    const logged = Object.fromEntries(
      d.log.info.mock.calls.map(([fields]) => [fields.delivery, fields]),
    );
    expect(logged["msg_500"]).toMatchObject({ status: 500, error: undefined, outcome: "retry" });
    expect(logged["msg_refused"]).toMatchObject({
      attempt: 2,
      status: null,
      error: "connection refused",
      outcome: "failed",
    });
    // Failing fast is no timeout: neither endpoint turned slow.
    expect(d.slots.wantedByEndpoint(16)).toEqual({});
  });

  it("when the receiver answers 410, then it is recorded gone, the endpoint's queued claims are set aside unsent, and its connections are closed", async () => {
    const hook = await receiver((request) => request.answer(410));
    const d = dispatchWith();
    d.queue(["msg_g1", "msg_g2", "msg_g3"].map((id) => delivery(id, "ep_gone", hook.url)));
    await d.dispatch.pump();
    await d.freed(1);
    expect(d.completed()).toEqual([["msg_g1", { kind: "gone", status: 410 }]]);
    expect(d.dispatch.takeReleases()).toEqual(["msg_g2", "msg_g3"]);
    expect(hook.ids()).toEqual(["msg_g1"]);
    expect(d.slots.queued()).toBe(0);
    // Its pool is closed: the connection kept alive after the answer goes.
    await hook.allClosed();
  }, 5_000);

  it("when the receiver does not answer in time, then a retry is recorded as timed out, and the endpoint turns slow: of its queue one stays, the rest is set aside", async () => {
    const hook = await receiver(() => undefined);
    const d = dispatchWith({ settings: { timeoutMs: 100 } });
    d.queue(["msg_t1", "msg_t2", "msg_t3"].map((id) => delivery(id, "ep_slow", hook.url)));
    await d.dispatch.pump();
    await d.freed(2);
    const retry = { kind: "retry", status: null, error: "timed out after 100 ms" };
    expect(d.completed()).toEqual([
      ["msg_t1", { ...retry, delayMs: expect.any(Number) }],
      ["msg_t2", { ...retry, delayMs: expect.any(Number) }],
    ]);
    expect(d.dispatch.takeReleases()).toEqual(["msg_t3"]);
    // Slow: one delivery held for it in all.
    expect(d.slots.wantedByEndpoint(16)).toEqual({ ep_slow: 1 });
  });

  it("when recording an outcome fails, then it is logged as a warning, not thrown, and stopping waits for it", async () => {
    const hook = await receiver();
    const d = dispatchWith();
    const down = new Error("store down");
    d.store.complete.mockRejectedValueOnce(down);
    d.queue([delivery("msg_lost", "ep_lost", hook.url)]);
    await d.dispatch.pump();
    await d.freed(1);
    expect(await d.dispatch.abortAll()).toEqual([]);
    expect(d.log.warn.mock.calls).toEqual([
      [{ err: down, delivery: "msg_lost" }, "webhook attempt not recorded"],
    ]);
    expect(d.slots.running()).toBe(0);
  });

  it("when an attempt cannot be made at all, then it is logged as not recorded and its slot is freed, the endpoint not slowed", async () => {
    const d = dispatchWith();
    // Signing needs a secret: without one the attempt throws before sending.
    d.queue([delivery("msg_unsigned", "ep_unsigned", await nothingListening(), { secrets: [] })]);
    await d.dispatch.pump();
    await d.freed(1);
    expect(d.log.warn.mock.calls).toEqual([
      [{ err: expect.any(TypeError), delivery: "msg_unsigned" }, "webhook attempt not recorded"],
    ]);
    expect(d.store.complete).not.toHaveBeenCalled();
    expect(d.slots.running()).toBe(0);
    expect(d.slots.wantedByEndpoint(16)).toEqual({});
  });
});

describe("the claims the dispatch sets aside", () => {
  it("when a claim's lease would end before its attempt could time out, then it is set aside unsent; one claimed exactly at the limit is sent", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    const hook = await receiver();
    const d = dispatchWith();
    d.queue([delivery("msg_stale", "ep_stale", hook.url)], NOW - LEASE_LEFT_MS - 1);
    d.queue([delivery("msg_edge", "ep_edge", hook.url)], NOW - LEASE_LEFT_MS);
    await d.dispatch.pump();
    await d.freed(1);
    expect(d.dispatch.takeReleases()).toEqual(["msg_stale"]);
    expect(hook.ids()).toEqual(["msg_edge"]);
    expect(d.completed().map(([id]) => id)).toEqual(["msg_edge"]);
  });

  it("when a lease runs out while its endpoint is looked up, then that claim is set aside unsent and the endpoint's later claims stay queued", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    const d = dispatchWith();
    const lookup = deferred<WebhookEndpoint | undefined>();
    d.store.getEndpoint.mockImplementationOnce(() => lookup.promise);
    const url = await nothingListening();
    d.queue([delivery("msg_late", "ep_late", url)], NOW - LEASE_LEFT_MS);
    d.queue([delivery("msg_next", "ep_late", url)], NOW);
    const pumped = d.dispatch.pump();
    vi.setSystemTime(NOW + 1);
    lookup.resolve(endpoint("ep_late"));
    await pumped;
    expect(d.dispatch.takeReleases()).toEqual(["msg_late"]);
    expect(d.slots.running()).toBe(0);
    expect(d.slots.queued()).toBe(1);
  });

  it("when an endpoint was deleted or disabled meanwhile, then its claims, taken or queued, are set aside and none is sent to it, while a live one's are sent", async () => {
    const hook = await receiver();
    const d = dispatchWith({
      endpoints: { ep_deleted: undefined, ep_disabled: endpoint("ep_disabled", new Date(NOW)) },
    });
    d.queue([
      delivery("msg_del1", "ep_deleted", hook.url),
      delivery("msg_del2", "ep_deleted", hook.url),
      delivery("msg_dis", "ep_disabled", hook.url),
      delivery("msg_live", "ep_live", hook.url),
    ]);
    await d.dispatch.pump();
    await d.freed(1);
    expect(d.dispatch.takeReleases()).toEqual(["msg_del1", "msg_del2", "msg_dis"]);
    expect(hook.ids()).toEqual(["msg_live"]);
    // Looked up once for each endpoint about to be sent to.
    expect(d.store.getEndpoint.mock.calls).toEqual([["ep_deleted"], ["ep_disabled"], ["ep_live"]]);
  });

  it("when the endpoint cannot be looked up, then its claim is set aside unsent", async () => {
    const d = dispatchWith();
    d.store.getEndpoint.mockRejectedValueOnce(new Error("store down"));
    d.queue([delivery("msg_unknown", "ep_unknown", await nothingListening())]);
    await d.dispatch.pump();
    expect(d.dispatch.takeReleases()).toEqual(["msg_unknown"]);
    expect(d.slots.running()).toBe(0);
  });
});

describe("pumping and stopping", () => {
  it("when pumped during a run, then there is one run at a time, and it goes round once more to start what was queued meanwhile", async () => {
    const hook = await receiver(() => undefined);
    const d = dispatchWith();
    const lookup = deferred<WebhookEndpoint | undefined>();
    d.store.getEndpoint.mockImplementationOnce(() => lookup.promise);
    d.queue([delivery("msg_p1", "ep_p1", hook.url)]);
    const first = d.dispatch.pump();
    d.queue([delivery("msg_p2", "ep_p2", hook.url)]);
    const second = d.dispatch.pump();
    expect(d.store.getEndpoint).toHaveBeenCalledTimes(1);
    lookup.resolve(endpoint("ep_p1"));
    await Promise.all([first, second]);
    expect(d.store.getEndpoint.mock.calls).toEqual([["ep_p1"], ["ep_p2"]]);
    expect(d.slots.running()).toBe(2);
    expect(d.slots.queued()).toBe(0);
  });

  it("when stopped during a run, then what it took is set aside unsent and it does not go round again", async () => {
    const d = dispatchWith();
    const lookup = deferred<WebhookEndpoint | undefined>();
    d.store.getEndpoint.mockImplementationOnce(() => lookup.promise);
    const url = await nothingListening();
    d.queue([delivery("msg_s1", "ep_s1", url)]);
    const first = d.dispatch.pump();
    d.queue([delivery("msg_s2", "ep_s2", url)]);
    void d.dispatch.pump();
    d.dispatch.stopStarting();
    lookup.resolve(endpoint("ep_s1"));
    await first;
    expect(d.dispatch.takeReleases()).toEqual(["msg_s1"]);
    expect(d.store.getEndpoint).toHaveBeenCalledTimes(1);
    expect(d.slots.running()).toBe(0);
    expect(await d.dispatch.abortAll()).toEqual(["msg_s2"]);
  });

  it("when stopped, then a pump starts nothing and leaves the queue to be given back", async () => {
    const d = dispatchWith();
    d.dispatch.stopStarting();
    d.queue([delivery("msg_q", "ep_q", await nothingListening())]);
    await d.dispatch.pump();
    expect(d.store.getEndpoint).not.toHaveBeenCalled();
    expect(d.dispatch.takeReleases()).toEqual([]);
    expect(d.slots.queued()).toBe(1);
    expect(await d.dispatch.abortAll()).toEqual(["msg_q"]);
  });

  it("when aborted, then the attempts under way end unrecorded with their slots free, and the ids under way, set aside and queued come back", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(NOW);
    const hook = await receiver(() => undefined);
    const d = dispatchWith();
    d.queue([delivery("msg_stale", "ep_x", hook.url)], NOW - LEASE_LEFT_MS - 1);
    d.queue([delivery("msg_run", "ep_y", hook.url), delivery("msg_queued", "ep_y", hook.url)]);
    await d.dispatch.pump();
    await hook.arrived(1);
    expect(await d.dispatch.abortAll()).toEqual(["msg_run", "msg_stale", "msg_queued"]);
    expect(d.slots.running()).toBe(0);
    expect(d.store.complete).not.toHaveBeenCalled();
    expect(d.metrics.attempt).not.toHaveBeenCalled();
    expect(d.log.info).not.toHaveBeenCalled();
    // An aborted attempt says nothing of the endpoint: it is not slow.
    expect(d.slots.wantedByEndpoint(16)).toEqual({});
    expect(d.dispatch.takeReleases()).toEqual([]);
  });
});
