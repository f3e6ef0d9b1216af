// Entry of the SQLite write thread: loads the TypeScript thread code through tsx's API, since
// a worker thread does not inherit the loader its process was started with (nor vitest's).
import { tsImport } from "tsx/esm/api";

await tsImport("./writer-thread.ts", import.meta.url);
