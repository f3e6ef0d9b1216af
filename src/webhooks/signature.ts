// The sender's half of Standard Webhooks 1.0: the three headers that sign one delivery, each
// signature made by the standard's own library. (A secret is made where it is stored:
// src/store/webhooks.ts.)
import { Webhook } from "standardwebhooks";

// A type, not an interface, so that it passes wherever a Record of headers is taken.
export type SignatureHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

/**
 * The headers of one delivery, signed with every secret given: one `v1,<signature>` entry each,
 * so that during a rotation a receiver holding either the old or the new secret accepts it.
 */
export function signatureHeaders(input: {
  id: string;
  timestampSeconds: number;
  body: string;
  secrets: readonly string[];
}): SignatureHeaders {
  if (input.secrets.length === 0) {
    throw new TypeError("a webhook is signed with at least one secret");
  }
  const timestamp = Math.floor(input.timestampSeconds);
  const signatures = input.secrets.map((secret) =>
    new Webhook(secret).sign(input.id, new Date(timestamp * 1000), input.body),
  );
  return {
    "webhook-id": input.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatures.join(" "),
  };
}
