// Generated from openapi/plants.yaml by `npm run generate`. Do not edit.

export type paths = {
    "/plants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
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
         *     Checks run in this order: method and path (404, 405), rate limits (429),
         *     credentials (401, or 503 when a JWT's keys cannot be fetched), scope (403),
         *     body size (413), a missing body (400), content type (415), body syntax and
         *     shape (400), then the store (409, 503). A request without valid
         *     credentials learns nothing about its body.
         */
        post: operations["createPlant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
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
         *     When PLANTSTORE_METRICS_TOKEN is set, this needs that token as a bearer
         *     token (`metricsToken`); when it is unset, no credentials are needed.
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
};
export type webhooks = Record<string, never>;
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
        NewPlant: components["schemas"]["Plant"] & {
            /**
             * Format: int64
             * @description Identification number of the plant
             */
            id: number;
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
    };
    responses: {
        /** @description A query parameter was sent; this operation takes none. */
        QueryRefused: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description A method other than GET was used. The `Allow` header lists the allowed methods. */
        GetOnly: {
            headers: {
                /** @description The methods allowed on this path. */
                Allow?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An unexpected fault in the server. The message reveals nothing internal; the fault is logged with the request id. */
        InternalError: {
            headers: {
                [name: string]: unknown;
            };
            content: {
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
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Seconds to wait before retrying. */
        RetryAfter: number;
    };
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plant"];
                };
            };
            /**
             * @description The request is malformed: the body is not valid UTF-8 JSON, is not a JSON
             *     object, lacks `id` or `name`, has a field of the wrong type (no coercion),
             *     an `id` outside the int64 range, a string the store cannot keep exactly
             *     (unpaired UTF-16 surrogates, or a NUL character `\u0000`), or a query
             *     parameter. `message` names the field and the reason.
             */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
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
            401: {
                headers: {
                    /** @description The Bearer challenge (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description The token is valid but carries scopes, and not `plants:write`, which
             *     creating a plant needs. A token that carries no scope claim at all has
             *     full access. Checked after the credentials and before the body is read.
             *     The response has a `WWW-Authenticate: Bearer realm="plantstore",
             *     error="insufficient_scope", error_description="…", scope="plants:write"`
             *     header.
             */
            403: {
                headers: {
                    /** @description The Bearer challenge (RFC 6750) naming the scope needed. */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description Not answered for `/plants` itself: any path this document does not describe
             *     (for example `/plants/1` or `/plants/`) answers 404 with this body.
             */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A method other than POST was used on `/plants`. The `Allow` header lists the allowed methods. */
            405: {
                headers: {
                    /** @description The methods allowed on this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A plant with this `id` is already stored with a different `name` or `tag`. Nothing was changed. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body is larger than 65536 bytes. */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description The body's content type is not JSON, or the body is compressed.
             *     `application/json` is accepted, with no charset or `charset=utf-8`;
             *     Content-Encoding other than `identity` and transfer codings other
             *     than `chunked` are not.
             */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description Too many requests: this bearer token made more than
             *     PLANTSTORE_TOKEN_RATE_LIMIT requests (default 6000) in the current
             *     minute, or this client address sent more than
             *     PLANTSTORE_AUTH_FAILURE_LIMIT rejected credentials (default 60) in the
             *     current minute. Nothing was changed; `Retry-After` says when the minute
             *     is over.
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected fault in the server. The message reveals nothing internal; the fault is logged with the request id. */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /**
             * @description The server cannot take the request now: it is shutting down, it is
             *     overloaded (its event loop lags), its database is unreachable or did not
             *     answer in time, or the keys to check a JWT could not be fetched from the
             *     identity provider. The `Retry-After`
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
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Alive. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
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
            /** @description Ready. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            400: components["responses"]["QueryRefused"];
            405: components["responses"]["GetOnly"];
            500: components["responses"]["InternalError"];
            /**
             * @description Not ready: the store is unreachable or too slow, the server is shutting
             *     down, or it is overloaded. `Retry-After` says when to ask again.
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
            /** @description The metrics. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            400: components["responses"]["QueryRefused"];
            /**
             * @description PLANTSTORE_METRICS_TOKEN is set and the request does not carry it as a
             *     bearer token. The response has a `WWW-Authenticate: Bearer` header.
             */
            401: {
                headers: {
                    /** @description The Bearer challenge (RFC 6750). */
                    "WWW-Authenticate"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            405: components["responses"]["GetOnly"];
            /**
             * @description This client address sent more than PLANTSTORE_AUTH_FAILURE_LIMIT rejected
             *     credentials in the current minute, or this token more than
             *     PLANTSTORE_TOKEN_RATE_LIMIT requests.
             */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            500: components["responses"]["InternalError"];
            503: components["responses"]["ShuttingDown"];
        };
    };
}
