/**
 * The runtime entry a web page or an edge worker ships stays small: bundled for the browser, minified and
 * gzipped, it stays within its budget (bench/bundle/measure-entry-bundle.ts says how it was set). Bytes are
 * counted; `npm run bench -- bundle` reports the same numbers.
 */
import { describe, expect, it } from "vitest";
import {
  measureEntryBundle,
  runtimeBundleBudget,
  runtimeEntry,
} from "../bench/bundle/measure-entry-bundle.js";

describe("the runtime entry's browser bundle", () => {
  it("has the budget issue 36 sets: 80 KB", () => {
    expect(runtimeBundleBudget).toBe(81_920);
  });

  it("stays within its gzipped budget", async () => {
    const size = await measureEntryBundle(runtimeEntry);
    // What was measured is the runtime: its main class is in it, and so is every room it needs.
    expect(size.text).toContain("SaplingRuntime");
    // Bedrock's adapter is sapling-llm/aws-bedrock's (docs/decisions/0020-aws-bedrock-entry-point.md).
    expect(size.text).not.toContain("aws4_request");
    // So is Vertex AI's, with its service-account signing (docs/decisions/0021-vertex-ai-entry-point.md).
    expect(size.text).not.toContain("RSASSA-PKCS1-v1_5");
    // The media URL downloader loads only for a call that sends media by URL: its own chunk, behind an import().
    expect(size.text).not.toContain("gs://");
    expect(size.lazyGzipped).toBeGreaterThan(0);
    // The provider adapters load on a call's first request (docs/decisions/0043-lazy-call-path.md): OpenAI
    // chat's path, Anthropic's version header and Gemini's method are in no file the entry loads.
    for (const wireMark of ["/chat/completions", "anthropic-version", "streamGenerateContent"]) {
      expect(size.text).not.toContain(wireMark);
    }
    // So do the Jinja engine and the prompt renderer, with a call's first prompt
    // (docs/decisions/0048-lazy-prompt-renderer.md): neither a Jinja filter's name nor a template error's is
    // in a file the entry loads.
    for (const jinjaMark of ["regex_match", "unknown_filter"]) expect(size.text).not.toContain(jinjaMark);
    expect(size.inputs).toBeGreaterThan(100);
    expect(size.gzipped).toBeLessThan(size.minified);
    expect(
      size.gzipped,
      `the runtime entry is ${size.gzipped} bytes gzipped, over its budget of ${runtimeBundleBudget}: ` +
        "move what only some users need behind an entry point of its own, or load it lazily",
    ).toBeLessThanOrEqual(runtimeBundleBudget);
  });
});
