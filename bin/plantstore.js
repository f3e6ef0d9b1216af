#!/usr/bin/env node
// The `plantstore` command (package.json "bin", `npm run plantstore -- …`): runs the
// TypeScript entry through tsx from wherever it is called.
import { register } from "tsx/esm/api";

register();
await import("../src/cli/main.ts");
