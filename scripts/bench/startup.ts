// npm run bench:startup: what a start costs until GET /healthz answers, as a new user's
// `npm start` runs the server (the build made first, not counted): a fresh SQLite file, no
// token configured (so the first start's token is made too). CPU is the server process's own,
// every thread, from /proc when /healthz first answers; wall time from spawn to that answer.
// With --service DIR, that checkout's starts alternate with this one's, so that both feel the
// same machine.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { commitOf, median, serviceCommand, wholeNumber } from "./service.ts";

const USAGE = `usage: npm run bench:startup -- [--starts N] [--service DIR]
  --starts N      starts of each service (5)
  --service DIR   also start DIR's service (its node_modules installed), in turns with this one`;

const { values } = parseArgs({
  options: {
    starts: { type: "string", default: "5" },
    service: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const starts = wholeNumber("starts", values.starts, 1);
const roots = values.service === undefined ? ["."] : [".", values.service];
const services = roots.map((root) => ({ ...serviceCommand(root), name: commitOf(root) }));

// Clock ticks a second, as /proc counts CPU time (USER_HZ).
const TICKS = 100;

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

async function start(service: (typeof services)[number], port: number) {
  const dir = mkdtempSync(join(tmpdir(), "plantstore-startup-"));
  const began = performance.now();
  const [node, ...args] = service.command as [string, ...string[]];
  const child = spawn(node, args, {
    cwd: service.root,
    env: { PATH: process.env["PATH"], PORT: String(port), DATABASE_URL: `sqlite:${dir}/plants.db` },
    stdio: "ignore",
  });
  try {
    for (;;) {
      const answered = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (res) => res.ok,
        () => false,
      );
      if (answered) break;
      if (child.exitCode !== null) throw new Error(`${service.name} exited before it answered`);
      await sleep(5);
    }
    return { cpu: cpuSeconds(child.pid as number), wall: (performance.now() - began) / 1000 };
  } finally {
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}

const results = services.map(() => [] as { cpu: number; wall: number }[]);
for (let round = 0; round < starts; round++) {
  for (const [index, service] of services.entries()) {
    results[index]?.push(await start(service, 18_900 + index));
  }
}
const range = (xs: number[]) =>
  `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
process.stdout.write(
  `\n| service | starts | CPU s to /healthz, median (range) | wall s, median (range) |\n|---|---:|---:|---:|\n`,
);
for (const [index, service] of services.entries()) {
  const own = results[index] ?? [];
  process.stdout.write(
    `| ${service.name} | ${own.length} | ${range(own.map((r) => r.cpu))} | ${range(own.map((r) => r.wall))} |\n`,
  );
}
