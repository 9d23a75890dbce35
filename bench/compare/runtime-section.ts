/**
 * Section "Runtime overhead per call": Sapling's runtime and BAML's runtime calling the same function of
 * the same .baml files against the same mock LLM server on 127.0.0.1 (src/testing, OpenAI wire format,
 * client `openai-generic` with `base_url env.BENCH_BASE_URL`). Each call renders the prompt, sends the
 * request, reads the answer and parses it. The floor is a bare `fetch` of the same endpoint reading the
 * JSON body; overhead = a runtime's median minus the floor's.
 */
import { SaplingRuntime } from "../../src/runtime/index.js";
import { answer, startMockLlmServer } from "../../src/testing/index.js";
import type { CorpusCase } from "../corpus/corpus-case.js";
import { loadBaml, readBamlSources } from "./baml-parser.js";
import { formatDuration, formatRatio, markdownTable } from "./markdown-table.js";
import { median } from "./measure-time.js";
import type { SaplingProject } from "./sapling-project.js";

/** The resume text sent as the function's argument (the prompt's size matters, not its content). */
const resumeText =
  "Jane Doe — 8 years building distributed systems in Rust and Go. Staff engineer at Streamline " +
  "(2019–2024): led the Kubernetes migration, cut p99 latency by 40%, mentored six engineers.";

/** Rounds of calls per answer: at least `minRounds`, then until the budget is spent. */
const budgetMs = 3000;
const minRounds = 20;
const maxRounds = 400;

interface CallDriver {
  name: string;
  call(functionName: string, text: string): Promise<unknown>;
  stream(functionName: string, text: string): Promise<unknown>;
}

export async function runtimeSection(project: SaplingProject, cases: readonly CorpusCase[]): Promise<string> {
  let current = "";
  const server = await startMockLlmServer({ respond: () => answer(current, { chunkSize: 16 }) });
  try {
    const env = { BENCH_BASE_URL: server.baseUrls.openai };
    const sapling = SaplingRuntime.fromIr(project.ir, { env });
    const baml = await loadBaml();
    const bamlRuntime = baml.BamlRuntime.fromFiles("baml_src", readBamlSources(), env);
    const context = new baml.BamlCtxManager(bamlRuntime);
    const drivers: CallDriver[] = [
      {
        name: "Sapling",
        call: (functionName, text) => sapling.call(functionName, { text }),
        stream: (functionName, text) => sapling.stream(functionName, { text }).getFinalResponse(),
      },
      {
        name: "BAML 0.226.2",
        call: async (functionName, text) => {
          const result = await bamlRuntime.callFunction(
            functionName,
            { text },
            context.cloneContext(),
            null,
            null,
            [],
            {},
            env,
          );
          return result.parsed(false);
        },
        stream: async (functionName, text) => {
          const stream = bamlRuntime.streamFunction(
            functionName,
            { text },
            undefined,
            context.cloneContext(),
            null,
            null,
            [],
            {},
            env,
          );
          stream.onEvent(() => {});
          return (await stream.done(context.cloneContext())).parsed(false);
        },
      },
    ];
    const floor = async (): Promise<unknown> => {
      const response = await fetch(`${server.baseUrls.openai}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "bench-model", messages: [{ role: "user", content: resumeText }] }),
      });
      return response.json();
    };
    const rows: string[][] = [];
    for (const corpusCase of cases) {
      current = corpusCase.answer;
      for (const driver of drivers) await driver.call(corpusCase.functionName, resumeText); // warm-up; fails loudly
      // Round-robin sampling: every contender takes one turn per round, so load on the machine hits all alike.
      const contenders: Array<{ name: string; run: () => Promise<unknown> }> = [
        { name: "floor", run: floor },
        ...drivers.map((driver) => ({
          name: `${driver.name} call`,
          run: () => driver.call(corpusCase.functionName, resumeText),
        })),
        ...drivers.map((driver) => ({
          name: `${driver.name} stream`,
          run: () => driver.stream(corpusCase.functionName, resumeText),
        })),
      ];
      const samples = new Map<string, number[]>(contenders.map((contender) => [contender.name, []]));
      const started = performance.now();
      for (
        let round = 0;
        round < maxRounds && (round < minRounds || performance.now() - started < budgetMs);
        round += 1
      ) {
        for (const contender of contenders) {
          const callStarted = performance.now();
          await contender.run();
          samples.get(contender.name)?.push(performance.now() - callStarted);
        }
      }
      const medianOf = (name: string): number => median(samples.get(name) ?? [Number.NaN]);
      const floorMs = medianOf("floor");
      for (const driver of drivers) {
        const call = medianOf(`${driver.name} call`);
        const stream = medianOf(`${driver.name} stream`);
        const isReference = driver === drivers[0];
        rows.push([
          `${corpusCase.id} (${Buffer.byteLength(corpusCase.answer)} B)`,
          driver.name,
          formatDuration(call),
          formatDuration(Math.max(0, call - floorMs)),
          isReference ? "1×" : formatRatio(call, medianOf("Sapling call")),
          formatDuration(stream),
          isReference ? "1×" : formatRatio(stream, medianOf("Sapling stream")),
        ]);
      }
      rows.push([corpusCase.id, "bare fetch (floor)", formatDuration(floorMs), "–", "–", "–", "–"]);
    }
    return [
      "### Runtime overhead per call",
      "",
      "Both runtimes run the same function from bench/corpus/baml_src against the same mock LLM server on " +
        "127.0.0.1 (OpenAI wire format; client `openai-generic`), which answers immediately with the corpus answer " +
        "named in the row. A *call* renders the prompt, sends the request, reads the answer and parses it into the " +
        "return type (Sapling `runtime.call`, BAML `runtime.callFunction(...).parsed()`, what generated clients " +
        "do). A *stream* is the same call streamed over SSE in 16-character chunks, timed to the final value " +
        "(Sapling `runtime.stream(...).getFinalResponse()`, BAML `streamFunction(...).done()`). *Overhead* = call " +
        `minus a bare \`fetch\` of the same endpoint. Medians over at least ${minRounds} rounds (about ${budgetMs / 1000} s ` +
        "per answer) in which the floor and each runtime's call and stream take one turn each, so load on the machine " +
        "falls on all of them alike.",
      "",
      markdownTable(
        ["answer", "runtime", "call", "call overhead", "÷ Sapling", "stream to final", "÷ Sapling"],
        rows,
      ),
    ].join("\n");
  } finally {
    await server.close();
  }
}
