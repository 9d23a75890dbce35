// One cold start of a generated client's parse path, in a fresh process: import the runtime entry, load
// the IR, parse one answer. Prints the milliseconds from before the import to after the parse.
//   node bench/startup/sapling-first-parse.mjs <runtime entry> <ir.json> <function> <answer file>
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [entry, irPath, functionName, answerPath] = process.argv.slice(2);
const started = performance.now();
const { SaplingRuntime } = await import(pathToFileURL(entry).href);
const runtime = SaplingRuntime.fromIr(JSON.parse(readFileSync(irPath, "utf8")));
const value = runtime.parse(functionName, readFileSync(answerPath, "utf8"));
const elapsed = performance.now() - started;
process.stdout.write(`${JSON.stringify({ elapsed, value })}\n`);
