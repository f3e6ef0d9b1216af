// Generated from openapi/plants.yaml by `npm run generate`. Do not edit.

export type paths = {
    "/plants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List plants
         * @description The stored plants in ascending order of `id`, at most `limit` of them, and
         *     only those with an id greater than `after` when it is given.
         *
         *     To read them all, follow the `Link` header's `rel="next"` URL until an answer
         *     has none. Pages are cut by id, not by position, so paging while plants are
         *     created and deleted never repeats or skips a plant that exists throughout:
         *     each page starts after the last id of the one before.
         *
         *     A page also ends, with its `Link`, before its plants' names and tags pass
         *     1 MiB of UTF-8 (1048576 bytes; a page always holds at least one plant), so an
         *     answer stays small whatever `limit` asks for.
         */
        get: operations["listPlants"];
        put?: never;
        /**
         * Create a plant
         * @description Creates a new plant in the store.
         *
         *     Creation is idempotent on `id`: sending the same NewPlant again answers
         *     200 with the same Plant, so a client may retry safely. A different `name`
         *     or `tag` under an existing `id` answers 409. A 200 is sent only once the
         *     plant has been committed to durable storage.
         *
         *     `id` is any integer from -9223372036854775808 to 9223372036854775807,
         *     compared exactly (no rounding through floating point). Integer-valued
         *     literals such as `1.0` or `1e2` are integers; `1.5` and `"5"` are not.
         *     Names and tags are kept exactly as sent; unknown fields are ignored.
         *
         *     Checks run in this order: method and path (404, 405), an address blocked
         *     for sending rejected credentials (429), credentials (401, or 429 once the
         *     address's allowance is used, or 503 when a token cannot be checked), the
         *     caller's rate limit (429), scope (403), body size (413), a missing body
         *     (400), content type (415), body syntax and shape (400), then the store (409,
         *     503). A request without valid credentials learns nothing about its body.
         */
        post: operations["createPlant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The plant's id, as a canonical decimal integer: an optional `-`, then `0` or
                 *     digits without leading zeros, from -9223372036854775808 up to and including
                 *     9223372036854775807; anything else (`1e2`, `0x10`, `+1`, `01`, `-0`, `1.0`,
                 *     spaces, out of range) answers 400, never 404.
                 */
                id: components["parameters"]["PlantId"];
            };
            cookie?: never;
        };
        /**
         * Read a plant
         * @description The plant stored under `id`, with its id.
         */
        get: operations["getPlant"];
        put?: never;
        post?: never;
        /**
         * Delete a plant
         * @description Deletes the plant stored under `id`. The 204 is sent only once the delete is
         *     committed to durable storage. Deleting an id that is not stored answers 404,
         *     so a retry after a lost 204 answers 404 (the plant is gone either way).
         *     Once deleted, the id is free: creating it again, with any name, is a new
         *     plant.
         */
        delete: operations["deletePlant"];
        options?: never;
        head?: never;
        /**
         * Change a plant
         * @description Changes the name or the tag of the plant stored under `id`, as a JSON Merge
         *     Patch (RFC 7396): a member sent replaces the stored one, a member not sent is
         *     kept, and `"tag": null` removes the tag. The id cannot be changed. The answer
         *     is the plant as stored after the change, in the shape GET answers it, and is
         *     sent only once the change is committed to durable storage.
         *
         *     The body is sent as `application/merge-patch+json` or, for clients that only
         *     speak that, `application/json`; both are read the same way. Applying the same
         *     patch twice leaves the same plant, so a client may retry safely. Changes to
         *     one id (and creates and deletes of it) apply in the order the server receives
         *     them.
         *
         *     Checks run in the order POST /plants lists, then the store (404).
         */
        patch: operations["updatePlant"];
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness
         * @description The process is up and answering HTTP. The store is not touched, and an
         *     overloaded server still answers, so a slow database or a busy moment never
         *     gets the process restarted. No credentials.
         */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness
         * @description Whether this instance should get traffic: 200 when its store answers a
         *     trivial query (within a second) and it is neither shutting down nor
         *     overloaded; 503 otherwise. A load balancer should stop sending requests
         *     while it answers 503. No credentials.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics
         * @description Counters and histograms in the Prometheus text format: requests by
         *     operation, method and status; request duration; plants created; store
         *     commit duration; failed authentications; connections dropped at the
         *     connection cap; process and event-loop metrics. Answered even when the
         *     server is overloaded.
         *
         *     The text is made at most once a second: scrapes within a second of each other
         *     get the same text. Where the server runs several worker processes, one scrape
         *     counts them all: `plantstore_workers` says how many run and
         *     `plantstore_workers_scraped` how many the text sums.
         *
         *     Whether this needs credentials depends on the server, and the copy of this
         *     document a server publishes (GET /openapi.json, /openapi.yaml) says which
         *     holds for it: where it lists the `metricsToken` requirement and a 401, a
         *     request needs the metrics token as a bearer token; where it lists neither,
         *     no credentials are needed.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document as JSON
         * @description The whole document in one JSON file, with `servers` naming this server
         *     (its public address, or the address it listens on). No credentials. The
         *     answer carries an `ETag`; a request with `If-None-Match` naming it gets 304.
         */
        get: operations["getOpenApiJson"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.yaml": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document as YAML
         * @description The document as written in `openapi/plants.yaml`, comments included, with
         *     `servers` naming this server. No credentials. The answer carries an `ETag`; a
         *     request with `If-None-Match` naming it gets 304.
         */
        get: operations["getOpenApiYaml"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/changelog.md": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The API changelog
         * @description What changed in this API from one released version to the next, newest first,
         *     as CommonMark: under each version, the changes that are breaking, possibly
         *     breaking (a value or a status a client may not expect) and compatible, each in
         *     one sentence naming the operation, and the operations whose descriptions
         *     changed. The version this server runs is the first. No credentials.
         */
        get: operations["getApiChangelog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Interactive API reference
         * @description An HTML page (Swagger UI, served from this server) that shows this document
         *     and can send requests: choose Authorize, paste a token, then "Try it out" on
         *     an operation. The page and its assets load nothing from elsewhere; a
         *     Content-Security-Policy keeps it so. No credentials.
         */
        get: operations["getDocs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/{asset}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A file of the interactive reference
         * @description A style sheet or script the page at `/docs` loads: `swagger-ui.css`,
         *     `swagger-ui-bundle.js` (from the swagger-ui-dist package) or `init.js` (ours,
         *     which starts Swagger UI on `/openapi.json`). Any other name answers 404.
         *     No credentials.
         */
        get: operations["getDocsAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description The registered endpoints in ascending order of `id`, without their secrets,
         *     at most `limit` of them and only those after `after` when it is given. To
         *     read them all, follow the `Link` header's `rel="next"` URL until an answer
         *     has none, as with plants.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description Registers a URL that receives the webhooks it names in `events` (every one
         *     this document declares when it names none): from this answer on, each event
         *     of those is sent to it, signed with the endpoint's secret. An event the API
         *     adds later is sent only to the endpoints that name it (`PATCH` an endpoint to
         *     subscribe to it). Each message names its event in `webhook-event`.
         *
         *     The URL must be `https://` and its host must not be, or resolve to, a
         *     loopback, private, link-local or cloud metadata address; the address is
         *     checked again each time a connection is made, so a name that later resolves
         *     to such an address is refused then too. A server run for local receivers may
         *     allow these; its operators say so.
         *
         *     The answer is the only one that shows the endpoint's `secret`; keep it to
         *     verify the signatures of what the endpoint receives.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id, as the registration answered it. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        /**
         * Read a webhook endpoint
         * @description The endpoint registered under `id`, without its secret.
         */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /**
         * Remove a webhook endpoint
         * @description Removes the endpoint and its delivery log. Deliveries not yet made are
         *     dropped; an attempt already under way may still arrive.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change a webhook endpoint
         * @description Changes the events the endpoint is sent, or its description, as a JSON Merge
         *     Patch (RFC 7396): a member sent replaces the stored one, a member not sent is
         *     kept, and `"description": null` removes the description. An event it was sent
         *     before and still names goes on as before; an event it now names for the first
         *     time is sent from the next one recorded; an event it no longer names is not
         *     sent from now on: its deliveries still pending fail, their `lastError` saying
         *     why (one already being sent may still arrive), deliveries already made are kept
         *     in its log, and retrying one sends it all the same.
         *
         *     The body is sent as `application/merge-patch+json` or `application/json`.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/webhook-endpoints/{id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id, as the registration answered it. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate an endpoint's secret
         * @description Gives the endpoint a new secret, shown only in this answer. For the next 24
         *     hours every message carries a signature in `webhook-signature` with the new
         *     secret and one with each secret rotated away in the last 24 hours (the old
         *     one, and any rotated away before it), so a receiver can switch secrets
         *     without losing a message, however often it is rotated. At most 10 secrets
         *     rotated away sign at once: another rotation is refused (400) until the
         *     oldest stops signing.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id, as the registration answered it. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        /**
         * List an endpoint's deliveries
         * @description The endpoint's deliveries, one per plant created since it was registered,
         *     oldest first, paged like the endpoints (`limit`, `after` and the `Link`
         *     header). Deliveries delivered or failed more than
         *     {{PLANTSTORE_WEBHOOK_RETENTION_DAYS}} ago are no longer listed.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook-endpoints/{id}/deliveries/{deliveryId}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id, as the registration answered it. */
                id: components["parameters"]["WebhookEndpointId"];
                /** @description The delivery's id, as listed (the `webhook-id` it is sent with). */
                deliveryId: string;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again
         * @description Makes the delivery pending again with its next attempt due now, whatever its
         *     status: a failed one gets a new round of retries (its `attempts` count starts
         *     again from 0), a delivered one is sent once more (with the same `webhook-id`,
         *     so a receiver that keeps ids knows it). An endpoint disabled by a 410 is
         *     enabled again.
         */
        post: operations["retryWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = {
    "/plant/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * New plant
         * @description Information about a new plant added to the store, sent to every endpoint
         *     subscribed to `newPlant` once the plant is committed. A plant deleted and created again is
         *     sent again; a create that changed nothing (a retry of a stored plant) or
         *     was refused sends nothing.
         *
         *     Each message is a POST with `Content-Type: application/json`, the three
         *     Standard Webhooks headers below, and `webhook-event` naming the event. The signature is an HMAC-SHA256, keyed
         *     with the endpoint's secret (the base64 after `whsec_`), of the
         *     `webhook-id`, a full stop, the `webhook-timestamp`, a full stop and the raw
         *     body; check it before trusting the body, and refuse a timestamp far from
         *     your clock. Delivery is at least once: the same message may arrive more
         *     than once, always with the same `webhook-id`, so keep the ids you have
         *     handled and skip repeats.
         *
         *     Each attempt waits at most {{PLANTSTORE_WEBHOOK_TIMEOUT_MS}} for the answer,
         *     follows no redirect, and reads at most 64 KiB of it. A message that is not
         *     received is sent again after {{PLANTSTORE_WEBHOOK_RETRY_SCHEDULE}} (each
         *     delay with some random jitter); after the last it is marked failed, and can
         *     be sent again from its endpoint's delivery log.
         */
        post: operations["newPlantWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plant/deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Plant deleted
         * @description A plant removed from the store, sent to every endpoint subscribed to
         *     `plantDeleted` once the delete is committed; a delete of an id not stored
         *     (404) sends nothing. Endpoints registered before this event existed are not
         *     sent it unless they subscribe to it.
         *
         *     Signed, delivered and retried as the `newPlant` webhook is, with
         *     `webhook-event: plantDeleted`.
         */
        post: operations["plantDeletedWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type components = {
    schemas: {
        Health: {
            /**
             * @description Always `ok` in a 200 answer.
             * @enum {string}
             */
            status: "ok";
        };
        Plant: {
            /** @description The name of the plant */
            name: string;
            /** @description Tag that specifies the type of the plant */
            tag?: string;
        };
        /** @description A stored plant with its id. */
        StoredPlant: {
            /**
             * Format: int64
             * @description Identification number of the plant: a 64-bit integer that must be sent and parsed exactly (as a bigint or int64, never a double, which rounds past 2^53).
             */
            id: bigint;
        } & components["schemas"]["Plant"];
        /**
         * @description A JSON Merge Patch (RFC 7396) of a plant: the members to change, at least one.
         *     A member not sent is kept; `tag: null` removes the tag; `name` cannot be
         *     removed (null is refused). `id` is not a member: an id cannot be changed.
         */
        PlantPatch: {
            /** @description The new name, kept exactly as sent */
            name?: string;
            /** @description The new tag, kept exactly as sent; null removes the tag */
            tag?: string | null;
        };
        NewPlant: components["schemas"]["Plant"] & {
            /**
             * Format: int64
             * @description Identification number of the plant: a 64-bit integer that must be sent and parsed exactly (as a bigint or int64, never a double, which rounds past 2^53).
             */
            id: bigint;
        };
        /** @description A plant deleted, by its id. */
        DeletedPlant: {
            /**
             * Format: int64
             * @description Identification number of the plant: a 64-bit integer that must be sent and parsed exactly (as a bigint or int64, never a double, which rounds past 2^53).
             */
            id: bigint;
        };
        Error: {
            /**
             * Format: int32
             * @description The HTTP status of the response
             */
            error: number;
            /** @description A human-readable reason */
            message: string;
        };
        NewWebhookEndpoint: {
            /**
             * Format: uri
             * @description Where to send the messages: an absolute `https://` URL without user
             *     information or a fragment. (A server run for local receivers may also take
             *     `http://`; see the operation's description.)
             */
            url: string;
            /** @description What the endpoint is for, for your own reference. */
            description?: string;
            events?: components["schemas"]["WebhookEvents"];
        };
        /**
         * @description A JSON Merge Patch (RFC 7396) of a webhook endpoint: the members to change, at
         *     least one. `description: null` removes the description.
         */
        WebhookEndpointPatch: {
            events?: components["schemas"]["WebhookEvents"];
            /** @description What the endpoint is for; null removes it. */
            description?: string | null;
        };
        /**
         * @description The events to send the endpoint, by the names this document's webhooks give
         *     them (`newPlant`, `plantDeleted`). When a registration names none, every event
         *     the API sends then; an event the API adds later is sent only to the endpoints
         *     that name it.
         */
        WebhookEvents: ("newPlant" | "plantDeleted")[];
        WebhookEndpoint: {
            /** @description The endpoint's id, made by the server; ids sort in the order endpoints were registered. */
            id: string;
            /** @description Where messages are sent. */
            url: string;
            /** @description As registered, or null. */
            description: string | null;
            /**
             * Format: date-time
             * @description When the endpoint was registered.
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When the endpoint answered 410 Gone, after which nothing more is sent to it;
             *     retrying one of its deliveries enables it again. Null while enabled.
             */
            disabledAt: string | null;
            /** @description The events it is sent, by name, in order of name. */
            events: string[];
        };
        WebhookEndpointWithSecret: components["schemas"]["WebhookEndpoint"] & components["schemas"]["WebhookSecret"];
        WebhookSecret: {
            /** @description The signing secret, `whsec_` and the base64 of 24 random bytes. Shown only when it is made. */
            secret: string;
        };
        WebhookDelivery: {
            /** @description The delivery's id, sent as `webhook-id` on every attempt. */
            id: string;
            /** @description The event the message is, as its `webhook-event` header names it. */
            event: string;
            /**
             * Format: int64
             * @description The id of the plant the message is about.
             */
            plantId: bigint;
            /**
             * @description `pending` until an attempt is received or the retries run out;
             *     `delivered` once the endpoint answered 2xx; `failed` after the last
             *     retry (or when the endpoint answered 410).
             * @enum {string}
             */
            status: "pending" | "delivered" | "failed";
            /**
             * Format: int32
             * @description Attempts made so far.
             */
            attempts: number;
            /**
             * Format: int32
             * @description The HTTP status of the last attempt's answer; null if none came.
             */
            lastStatus: number | null;
            /** @description Why the last attempt got no answer (a timeout, a refused address); null otherwise. */
            lastError: string | null;
            /**
             * Format: date-time
             * @description When the next attempt is due, while pending; null otherwise.
             */
            nextAttemptAt: string | null;
            /**
             * Format: date-time
             * @description When the plant was created.
             */
            createdAt: string;
        };
    };
    responses: {
        /** @description The document named by `If-None-Match` is the one published; no body. */
        NotModified: {
            headers: {
                ETag: components["headers"]["ETag"];
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description Alive, or ready. */
        Healthy: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "status": "ok"
                 *     }
                 */
                "application/json": components["schemas"]["Health"];
            };
        };
        /**
         * @description The id in the path is not a canonical decimal int64, a query parameter was
         *     sent (this operation takes none), or a request body was (it takes none either).
         */
        BadPlantId: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A query parameter or a request body was sent; this operation takes neither. */
        QueryRefused: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": 400,
                 *       "message": "query parameter \"debug\" is not accepted: this operation takes none"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The `Authorization` header is missing, uses another scheme than Bearer
         *     (the scheme name is case-insensitive), or carries a token the server does
         *     not accept: unknown, mistyped (a managed token's checksum does not match),
         *     revoked, expired, or a JWT that is not yet valid, has the wrong issuer or
         *     audience, an algorithm not accepted, or a bad signature. The response has a
         *     `WWW-Authenticate: Bearer realm="plantstore"` header, with
         *     `error="invalid_token"` and an `error_description` when a token was given;
         *     the description never repeats the token.
         */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["BearerChallenge"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The token is valid but carries scopes, and not the one this operation lists
         *     in `x-required-scopes`: `plants:read` to read or list plants, `plants:write`
         *     to create, change or delete one, `webhooks:manage` to register and inspect
         *     webhook endpoints. A token that carries no scope claim at all has
         *     full access. Checked after the credentials and before the body is read.
         *     The response has a `WWW-Authenticate: Bearer realm="plantstore",
         *     error="insufficient_scope", error_description="…", scope="…"` header naming
         *     the scope needed.
         */
        InsufficientScope: {
            headers: {
                "WWW-Authenticate": components["headers"]["BearerChallenge"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": 403,
                 *       "message": "the token lacks the scope plants:write"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description Not answered for `/plants` itself: any path this document does not describe
         *     (for example `/plant` or `/plants/`) answers 404 with this body.
         */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": 404,
                 *       "message": "no resource at GET /plant"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The path has no operation for this method. The `Allow` header lists the methods it has. */
        MethodNotAllowed: {
            headers: {
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": 405,
                 *       "message": "PUT is not allowed on /plants; use GET, POST"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A method other than GET was used. The `Allow` header lists the allowed methods. */
        GetOnly: {
            headers: {
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": 405,
                 *       "message": "POST is not allowed on /healthz; use GET"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The request's headers took longer than {{PLANTSTORE_HEADERS_TIMEOUT_MS}}, or the whole
         *     request longer than {{PLANTSTORE_REQUEST_TIMEOUT_MS}}, to arrive. The connection is closed.
         */
        RequestTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": 408,
                 *       "message": "the request took too long to arrive"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is larger than 65536 bytes (64 KiB), the most this server takes. */
        PayloadTooLarge: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": 413,
                 *       "message": "the request body is larger than 65536 bytes"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description The body's content type is not one the operation declares, or the body is
         *     compressed. The declared types (`application/json`, and for PATCH
         *     /plants/{id} also `application/merge-patch+json`) are accepted with no
         *     charset or `charset=utf-8`;
         *     Content-Encoding other than `identity` and transfer codings other
         *     than `chunked` are not.
         */
        UnsupportedMediaType: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": 415,
                 *       "message": "the content type must be application/json, got \"text/plain\""
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description Too many requests: this caller (a managed token, a JWT's subject, or a
         *     static token, however the header is spelt) made more requests in the
         *     current minute than the server allows one caller, or this client address
         *     sent more rejected credentials in the current minute than it allows one
         *     address (then every request of it that needs credentials answers 429 until
         *     the minute ends). On this server, requests one caller may make in a minute
         *     to operations that need credentials: {{PLANTSTORE_TOKEN_RATE_LIMIT}}; rejected credentials
         *     one client address may send in a minute: {{PLANTSTORE_AUTH_FAILURE_LIMIT}}. Nothing was
         *     changed; `Retry-After` says when the minute is over. A
         *     caller's own limit is announced beforehand, on every answer it gets, in
         *     `RateLimit-Policy` and `RateLimit`.
         */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": 429,
                 *       "message": "too many rejected credentials from this address; retry in 42 s"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request headers are larger than 16 KiB, or have more than 200 lines. The connection is closed. */
        HeadersTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": 431,
                 *       "message": "the request headers are too large"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An unexpected fault in the server. The message reveals nothing internal; the fault is logged with the request id. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": 500,
                 *       "message": "internal error; quote request id 8f1c2a0e-4a5b-4c6d-8e7f-9a0b1c2d3e4f"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The server is shutting down; `Retry-After` says when to try again (another instance). */
        ShuttingDown: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": 503,
                 *       "message": "the server is shutting down; retry shortly"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The server is shutting down or overloaded; `Retry-After` says when to try again. */
        Unavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No webhook endpoint is registered under this id (or, for a delivery, it has none with that id). */
        NoSuchEndpoint: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /**
         * @description A query parameter is unknown, repeated, or not valid (`limit` not an integer
         *     from 1 to 100), or a request body was sent. `message` says which and why.
         */
        BadQuery: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                /**
                 * @example {
                 *       "error": 400,
                 *       "message": "query parameter limit must be at most 100"
                 *     }
                 */
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /**
         * @description The message's id, the same on every attempt to deliver it.
         * @example msg_0193a5b2c4d1f0e1d2c3b4a596877869
         */
        WebhookId: string;
        /**
         * @description When this attempt was signed, in whole seconds since the Unix epoch.
         * @example 1795780800
         */
        WebhookTimestamp: string;
        /**
         * @description Space-separated signatures, each `v1,` and a base64 HMAC-SHA256. There are
         *     two while the endpoint's secret is being rotated (the new and the old
         *     secret); a receiver accepts the message when any of them verifies with a
         *     secret it holds.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        WebhookSignature: string;
        /**
         * @description The `ETag` of a copy already held (or `*`); when it names the document this
         *     server publishes, the answer is 304 without a body.
         */
        IfNoneMatch: string;
        /**
         * @description The plant's id, as a canonical decimal integer: an optional `-`, then `0` or
         *     digits without leading zeros, from -9223372036854775808 up to and including
         *     9223372036854775807; anything else (`1e2`, `0x10`, `+1`, `01`, `-0`, `1.0`,
         *     spaces, out of range) answers 400, never 404.
         */
        PlantId: bigint;
        /** @description The endpoint's id, as the registration answered it. */
        WebhookEndpointId: string;
        /** @description The most items to return, from 1 to 100. */
        WebhookPageLimit: number;
    };
    requestBodies: never;
    headers: {
        /**
         * @description The version of the document this server publishes (RFC 9110 §8.8.3), for
         *     `If-None-Match`; it changes when the document or `servers` does.
         * @example "sha256-3Jq0bQ3mC2mB0yq8"
         */
        ETag: string;
        /**
         * @description Seconds to wait before retrying.
         * @example 2
         */
        RetryAfter: number;
        /**
         * @description The Bearer challenge (RFC 6750).
         * @example Bearer realm="plantstore"
         */
        BearerChallenge: string;
        /**
         * @description The caller's request limit (IETF RateLimit header fields): the policy
         *     `per-caller`, its quota `q` (requests) and window `w` in
         *     seconds. On every 2xx and 4xx answer to a request that was counted against a
         *     caller's limit (authenticated, on an operation that needs credentials),
         *     including the 429 that refuses one; absent when the limit is off (0), and on
         *     GET /metrics when it needs no token.
         * @example "per-caller";q=6000;w=60
         */
        RateLimitPolicy: string;
        /**
         * @description What is left of the caller's limit: `r` requests remain in this window, which
         *     ends in `t` seconds. A client that keeps `r` above 0 never meets the 429.
         * @example "per-caller";r=5999;t=42
         */
        RateLimit: string;
        /**
         * @description Present when the page is full (as many plants as `limit`, or names and tags
         *     reaching 1 MiB): the next page, as `<URL>; rel="next"` (RFC 8288). The URL
         *     is relative to this server, or absolute under the server's public address
         *     where it has one. The last page has no `rel="next"`, so a client follows
         *     `next` until there is none.
         * @example </plants?after=10002&limit=2>; rel="next"
         */
        Link: string;
        /**
         * @description The methods allowed on this path.
         * @example GET
         */
        Allow: string;
        /**
         * @description The page's files change only with the server's version, so any cache may keep
         *     them for an hour.
         * @example public, max-age=3600
         */
        AssetCaching: string;
        /**
         * @description What the page may load and run: only this server's own files, no inline
         *     script or style, no frames, no plugins.
         * @example default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'
         */
        DocsPolicy: string;
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    listPlants: {
        parameters: {
            query?: {
                /** @description The most plants to return, from 1 to 1000. */
                limit?: number;
                /**
                 * @description Only plants with an id greater than this one, written like a path's id
                 *     (a canonical decimal int64). Usually taken from the `Link` header.
                 */
                after?: bigint;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of stored plants, in ascending order of id (empty past the last). */
            200: {
                headers: {
                    Link: components["headers"]["Link"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StoredPlant"][];
                };
            };
            /**
             * @description A query parameter is unknown, repeated, or not valid: `limit` not an
             *     integer from 1 to 1000, `after` not a canonical decimal int64; or a request
             *     body was sent (this operation takes none). `message` names the parameter and
             *     the reason.
             */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["InsufficientScope"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createPlant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The plant to create. At most 65536 bytes, UTF-8 JSON. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPlant"];
            };
        };
        responses: {
            /** @description The plant response. The plant is stored (or was already stored with the same name and tag). */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plant"];
                };
            };
            /**
             * @description The request is malformed: the body is missing, is not valid UTF-8 JSON, is
             *     not a JSON object, lacks `id` or `name`, has a field of the wrong type (no
             *     coercion), an `id` outside the int64 range, a string the store cannot keep
             *     exactly (unpaired UTF-16 surrogates, or the NUL character U+0000), or a query
             *     parameter. `message` names the field and the reason.
             */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NotFound"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            /** @description A plant with this `id` is already stored with a different `name` or `tag`. Nothing was changed. */
            409: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            /**
             * @description The server cannot take the request now: it is shutting down, it is
             *     overloaded (its event loop lags), its database is unreachable or did not
             *     answer in time, its store cannot write (a full disk, a read-only database,
             *     an I/O error, its storage removed or replaced while the server runs),
             *     a managed token could not be looked up, or the keys to check a JWT could
             *     not be fetched from the identity provider. The `Retry-After`
             *     header says how many seconds to wait. Nothing was changed by a request
             *     refused while shutting down; after a database failure the plant may or
             *     may not be stored, and resending the same NewPlant is safe (200 if it was).
             */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPlant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The plant's id, as a canonical decimal integer: an optional `-`, then `0` or
                 *     digits without leading zeros, from -9223372036854775808 up to and including
                 *     9223372036854775807; anything else (`1e2`, `0x10`, `+1`, `01`, `-0`, `1.0`,
                 *     spaces, out of range) answers 400, never 404.
                 */
                id: components["parameters"]["PlantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stored plant. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StoredPlant"];
                };
            };
            400: components["responses"]["BadPlantId"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["InsufficientScope"];
            /** @description No plant is stored under this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deletePlant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The plant's id, as a canonical decimal integer: an optional `-`, then `0` or
                 *     digits without leading zeros, from -9223372036854775808 up to and including
                 *     9223372036854775807; anything else (`1e2`, `0x10`, `+1`, `01`, `-0`, `1.0`,
                 *     spaces, out of range) answers 400, never 404.
                 */
                id: components["parameters"]["PlantId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. No body. */
            204: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadPlantId"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["InsufficientScope"];
            /**
             * @description No plant is stored under this id (never created, or already deleted:
             *     a retried delete whose 204 was lost gets this).
             */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updatePlant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The plant's id, as a canonical decimal integer: an optional `-`, then `0` or
                 *     digits without leading zeros, from -9223372036854775808 up to and including
                 *     9223372036854775807; anything else (`1e2`, `0x10`, `+1`, `01`, `-0`, `1.0`,
                 *     spaces, out of range) answers 400, never 404.
                 */
                id: components["parameters"]["PlantId"];
            };
            cookie?: never;
        };
        /** @description What to change. At most 65536 bytes, UTF-8 JSON. */
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["PlantPatch"];
                "application/json": components["schemas"]["PlantPatch"];
            };
        };
        responses: {
            /** @description The plant as stored after the change, with its id. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StoredPlant"];
                };
            };
            /**
             * @description The request is malformed: the id in the path is not a canonical decimal
             *     int64, a query parameter was sent, or the body is missing, is not valid
             *     UTF-8 JSON, is not a JSON object, is empty (`{}`: nothing to change), has a
             *     member other than `name` and `tag` (`id` included: an id cannot be
             *     changed), has a member of the wrong type (no coercion; `name` cannot be
             *     null), or a string the store cannot keep exactly (unpaired UTF-16
             *     surrogates, or the NUL character U+0000). `message` names the field and the
             *     reason.
             */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["InsufficientScope"];
            /** @description No plant is stored under this id (never created, or deleted). Nothing was changed. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            /**
             * @description The server cannot take the request now, for any of the reasons POST /plants
             *     lists; `Retry-After` says how many seconds to wait. After a database
             *     failure the change may or may not be applied; sending the same patch again
             *     is safe.
             */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Healthy"];
            400: components["responses"]["QueryRefused"];
            405: components["responses"]["GetOnly"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Healthy"];
            400: components["responses"]["QueryRefused"];
            405: components["responses"]["GetOnly"];
            500: components["responses"]["InternalError"];
            /**
             * @description Not ready: the store is unreachable or too slow, it failed to write
             *     for a reason of its own (a full disk, a read-only database, an I/O
             *     error; until a test write succeeds again), its storage was removed or
             *     replaced while the server runs (until it is restarted), the server is
             *     shutting down, or it is overloaded. `Retry-After` says when to ask again.
             */
            503: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics, as `text/plain; version=0.0.4; charset=utf-8`. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example # HELP plantstore_plants_created_total Plants stored for the first time (replays and conflicts not counted)
                     *     # TYPE plantstore_plants_created_total counter
                     *     plantstore_plants_created_total 2
                     */
                    "text/plain": string;
                };
            };
            /** @description A query parameter or a request body was sent; this operation takes neither. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": 400,
                     *       "message": "query parameter \"debug\" is not accepted: this operation takes none"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description The request does not carry the metrics token as a bearer token. The
             *     response has a `WWW-Authenticate: Bearer` header.
             */
            401: {
                headers: {
                    "WWW-Authenticate": components["headers"]["BearerChallenge"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "error": 401,
                     *       "message": "the bearer token is not valid"
                     *     }
                     */
                    "application/json": components["schemas"]["Error"];
                };
            };
            405: components["responses"]["GetOnly"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
    getOpenApiJson: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `ETag` of a copy already held (or `*`); when it names the document this
                 *     server publishes, the answer is 304 without a body.
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "openapi": "3.1.0",
                     *       "info": {
                     *         "title": "Plant Store",
                     *         "version": "1.0.0"
                     *       },
                     *       "servers": [
                     *         {
                     *           "url": "https://plants.example.com"
                     *         }
                     *       ],
                     *       "paths": {}
                     *     }
                     */
                    "application/json": {
                        openapi: string;
                        info: Record<string, never>;
                        servers: Record<string, never>[];
                        paths: Record<string, never>;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["QueryRefused"];
            405: components["responses"]["GetOnly"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getOpenApiYaml: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `ETag` of a copy already held (or `*`); when it names the document this
                 *     server publishes, the answer is 304 without a body.
                 */
                "If-None-Match"?: components["parameters"]["IfNoneMatch"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document, as `application/yaml; charset=utf-8`. */
            200: {
                headers: {
                    ETag: components["headers"]["ETag"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example openapi: 3.1.0
                     *     info:
                     *       title: Plant Store
                     *       version: 1.0.0
                     */
                    "application/yaml": string;
                };
            };
            304: components["responses"]["NotModified"];
            400: components["responses"]["QueryRefused"];
            405: components["responses"]["GetOnly"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getApiChangelog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The changelog, as `text/markdown; charset=utf-8`. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example # Plant Store: API changelog
                     *
                     *     ## 1.1.0
                     *
                     *     Changes since 1.0.0.
                     *
                     *     ### Compatible
                     *
                     *     - `getApiChangelog`: operation added — compatible
                     */
                    "text/markdown": string;
                };
            };
            400: components["responses"]["QueryRefused"];
            405: components["responses"]["GetOnly"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getDocs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page, as `text/html; charset=utf-8`. */
            200: {
                headers: {
                    "Content-Security-Policy": components["headers"]["DocsPolicy"];
                    [name: string]: unknown;
                };
                content: {
                    /** @example <!doctype html><html lang="en"><head><title>Plant Store API</title></head><body><div id="swagger-ui"></div></body></html> */
                    "text/html": string;
                };
            };
            400: components["responses"]["QueryRefused"];
            405: components["responses"]["GetOnly"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getDocsAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The file name. */
                asset: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file, as `text/css; charset=utf-8` or `text/javascript; charset=utf-8`. */
            200: {
                headers: {
                    "Content-Security-Policy": components["headers"]["DocsPolicy"];
                    "Cache-Control": components["headers"]["AssetCaching"];
                    [name: string]: unknown;
                };
                content: {
                    "text/css": string;
                    /** @example window.addEventListener("load", start); */
                    "text/javascript": string;
                };
            };
            400: components["responses"]["QueryRefused"];
            /** @description There is no such file. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            405: components["responses"]["GetOnly"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description The most items to return, from 1 to 100. */
                limit?: components["parameters"]["WebhookPageLimit"];
                /** @description Only endpoints with an id after this one. Usually taken from the `Link` header. */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of endpoints, in ascending order of id (empty past the last). */
            200: {
                headers: {
                    Link: components["headers"]["Link"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"][];
                };
            };
            400: components["responses"]["BadQuery"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["InsufficientScope"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** @description The endpoint to register. At most 65536 bytes, UTF-8 JSON. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewWebhookEndpoint"];
            };
        };
        responses: {
            /** @description Registered. The body is the endpoint with its secret, shown this once. */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            /**
             * @description The body is not a valid endpoint (see `message`), or the URL is refused:
             *     not `https://`, or its host is or resolves to an address that may not
             *     receive webhooks, or the store already holds
             *     {{PLANTSTORE_WEBHOOK_MAX_ENDPOINTS}} endpoints, the most it takes (delete
             *     one first). `message` says why.
             */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["InsufficientScope"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id, as the registration answered it. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["QueryRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NoSuchEndpoint"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id, as the registration answered it. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed. No body. */
            204: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["QueryRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NoSuchEndpoint"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id, as the registration answered it. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        /** @description What to change. At most 65536 bytes, UTF-8 JSON. */
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["WebhookEndpointPatch"];
                "application/json": components["schemas"]["WebhookEndpointPatch"];
            };
        };
        responses: {
            /** @description The endpoint as stored after the change. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /**
             * @description The body is not a valid change (see `message`): not a JSON object, empty, a
             *     member other than `events` and `description`, or an event this API does not
             *     send; or a query parameter was sent.
             */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NoSuchEndpoint"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id, as the registration answered it. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The new secret. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookSecret"];
                };
            };
            400: components["responses"]["QueryRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NoSuchEndpoint"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description The most items to return, from 1 to 100. */
                limit?: components["parameters"]["WebhookPageLimit"];
                /** @description Only deliveries after this one. Usually taken from the `Link` header. */
                after?: string;
            };
            header?: never;
            path: {
                /** @description The endpoint's id, as the registration answered it. */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of deliveries, oldest first (empty past the last). */
            200: {
                headers: {
                    Link: components["headers"]["Link"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"][];
                };
            };
            400: components["responses"]["BadQuery"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NoSuchEndpoint"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    retryWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The endpoint's id, as the registration answered it. */
                id: components["parameters"]["WebhookEndpointId"];
                /** @description The delivery's id, as listed (the `webhook-id` it is sent with). */
                deliveryId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Pending again; the delivery as it now stands. */
            202: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDelivery"];
                };
            };
            400: components["responses"]["QueryRefused"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["InsufficientScope"];
            404: components["responses"]["NoSuchEndpoint"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["TooManyRequests"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["Unavailable"];
        };
    };
    newPlantWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The message's id, the same on every attempt to deliver it.
                 * @example msg_0193a5b2c4d1f0e1d2c3b4a596877869
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description When this attempt was signed, in whole seconds since the Unix epoch.
                 * @example 1795780800
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,` and a base64 HMAC-SHA256. There are
                 *     two while the endpoint's secret is being rotated (the new and the old
                 *     secret); a receiver accepts the message when any of them verifies with a
                 *     secret it holds.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
                /** @description The event the message is; verify the signature, then read the body as this event's. */
                "webhook-event": "newPlant";
            };
            path?: never;
            cookie?: never;
        };
        /** @description The plant created, with its id written exactly. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": 9007199254740992,
                 *       "name": "Monstera deliciosa",
                 *       "tag": "tropical"
                 *     }
                 */
                "application/json": components["schemas"]["NewPlant"];
            };
        };
        responses: {
            /** @description Return a 200 status (any 2xx will do) to indicate that the data was received successfully. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Any other answer, or none within the time allowed, is not a receipt: the
             *     message is sent again later. A 410 Gone is different: it says the endpoint
             *     is gone for good, and no more messages are sent to it.
             */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    plantDeletedWebhook: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The message's id, the same on every attempt to deliver it.
                 * @example msg_0193a5b2c4d1f0e1d2c3b4a596877869
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description When this attempt was signed, in whole seconds since the Unix epoch.
                 * @example 1795780800
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,` and a base64 HMAC-SHA256. There are
                 *     two while the endpoint's secret is being rotated (the new and the old
                 *     secret); a receiver accepts the message when any of them verifies with a
                 *     secret it holds.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
                /** @description The event the message is; verify the signature, then read the body as this event's. */
                "webhook-event": "plantDeleted";
            };
            path?: never;
            cookie?: never;
        };
        /** @description The id of the plant deleted, written exactly. */
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "id": 9007199254740992
                 *     }
                 */
                "application/json": components["schemas"]["DeletedPlant"];
            };
        };
        responses: {
            /** @description Return a 200 status (any 2xx will do) to indicate that the data was received successfully. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /**
             * @description Any other answer, or none within the time allowed, is not a receipt: the
             *     message is sent again later. A 410 Gone says the endpoint is gone for good.
             */
            default: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
/** Per operation, the optional parameters the server fills with their schema's default. */
export interface parametersWithDefaults {
    listPlants: { query: "limit"; };
    listWebhookEndpoints: { query: "limit"; };
    listWebhookDeliveries: { query: "limit"; };
}
/** The operations the server serves: those under paths, not the webhooks it sends. */
export type servedOperations = "listPlants" | "createPlant" | "getPlant" | "deletePlant" | "updatePlant" | "getHealth" | "getReadiness" | "getMetrics" | "getOpenApiJson" | "getOpenApiYaml" | "getApiChangelog" | "getDocs" | "getDocsAsset" | "listWebhookEndpoints" | "createWebhookEndpoint" | "getWebhookEndpoint" | "deleteWebhookEndpoint" | "updateWebhookEndpoint" | "rotateWebhookSecret" | "listWebhookDeliveries" | "retryWebhookDelivery";

/** Those that are a plain action on a declared table (x-action): a generic handler serves them. */
export type resourceOperations = "listPlants" | "createPlant" | "getPlant" | "deletePlant" | "updatePlant";
/** The tables the document declares (x-table): each one's row, as the API types it, and key. */
export interface tables {
    plants: { row: components["schemas"]["StoredPlant"]; key: "id" };
}

/** Per operation: method, path, and where int64s stand (read and written exactly). */
export const operationTable = {
    "listPlants": {
        "method": "GET",
        "path": "/plants",
        "int64Parameters": [
            "after"
        ],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [
                [
                    "[*]",
                    "id"
                ]
            ],
            "400": [],
            "401": [],
            "403": [],
            "405": [],
            "408": [],
            "429": [],
            "431": [],
            "500": [],
            "503": []
        }
    },
    "createPlant": {
        "method": "POST",
        "path": "/plants",
        "bodyType": "application/json",
        "int64Parameters": [],
        "int64InBody": [
            [
                "id"
            ]
        ],
        "int64InAnswers": {
            "200": [],
            "400": [],
            "401": [],
            "403": [],
            "404": [],
            "405": [],
            "408": [],
            "409": [],
            "413": [],
            "415": [],
            "429": [],
            "431": [],
            "500": [],
            "503": []
        }
    },
    "getPlant": {
        "method": "GET",
        "path": "/plants/{id}",
        "int64Parameters": [
            "id"
        ],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [
                [
                    "id"
                ]
            ],
            "400": [],
            "401": [],
            "403": [],
            "404": [],
            "405": [],
            "408": [],
            "429": [],
            "431": [],
            "500": [],
            "503": []
        }
    },
    "deletePlant": {
        "method": "DELETE",
        "path": "/plants/{id}",
        "int64Parameters": [
            "id"
        ],
        "int64InBody": [],
        "int64InAnswers": {
            "204": [],
            "400": [],
            "401": [],
            "403": [],
            "404": [],
            "405": [],
            "408": [],
            "429": [],
            "431": [],
            "500": [],
            "503": []
        }
    },
    "updatePlant": {
        "method": "PATCH",
        "path": "/plants/{id}",
        "bodyType": "application/merge-patch+json",
        "int64Parameters": [
            "id"
        ],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [
                [
                    "id"
                ]
            ],
            "400": [],
            "401": [],
            "403": [],
            "404": [],
            "405": [],
            "408": [],
            "413": [],
            "415": [],
            "429": [],
            "431": [],
            "500": [],
            "503": []
        }
    },
    "getHealth": {
        "method": "GET",
        "path": "/healthz",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [],
            "400": [],
            "405": [],
            "500": [],
            "503": []
        }
    },
    "getReadiness": {
        "method": "GET",
        "path": "/readyz",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [],
            "400": [],
            "405": [],
            "500": [],
            "503": []
        }
    },
    "getMetrics": {
        "method": "GET",
        "path": "/metrics",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [],
            "400": [],
            "401": [],
            "405": [],
            "429": [],
            "500": [],
            "503": []
        }
    },
    "getOpenApiJson": {
        "method": "GET",
        "path": "/openapi.json",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [],
            "304": [],
            "400": [],
            "405": [],
            "500": [],
            "503": []
        }
    },
    "getOpenApiYaml": {
        "method": "GET",
        "path": "/openapi.yaml",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [],
            "304": [],
            "400": [],
            "405": [],
            "500": [],
            "503": []
        }
    },
    "getApiChangelog": {
        "method": "GET",
        "path": "/changelog.md",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [],
            "400": [],
            "405": [],
            "500": [],
            "503": []
        }
    },
    "getDocs": {
        "method": "GET",
        "path": "/docs",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [],
            "400": [],
            "405": [],
            "500": [],
            "503": []
        }
    },
    "getDocsAsset": {
        "method": "GET",
        "path": "/docs/{asset}",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [],
            "400": [],
            "404": [],
            "405": [],
            "500": [],
            "503": []
        }
    },
    "listWebhookEndpoints": {
        "method": "GET",
        "path": "/webhook-endpoints",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [],
            "400": [],
            "401": [],
            "403": [],
            "405": [],
            "408": [],
            "429": [],
            "431": [],
            "500": [],
            "503": []
        }
    },
    "createWebhookEndpoint": {
        "method": "POST",
        "path": "/webhook-endpoints",
        "bodyType": "application/json",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "201": [],
            "400": [],
            "401": [],
            "403": [],
            "405": [],
            "408": [],
            "413": [],
            "415": [],
            "429": [],
            "431": [],
            "500": [],
            "503": []
        }
    },
    "getWebhookEndpoint": {
        "method": "GET",
        "path": "/webhook-endpoints/{id}",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [],
            "400": [],
            "401": [],
            "403": [],
            "404": [],
            "405": [],
            "408": [],
            "429": [],
            "431": [],
            "500": [],
            "503": []
        }
    },
    "deleteWebhookEndpoint": {
        "method": "DELETE",
        "path": "/webhook-endpoints/{id}",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "204": [],
            "400": [],
            "401": [],
            "403": [],
            "404": [],
            "405": [],
            "408": [],
            "429": [],
            "431": [],
            "500": [],
            "503": []
        }
    },
    "updateWebhookEndpoint": {
        "method": "PATCH",
        "path": "/webhook-endpoints/{id}",
        "bodyType": "application/merge-patch+json",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [],
            "400": [],
            "401": [],
            "403": [],
            "404": [],
            "405": [],
            "408": [],
            "413": [],
            "415": [],
            "429": [],
            "431": [],
            "500": [],
            "503": []
        }
    },
    "rotateWebhookSecret": {
        "method": "POST",
        "path": "/webhook-endpoints/{id}/rotate-secret",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [],
            "400": [],
            "401": [],
            "403": [],
            "404": [],
            "405": [],
            "408": [],
            "429": [],
            "431": [],
            "500": [],
            "503": []
        }
    },
    "listWebhookDeliveries": {
        "method": "GET",
        "path": "/webhook-endpoints/{id}/deliveries",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "200": [
                [
                    "[*]",
                    "plantId"
                ]
            ],
            "400": [],
            "401": [],
            "403": [],
            "404": [],
            "405": [],
            "408": [],
            "429": [],
            "431": [],
            "500": [],
            "503": []
        }
    },
    "retryWebhookDelivery": {
        "method": "POST",
        "path": "/webhook-endpoints/{id}/deliveries/{deliveryId}/retry",
        "int64Parameters": [],
        "int64InBody": [],
        "int64InAnswers": {
            "202": [
                [
                    "plantId"
                ]
            ],
            "400": [],
            "401": [],
            "403": [],
            "404": [],
            "405": [],
            "408": [],
            "429": [],
            "431": [],
            "500": [],
            "503": []
        }
    }
} as const;

