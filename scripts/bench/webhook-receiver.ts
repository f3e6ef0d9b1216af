// A webhook receiver for npm run bench:webhooks: answers every POST 200 at once and counts
// them, and the distinct webhook-ids among them; GET /count gives both as JSON. A POST to
// /hold is never answered (the sender's timeout ends it): a receiver that keeps the
// deliverer's slots busy while it does almost nothing.
import { createServer } from "node:http";

let received = 0;
const ids = new Set<string>();

const server = createServer((request, response) => {
  if (request.method === "POST" && request.url === "/hold") {
    request.resume();
    return;
  }
  if (request.method === "POST") {
    received++;
    const id = request.headers["webhook-id"];
    if (typeof id === "string") ids.add(id);
    request.resume();
    request.on("end", () => response.writeHead(200, { "content-length": "0" }).end());
    return;
  }
  // GET /healthz (the bench's start-up check) and GET /count.
  response
    .writeHead(200, { "content-type": "application/json" })
    .end(JSON.stringify({ received, distinct: ids.size }));
});
server.listen(Number(process.env["PORT"] ?? "0"), process.env["HOST"] ?? "127.0.0.1");
// Held requests would keep a graceful close waiting for the sender's timeout.
process.once("SIGTERM", () => process.exit(0));
