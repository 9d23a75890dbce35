/**
 * `runtime` benchmark: what a whole function call costs over a bare `fetch` of the same answer — prompt
 * rendering, the attempt loop, the provider adapter, the Collector and the Schema-Aligned Parse (and, for
 * streams, a partial value per chunk) — against the mock LLM server on 127.0.0.1. Bare and runtime calls
 * alternate so machine drift hits both alike; the table shows medians.
 */
import { compile } from "../src/language/index.js";
import { Collector, SaplingRuntime } from "../src/runtime/index.js";
import { answer, type MockLlmServer, startMockLlmServer } from "../src/testing/index.js";

const runs = 200;
const warmup = 20;
/** Characters per SSE chunk: about one token, as OpenAI streams. */
const chunkSize = 4;

const source = `
class Job {
  company string
  role string
  years int
}

class Resume {
  name string
  skills string[]
  jobs Job[]
}

client<llm> Mock {
  provider openai-generic
  options {
    base_url env.MOCK_URL
    model "bench-model"
  }
}

function ExtractResume(text: string) -> Resume {
  client Mock
  prompt #"
    Extract the resume.
    {{ text }}
    {{ ctx.output_format }}
  "#
}
`;

/** A resume answer of about `bytes` characters, fenced and introduced the way chat models answer. */
function answerText(bytes: number): string {
  const jobs: string[] = [];
  let text = "";
  for (let index = 0; text.length < bytes; index++) {
    jobs.push(`{"company": "Company ${index}", "role": "Engineer", "years": ${index % 7}}`);
    text = `Here is the resume:\n\`\`\`json\n{"name": "Ada Lovelace", "skills": ["math", "poetry"], "jobs": [${jobs.join(", ")}]}\n\`\`\``;
  }
  return text;
}

async function bare(server: MockLlmServer, body: string, streaming: boolean): Promise<number> {
  const start = performance.now();
  const response = await fetch(`${server.baseUrls.openai}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  if (streaming) {
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      // Read every byte, nothing more: the floor any client pays.
    }
  } else {
    await response.json();
  }
  return performance.now() - start;
}

async function viaRuntime(
  runtime: SaplingRuntime,
  streaming: boolean,
  collector: Collector,
): Promise<number> {
  const start = performance.now();
  const args = { text: "Ada Lovelace, analyst." };
  let value: unknown;
  if (streaming) {
    const stream = runtime.stream("ExtractResume", args, { collector });
    for await (const _ of stream) void _;
    value = await stream.getFinalResponse();
  } else {
    value = await runtime.call("ExtractResume", args, { collector });
  }
  const elapsed = performance.now() - start;
  if ((value as { name?: string }).name !== "Ada Lovelace") throw new Error("bench: wrong value");
  collector.clear();
  return elapsed;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export async function benchRuntime(): Promise<string> {
  const { ir } = compile({ "bench.baml": source });
  if (!ir) throw new Error("bench: the runtime fixture does not compile");
  const server = await startMockLlmServer();
  const rows: string[] = [];
  try {
    const runtime = SaplingRuntime.fromIr(ir, { env: { MOCK_URL: server.baseUrls.openai } });
    const collector = new Collector();
    for (const bytes of [400, 2048]) {
      const text = answerText(bytes);
      for (const streaming of [false, true]) {
        const request = await runtime.buildRequest(
          "ExtractResume",
          { text: "Ada Lovelace, analyst." },
          { stream: streaming },
        );
        const body = JSON.stringify(request.body);
        const bareTimes: number[] = [];
        const runtimeTimes: number[] = [];
        for (let run = 0; run < warmup + runs; run++) {
          server.script(answer(text, { chunkSize }), answer(text, { chunkSize }));
          const bareMs = await bare(server, body, streaming);
          const runtimeMs = await viaRuntime(runtime, streaming, collector);
          if (run >= warmup) {
            bareTimes.push(bareMs);
            runtimeTimes.push(runtimeMs);
          }
        }
        const bareMedian = median(bareTimes);
        const runtimeMedian = median(runtimeTimes);
        const shape = streaming ? `${Math.ceil(text.length / chunkSize)} SSE events` : "one JSON body";
        rows.push(
          `| ${streaming ? "stream" : "call"} | ${(text.length / 1024).toFixed(1)} KB (${shape}) | ${bareMedian.toFixed(3)} ms | ${runtimeMedian.toFixed(3)} ms | ${(runtimeMedian - bareMedian).toFixed(3)} ms |`,
        );
      }
    }
  } finally {
    await server.close();
  }
  return [
    "## Runtime: overhead per function call",
    "",
    `\`SaplingRuntime.call\` / \`.stream\` of a resume extraction (a class with a list of classes) against the mock LLM`,
    `server on 127.0.0.1, median of ${runs} calls after ${warmup} warm-up calls, alternating with a bare \`fetch\` that`,
    "posts the same body and only reads the answer (`response.json()`, or every SSE byte). The runtime adds prompt",
    "rendering, client resolution, the provider adapter, Collector records and the Schema-Aligned Parse of a fenced",
    `answer; streams also produce a partial value per ${chunkSize}-character chunk.`,
    "",
    "| call | answer | bare fetch | runtime | overhead |",
    "|---|---:|---:|---:|---:|",
    ...rows,
  ].join("\n");
}