/** Per webhook the server sends: method, name, and where int64s stand in its body. */
export const webhookTable = {
    "newPlantWebhook": {
        "method": "POST",
        "path": "/plant/webhook",
        "bodyType": "application/json",
        "int64Parameters": [],
        "int64InBody": [
            [
                "id"
            ]
        ],
        "int64InAnswers": {
            "200": [],
            "default": []
        }
    },
    "plantDeletedWebhook": {
        "method": "POST",
        "path": "/plant/deleted",
        "bodyType": "application/json",
        "int64Parameters": [],
        "int64InBody": [
            [
                "id"
            ]
        ],
        "int64InAnswers": {
            "200": [],
            "default": []
        }
    }
} as const;

/** Each event the document declares (x-event), by type: its body as a receiver reads it. */
export interface webhookEvents {
    "newPlant": operations["newPlantWebhook"]["requestBody"]["content"]["application/json"];
    "plantDeleted": operations["plantDeletedWebhook"]["requestBody"]["content"]["application/json"];
}

/**
 * Per event type: its webhook, where int64s stand in its body, the members it always has, and
 * the only members it may have when its schema is closed (null when it is open).
 */
export const eventTable = {
    "newPlant": {
        "operationId": "newPlantWebhook",
        "int64InBody": [
            [
                "id"
            ]
        ],
        "required": [
            "name",
            "id"
        ],
        "members": null
    },
    "plantDeleted": {
        "operationId": "plantDeletedWebhook",
        "int64InBody": [
            [
                "id"
            ]
        ],
        "required": [
            "id"
        ],
        "members": null
    }
} as const;
