// The same cold start with BAML's Node addon, as its generated client does it: import @boundaryml/baml,
// build the runtime from the inlined .baml sources, parse one answer with parseLlmResponse.
//   node bench/startup/baml-first-parse.mjs <sources.json> <function> <answer file>
import { readFileSync } from "node:fs";

const [sourcesPath, functionName, answerPath] = process.argv.slice(2);
// BAML logs every prompt and reply at info level by default.
process.env.BAML_LOG ??= "off";
const started = performance.now();
const baml = await import("@boundaryml/baml");
const runtime = baml.BamlRuntime.fromFiles("baml_src", JSON.parse(readFileSync(sourcesPath, "utf8")), {});
const context = new baml.BamlCtxManager(runtime);
const text = readFileSync(answerPath, "utf8");
const value = runtime.parseLlmResponse(functionName, text, false, context.cloneContext(), null, null, {});
const elapsed = performance.now() - started;
process.stdout.write(`${JSON.stringify({ elapsed, value })}\n`);
