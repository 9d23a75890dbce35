/**
 * `npm run bench` section "Side by side": Sapling against the real BAML runtime (@boundaryml/baml, a
 * bench-only dev dependency) and the usual alternatives (jsonrepair + Zod, the AI SDK's parsePartialJson +
 * Zod), on the shared corpus of messy answers in bench/corpus. Accuracy, parse speed by size, streaming
 * cost, prompt tokens and runtime overhead per call; `npx tsx bench/run.ts compare` runs it alone.
 */

import { accuracySection } from "./compare/accuracy-section.js";
import { createBamlParser } from "./compare/baml-parser.js";
import { firstDifference } from "./compare/first-difference.js";
import { createJsonrepairZodParser } from "./compare/jsonrepair-zod-parser.js";
import { createPartialJsonZodParser } from "./compare/partial-json-zod-parser.js";
import { runtimeSection } from "./compare/runtime-section.js";
import { createSaplingParser } from "./compare/sapling-parser.js";
import { loadSaplingProject } from "./compare/sapling-project.js";
import { saplingIncrementalStrategy } from "./compare/sapling-stream-strategy.js";
import { createSaplingZodParser } from "./compare/sapling-zod-parser.js";
import { speedSection } from "./compare/speed-section.js";
import { reparseEveryPrefix } from "./compare/stream-strategy.js";
import { streamingSection } from "./compare/streaming-section.js";
import { tokensSection } from "./compare/tokens-section.js";
import { zodSchemaFor } from "./compare/zod-schemas.js";
import { sizeSeriesVariants } from "./corpus/answer-variants.js";
import type { CorpusCase } from "./corpus/corpus-case.js";
import { loadCorpus } from "./corpus/corpus-files.js";

/** A corpus expectation that does not fit its schema would make every parser look wrong: stop the bench. */
function assertExpectationsFitSchemas(cases: readonly CorpusCase[]): void {
  for (const corpusCase of cases) {
    if (!("value" in corpusCase.expected)) continue;
    const result = zodSchemaFor(corpusCase.schema).safeParse(corpusCase.expected.value);
    if (!result.success)
      throw new Error(`corpus case ${corpusCase.id}: expected value does not fit: ${result.error.message}`);
  }
}

const progress = (message: string): void => {
  process.stderr.write(`bench: compare: ${message}\n`);
};

export async function benchCompare(): Promise<string> {
  const corpus = loadCorpus();
  const committed = corpus.filter((corpusCase) => corpusCase.size !== "200k");
  const sizeSeries = corpus.filter(
    (corpusCase) =>
      corpusCase.schema !== "ticket" &&
      (sizeSeriesVariants as readonly string[]).includes(corpusCase.variant),
  );
  assertExpectationsFitSchemas(committed);
  const project = loadSaplingProject();
  const sapling = createSaplingParser(project);
  const baml = await createBamlParser();
  const jsonrepair = createJsonrepairZodParser();
  const partialJson = createPartialJsonZodParser();
  const saplingZod = createSaplingZodParser();

  progress("accuracy");
  const accuracy = await accuracySection([sapling, saplingZod, baml, jsonrepair, partialJson], committed);
  const notes = [sapling, saplingZod, baml].map((parser) => {
    const misses = committed.flatMap((corpusCase) => {
      const judgement = accuracy.judgements.get(parser.name)?.get(corpusCase.id);
      if (judgement === undefined || judgement.verdict === "correct") return [];
      const why =
        judgement.verdict === "failed"
          ? `failed: ${String(judgement.detail).split("\n")[0]?.slice(0, 120)}`
          : "value" in corpusCase.expected
            ? firstDifference(judgement.detail, corpusCase.expected.value)
            : "returned a value where the answer names none";
      return [`  - \`${corpusCase.id}\` — ${why}`];
    });
    return misses.length === 0
      ? `- ${parser.name}: every case correct.`
      : [`- ${parser.name}:`, ...misses].join("\n");
  });
  progress("parse speed");
  const speed = await speedSection(
    [sapling, baml, jsonrepair, partialJson],
    [sapling, baml, partialJson],
    sizeSeries,
  );
  progress("streaming");
  const streaming = await streamingSection(
    [
      saplingIncrementalStrategy(project),
      reparseEveryPrefix(sapling, "Sapling parsePartial (no stream state)"),
      reparseEveryPrefix(baml),
      reparseEveryPrefix(partialJson),
    ],
    committed,
  );
  progress("prompt tokens");
  const tokens = await tokensSection();
  progress("runtime overhead");
  const runtime = await runtimeSection(
    project,
    committed.filter((corpusCase) =>
      ["resume-messy-0.5k", "resume-chatty-fenced-2k"].includes(corpusCase.id),
    ),
  );
  return [
    "## Side by side: Sapling, BAML and the usual alternatives",
    "",
    "Parsers compared on the shared corpus of messy answers (bench/corpus, see its README): **Sapling** " +
      "(`parseValue`, and `parsePartial` for prefixes, from src/sap on the IR src/language compiles from bench/corpus/baml_src), **BAML 0.226.2** " +
      "(the real Rust runtime through its Node addon, offline: `parseLlmResponse` on the same .baml files — " +
      "what `b.parse.Fn` / `b.parseStream.Fn` call), **jsonrepair + Zod** (jsonrepair 3.15.0, `JSON.parse`, a " +
      "hand-written Zod 4 mirror of each schema) and **AI SDK parsePartialJson + Zod** (ai 6.0.325, the same " +
      "mirrors). **Sapling via Zod** is Sapling's parser reached through `sapling-llm/zod` with those Zod mirrors " +
      "(`parse(schema, text)`: no .baml file). BAML and jsonrepair are dev dependencies used only under bench/; Zod " +
      "and the AI SDK are optional peer dependencies of the `sapling-llm/zod` and `sapling-llm/ai-sdk` entry points.",
    "",
    accuracy.markdown,
    "",
    "Answers not read correctly:",
    "",
    ...notes,
    "",
    speed,
    "",
    streaming,
    "",
    tokens,
    "",
    runtime,
  ].join("\n");
}
