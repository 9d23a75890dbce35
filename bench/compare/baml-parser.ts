/**
 * The real BAML parser (@boundaryml/baml 0.226.2, the Rust engine behind a Node native addon), driven
 * offline: the corpus's .baml files are loaded with `BamlRuntime.fromFiles`, and an answer is parsed with
 * `runtime.parseLlmResponse(function, text, allowPartials, …)`, exactly what a generated client's
 * `b.parse.Fn(text)` / `b.parseStream.Fn(text)` calls (a fresh context clone per call, as it does).
 * No client is ever called; BENCH_BASE_URL only has to resolve.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ParserUnderTest } from "./parser-under-test.js";

/** The corpus's .baml sources keyed `baml_src/<file>`, as BAML's generated `inlinedbaml.ts` does. */
export function readBamlSources(): Record<string, string> {
  const directory = join(import.meta.dirname, "..", "corpus", "baml_src");
  return Object.fromEntries(
    readdirSync(directory)
      .filter((name) => name.endsWith(".baml"))
      .sort()
      .map((name) => [`baml_src/${name}`, readFileSync(join(directory, name), "utf8")]),
  );
}

/** Loads the native runtime quietly (BAML logs every prompt and reply at info level by default). */
export async function loadBaml(): Promise<typeof import("@boundaryml/baml")> {
  process.env.BAML_LOG ??= "off";
  return import("@boundaryml/baml");
}

export async function createBamlParser(): Promise<ParserUnderTest> {
  const baml = await loadBaml();
  const env = { BENCH_BASE_URL: "http://127.0.0.1:9/v1" };
  const runtime = baml.BamlRuntime.fromFiles("baml_src", readBamlSources(), env);
  const context = new baml.BamlCtxManager(runtime);
  return {
    name: "BAML 0.226.2",
    hasPartialMode: true,
    parse: (target, text, mode) =>
      runtime.parseLlmResponse(
        target.functionName,
        text,
        mode === "partial",
        context.cloneContext(),
        null,
        null,
        env,
      ),
  };
}
