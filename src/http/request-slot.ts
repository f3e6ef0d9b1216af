// A value one step of a request leaves for a later step of the same request: a member of the
// Fastify request under a symbol of its own, so no two slots and no plugin can collide, and
// gone with the request (no WeakMap entry for the collector to trace on every request).
import type { FastifyRequest } from "fastify";

export interface RequestSlot<T> {
  set(request: FastifyRequest, value: T): void;
  /** Whether a value was set for this request, undefined included. */
  has(request: FastifyRequest): boolean;
  get(request: FastifyRequest): T | undefined;
}

export function requestSlot<T>(name: string): RequestSlot<T> {
  const key = Symbol(name);
  const slots = (request: FastifyRequest) => request as unknown as Record<symbol, T | undefined>;
  return {
    set(request, value) {
      slots(request)[key] = value;
    },
    has: (request) => key in request,
    get: (request) => slots(request)[key],
  };
}
