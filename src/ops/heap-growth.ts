// How far V8 lets the old generation grow past what was live at its last full collection.
//
// Left to itself, V8 picks that factor from how fast it collects against how fast the program
// allocates, up to 4×; start-up (parsing the YAML, openapi-backend dereferencing it, ajv
// compiling validators) leaves some 20 MB of garbage, and under a create load the heap then grew
// by 40–60 MB before its first full collection. At a fixed 1.5× the same load peaked at
// 121–123 MB of RSS instead of 144–187 MB, with CPU and instructions per request the same
// within the noise (BENCHMARKS.md, "Peak memory and the old generation"). The live heap here is
// small (about 20 MB) and V8 marks it concurrently, so collecting it more often costs little.
//
// Set at run time rather than on node's command line: a V8 option that a later Node's V8 no
// longer knows is then a warning, where on the command line it would stop `npm start`.
import { setFlagsFromString } from "node:v8";

const HEAP_GROWING_PERCENT = 50;

export function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
