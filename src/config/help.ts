// `npm start -- --help` and `--print-config`: every setting with its default and the value in
// effect, secrets masked, so a deployment can be checked without reading code or starting it.
import { redactUrl } from "./postgres-url.ts";
import { SETTINGS, type Setting } from "./settings.ts";

type Env = Readonly<Record<string, string | undefined>>;

export const USAGE = `Usage: npm start [-- --help | --print-config]

  --help          this text and every setting: name, default, current value
  --print-config  check the settings as start-up would (exit 1 if one is invalid), print them

Settings come from environment variables only (docs/operating.md: Configuration).
`;

export function settingsTable(env: Env): string {
  const rows = [
    ["setting", "default", "current", "meaning"],
    ...Object.entries(SETTINGS).map(([name, s]: [string, Setting]) => [
      name,
      shown(s.default),
      current(s, env[name]),
      s.meaning,
    ]),
  ];
  const widths = [0, 1, 2].map((column) =>
    Math.max(...rows.map((row) => (row[column] ?? "").length)),
  );
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column < 3 ? cell.padEnd(widths[column] ?? 0) : cell))
        .join("  ")
        .trimEnd(),
    )
    .join("\n")
    .concat("\n");
}

const shown = (value: string | undefined): string =>
  value === undefined ? "(unset)" : value === "" ? "(empty)" : value;

function current(setting: Setting, raw: string | undefined): string {
  if (raw === undefined) return `${shown(setting.default)} (default)`;
  if (setting.secret === "url") return redactUrl(raw.trim());
  if (setting.secret === "token") {
    const count = raw.split(",").filter((t) => t.trim() !== "").length;
    return count === 1 ? "*** (1 token)" : `*** (${count} tokens)`;
  }
  return shown(raw);
}

/** docs/operating.md's table of settings (written there by `npm run generate`). */
export function settingsMarkdown(): string {
  const rows = Object.entries(SETTINGS).map(([name, s]: [string, Setting]) => {
    const value = s.default === undefined || s.default === "" ? "unset" : `\`${s.default}\``;
    return `| \`${name}\` | ${value} | ${s.doc ?? s.meaning} |`;
  });
  return ["| variable | default | meaning |", "|---|---|---|", ...rows].join("\n");
}
