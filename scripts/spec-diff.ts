// `npm run spec:diff`: see src/spec-diff/command.ts.
import { specDiff } from "../src/spec-diff/command.ts";

process.exitCode = specDiff(process.argv.slice(2), {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
});
