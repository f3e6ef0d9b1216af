// Drives one operation against a running server, for profiling by hand (BENCHMARKS.md,
// "Reproducing a profile"): `tsx scripts/bench/drive-one.ts URL create|get|list SECONDS`.
// Reads pick ids among the first plants the creates stored (ids 0 .. STORED-1). Creates start
// at FIRST_ID (0): give a second create run on the same file its own, or its first plants
// repeat the last run's and are answered without a write.
import { drive, type Operation } from "./load.ts";

const [url = "http://127.0.0.1:18600", operation = "create", seconds = "8"] = process.argv.slice(2);
const stored = Number(process.env["STORED"] ?? "10000");
const result = await drive({
  url,
  token: process.env["TOKEN"] ?? "bench-token-0123456789abcdef",
  connections: 50,
  durationSeconds: Number(seconds),
  operation: operation as Operation,
  firstId: Number(process.env["FIRST_ID"] ?? "0"),
  pickStored: () => Math.floor(Math.random() * stored),
});
process.stdout.write(`${JSON.stringify(result)}\n`);
