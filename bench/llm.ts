/**
 * `llm` benchmark: what the provider adapter costs per call over a bare `fetch` doing the minimum (POST the
 * same body, read the JSON or split the SSE and join the deltas), against the mock LLM server on 127.0.0.1.
 * Runs alternate bare and adapter calls so machine drift hits both alike; the table shows medians.
 */
import { createLanguageModel } from "../src/llm/create-language-model.js";
import type { LanguageModel } from "../src/llm/index.js";
import { answer, type MockLlmServer, mockAwsCredentials, startMockLlmServer } from "../src/testing/index.js";
import type { ChatMessage } from "../src/util/index.js";

const runs = 300;
const warmup = 50;
/** Characters per SSE chunk: about one token, as OpenAI streams. */
const chunkSize = 4;

const messages: ChatMessage[] = [
  { role: "system", parts: [{ type: "text", text: "Extract the resume as JSON." }] },
  {
    role: "user",
    parts: [
      { type: "text", text: "Ada Lovelace, analyst, London. Skills: mathematics, notes on the engine." },
    ],
  },
];

function answerText(bytes: number): string {
  const unit = '{"name": "Ada Lovelace", "skills": ["mathematics", "poetry"], "city": "London"}\n';
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
}

async function bareGenerate(server: MockLlmServer, body: string): Promise<string> {
  const response = await fetch(`${server.baseUrls.openai}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const json = (await response.json()) as { choices: { message: { content: string } }[] };
  return json.choices[0]?.message.content ?? "";
}

async function bareStream(server: MockLlmServer, body: string): Promise<string> {
  const response = await fetch(`${server.baseUrls.openai}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let text = "";
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    buffer += decoder.decode(next.value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const data = buffer.slice(6, end);
      buffer = buffer.slice(end + 2);
      if (data !== "[DONE]")
        text +=
          (JSON.parse(data) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ??
          "";
      end = buffer.indexOf("\n\n");
    }
  }
  return text;
}

async function adapterGenerate(model: LanguageModel): Promise<string> {
  return (await model.generate(messages)).text;
}

async function adapterStream(model: LanguageModel): Promise<string> {
  let text = "";
  for await (const event of model.stream(messages)) if (event.type === "text-delta") text += event.text;
  return text;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

async function timed(call: () => Promise<string>, expected: string): Promise<number> {
  const start = performance.now();
  const text = await call();
  const elapsed = performance.now() - start;
  if (text !== expected)
    throw new Error(`bench: wrong answer (${text.length} characters, expected ${expected.length})`);
  return elapsed;
}

interface Case {
  label: string;
  bare: () => Promise<string>;
  adapter: () => Promise<string>;
  text: string;
}

async function runPair(server: MockLlmServer, benchCase: Case): Promise<[number, number]> {
  server.script(answer(benchCase.text, { chunkSize }), answer(benchCase.text, { chunkSize }));
  return [await timed(benchCase.bare, benchCase.text), await timed(benchCase.adapter, benchCase.text)];
}

/**
 * The same answers through aws-bedrock (SigV4 signing of every request with `crypto.subtle`, binary event-stream
 * frames checked by two CRC-32s) and through the OpenAI adapter, alternating: what Bedrock's extra work costs.
 */
async function bedrockRows(server: MockLlmServer): Promise<string[]> {
  const openAi = createLanguageModel(
    "openai",
    { model: "bench-model", base_url: server.baseUrls.openai },
    { fetch },
  );
  const bedrock = createLanguageModel(
    "aws-bedrock",
    {
      model: "bench-model",
      region: "us-east-1",
      endpoint_url: server.baseUrls.bedrock,
      access_key_id: mockAwsCredentials.accessKeyId,
      secret_access_key: mockAwsCredentials.secretAccessKey,
    },
    { fetch },
  );
  const rows: string[] = [];
  const text = answerText(2048);
  for (const streaming of [false, true]) {
    const call = (model: LanguageModel) => (streaming ? adapterStream(model) : adapterGenerate(model));
    const pair = async (): Promise<[number, number]> => {
      server.scriptFor("openai", answer(text, { chunkSize }));
      server.scriptFor("bedrock", answer(text, { chunkSize }));
      return [await timed(() => call(openAi), text), await timed(() => call(bedrock), text)];
    };
    for (let run = 0; run < warmup; run++) await pair();
    const openAiTimes: number[] = [];
    const bedrockTimes: number[] = [];
    for (let run = 0; run < runs; run++) {
      const [openAiMs, bedrockMs] = await pair();
      openAiTimes.push(openAiMs);
      bedrockTimes.push(bedrockMs);
    }
    const shape = streaming ? `${Math.ceil(2048 / chunkSize)} events` : "one JSON body";
    const [openAiMedian, bedrockMedian] = [median(openAiTimes), median(bedrockTimes)];
    rows.push(
      `| ${streaming ? "stream" : "generate"} | 2.0 KB (${shape}) | ${openAiMedian.toFixed(3)} ms | ${bedrockMedian.toFixed(3)} ms | ${(bedrockMedian - openAiMedian).toFixed(3)} ms |`,
    );
  }
  return rows;
}

export async function benchLlm(): Promise<string> {
  const server = await startMockLlmServer();
  const rows: string[] = [];
  let bedrock: string[] = [];
  try {
    const model = createLanguageModel(
      "openai",
      { model: "bench-model", base_url: server.baseUrls.openai },
      { fetch },
    );
    const cases: Case[] = [];
    for (const bytes of [400, 2048]) {
      const text = answerText(bytes);
      for (const streaming of [false, true]) {
        const body = JSON.stringify((await model.buildRequest(messages, { stream: streaming })).body);
        const shape = streaming ? `${Math.ceil(bytes / chunkSize)} SSE events` : "one JSON body";
        cases.push({
          label: `| ${streaming ? "stream" : "generate"} | ${(bytes / 1024).toFixed(1)} KB (${shape})`,
          bare: streaming ? () => bareStream(server, body) : () => bareGenerate(server, body),
          adapter: streaming ? () => adapterStream(model) : () => adapterGenerate(model),
          text,
        });
      }
    }
    // Warm every path first, so the first case measured does not pay for the JIT.
    for (const benchCase of cases) for (let run = 0; run < warmup; run++) await runPair(server, benchCase);
    for (const benchCase of cases) {
      const bareTimes: number[] = [];
      const adapterTimes: number[] = [];
      for (let run = 0; run < runs; run++) {
        const [bareMs, adapterMs] = await runPair(server, benchCase);
        bareTimes.push(bareMs);
        adapterTimes.push(adapterMs);
      }
      const bareMedian = median(bareTimes);
      const adapterMedian = median(adapterTimes);
      rows.push(
        `${benchCase.label} | ${bareMedian.toFixed(3)} ms | ${adapterMedian.toFixed(3)} ms | ${(adapterMedian - bareMedian).toFixed(3)} ms |`,
      );
    }
    bedrock = await bedrockRows(server);
  } finally {
    await server.close();
  }
  return [
    "## LLM adapters: overhead per call",
    "",
    `OpenAI chat completions against the mock LLM server on 127.0.0.1 (Node's built-in \`fetch\`), median of ${runs} calls`,
    `per row after ${warmup} warm-up calls of every row, bare and adapter calls alternating. "Bare fetch" posts the`,
    "same body and does the minimum: `response.json()`, or splitting the SSE on blank lines and joining the",
    "deltas. The adapter adds option handling, role policy, deadline timers, a spec-complete SSE decoder, typed",
    `events (a raw event per SSE event, a text delta per token) and usage. Streams use ${chunkSize}-character chunks`,
    "(about one token each). Overhead is the difference of the medians.",
    "",
    "| call | answer | bare fetch | adapter | overhead |",
    "|---|---:|---:|---:|---:|",
    ...rows,
    "",
    "### aws-bedrock against the OpenAI adapter",
    "",
    `The same answers through \`aws-bedrock\` and \`openai\`, calls alternating, median of ${runs} after ${warmup} warm-up calls.`,
    "Bedrock signs every request (SigV4: two SHA-256 and five HMAC-SHA256 with `crypto.subtle`) and reads binary",
    "event-stream frames (one per chunk, two CRC-32s each) instead of SSE. The mock runs in the same process and",
    "its share is in the times: it recomputes every signature and encodes every frame, so the difference is an",
    "upper bound on what the client side costs.",
    "",
    "| call | answer | openai | aws-bedrock | difference |",
    "|---|---:|---:|---:|---:|",
    ...bedrock,
  ].join("\n");
}
