/**
 * `npm run bench -- cadence`: what the default pacing of partials (src/runtime/sapling-stream.ts) buys on
 * answers whose partials are costly: a `map<string, int>` of many entries streamed by the mock LLM in
 * 16-character chunks through `runtime.stream`, read by a consumer that always asks for the next partial.
 * The columns: the whole stream's wall time, how many partials were built, and the final parse alone, with
 * the default pacing (building partials kept within a fifth of the stream's time after a 50 ms allowance)
 * and with `partialIntervalMs: 0` (a partial at every ask: what the default was before). The 0 column is
 * measured only up to 5,000 entries: beyond, it takes minutes.
 */
import { compile } from "../src/language/index.js";
import { SaplingRuntime } from "../src/runtime/index.js";
import { answer, startMockLlmServer } from "../src/testing/index.js";
import { markdownTable } from "./compare/markdown-table.js";

const source = `
client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "bench-model"
  }
}

function Count(text: string) -> map<string, int> {
  client Mock
  prompt #"
    Count {{ text }}.
    {{ ctx.output_format }}
  "#
}
`;

function mapAnswer(entries: number): string {
  const parts: string[] = [];
  for (let index = 0; index < entries; index += 1) parts.push(`"key-${index}": ${index}`);
  return `{${parts.join(", ")}}`;
}

interface Run {
  wallMs: number;
  partials: number;
}

async function streamOnce(
  runtime: SaplingRuntime,
  server: Awaited<ReturnType<typeof startMockLlmServer>>,
  text: string,
  partialIntervalMs: number | undefined,
): Promise<Run> {
  server.script(answer(text, { chunkSize: 16 }));
  const started = performance.now();
  const stream = runtime.stream("Count", { text: "x" }, { partialIntervalMs });
  let partials = 0;
  for await (const _ of stream) partials += 1;
  await stream.getFinalResponse();
  return { wallMs: performance.now() - started, partials };
}

export async function benchCadence(): Promise<string> {
  const server = await startMockLlmServer();
  try {
    const compiled = compile({ "main.baml": source });
    if (!compiled.ir) throw new Error(JSON.stringify(compiled.diagnostics));
    const runtime = SaplingRuntime.fromIr(compiled.ir, { env: { MOCK_URL: server.baseUrls.openai } });
    const rows: string[][] = [];
    for (const entries of [1_000, 5_000, 20_000]) {
      const text = mapAnswer(entries);
      const parseStarted = performance.now();
      runtime.parse("Count", text);
      const parseMs = performance.now() - parseStarted;
      const paced = await streamOnce(runtime, server, text, undefined);
      const every = entries <= 5_000 ? await streamOnce(runtime, server, text, 0) : undefined;
      rows.push([
        entries.toLocaleString("en-US"),
        `${Math.round(text.length / 1024)} KB`,
        `${(paced.wallMs / 1000).toFixed(2)} s`,
        String(paced.partials),
        every ? `${(every.wallMs / 1000).toFixed(2)} s` : "(minutes)",
        every ? String(every.partials) : "—",
        `${parseMs.toFixed(1)} ms`,
      ]);
    }
    return [
      "## Partial cadence on answers with many entries",
      "",
      "A `map<string, int>` streamed by the mock LLM in 16-character chunks through `runtime.stream`, read by a",
      "consumer that always asks for the next partial (one process). Default: partials are built while building",
      "them has taken at most a fifth of the stream's time (after 50 ms); `partialIntervalMs: 0`: one at every ask.",
      "",
      markdownTable(
        ["entries", "answer", "stream, default", "partials", "stream, interval 0", "partials", "final parse"],
        rows,
      ),
    ].join("\n");
  } finally {
    await server.close();
  }
}
