/**
 * The Sapling demo (`npm run demo`): the resume-screening project in baml_src/, end to end, through the
 * generated client in baml_client/ — against Sapling's built-in mock LLM server on 127.0.0.1, which replays
 * the messy answers in outputs/ over real HTTP and server-sent events. No API key, no network.
 *
 * With OPENAI_API_KEY (or ANTHROPIC_API_KEY) set, it ends with the same call against the real provider.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { answer, serverError, startMockLlmServer } from "sapling-llm/testing";
import {
  BamlValidationError,
  b,
  ClientRegistry,
  Collector,
  type partial_types,
} from "./baml_client/index.js";

const resume = `Jane Doe — 8 years building distributed systems in Rust and Go.
Staff engineer at Streamline (2019–2024): led the Kubernetes migration.`;

const output = (name: string): string => readFileSync(join(import.meta.dirname, "outputs", name), "utf8");
const say = (text = ""): void => void process.stdout.write(`${text}\n`);
const heading = (text: string): void => say(`\n\x1b[1m${text}\x1b[0m\n${"─".repeat(text.length)}`);
const indent = (text: string): string => text.replace(/^/gm, "    ");

function repairsOf(collector: Collector): string {
  const repairs = collector.last?.repairs ?? [];
  if (repairs.length === 0) return "    (none: the answer was exact JSON of the declared type)";
  return repairs.map((repair) => `    ${repair.path}: ${repair.kind} — ${repair.detail}`).join("\n");
}

/** One line per partial: what the UI would show so far. */
function describePartial(partial: partial_types.CandidateEvaluation): string {
  const reasoning = partial.reasoning ?? "";
  return [
    `name=${JSON.stringify(partial.candidate_name ?? null)}`,
    `years=${partial.years_of_experience ?? "…"}`,
    `skills=${partial.skills.length}`,
    `jobs=${partial.work_history.length}`,
    `decision=${partial.decision ?? "…"}`,
    `reasoning=${reasoning ? JSON.stringify(reasoning.length > 28 ? `…${reasoning.slice(-28)}` : reasoning) : "…"}`,
  ].join("  ");
}

async function main(): Promise<void> {
  const mock = await startMockLlmServer();
  try {
    // Both clients of the ResilientPipeline fallback (clients.baml) point at the mock server for the demo;
    // the strategy and its retry policy are the ones declared in .baml.
    const clientRegistry = new ClientRegistry();
    clientRegistry.addLlmClient("GPT4oMini", "openai", {
      model: "gpt-4o-mini",
      base_url: mock.baseUrls.openai,
      api_key: "sk-demo-not-a-real-key",
    });
    clientRegistry.addLlmClient("LocalVLLM", "openai-generic", {
      model: "meta-llama/Meta-Llama-3-8B-Instruct",
      base_url: mock.baseUrls.openai,
      api_key: "none",
    });

    heading("1. b.EvaluateResume(resume): the cloud model fails, the fallback answers in messy text");
    mock.script(serverError(503, "The model is overloaded"), answer(output("fenced-chatty.txt")));
    const collector = new Collector("demo");
    const evaluation = await b.EvaluateResume(resume, { clientRegistry, collector });
    say("  attempts:");
    for (const call of collector.last?.calls ?? []) {
      const outcome = call.httpResponse ? `HTTP ${call.httpResponse.status}` : (call.error ?? "no response");
      say(`    ${call.clientName.padEnd(10)} ${outcome}${call.selected ? "  ← used" : ""}`);
    }
    say("  the model wrote:");
    say(indent(output("fenced-chatty.txt").trimEnd()));
    say("  typed value:");
    say(indent(JSON.stringify(evaluation, null, 2)));
    say("  repairs:");
    say(repairsOf(collector));

    heading(
      "2. b.stream.EvaluateResume(resume): typed partials while the answer arrives (cut by max_tokens)",
    );
    mock.script(answer(output("truncated.txt"), { chunkSize: 24, chunkDelayMs: 20, finishReason: "length" }));
    const streamCollector = new Collector("demo-stream");
    const stream = b.stream.EvaluateResume(resume, { clientRegistry, collector: streamCollector });
    let partials = 0;
    for await (const partial of stream) {
      partials++;
      say(`  #${String(partials).padStart(2)}  ${describePartial(partial)}`);
    }
    const final = await stream.getFinalResponse();
    say("  final value (parsed in final mode):");
    say(indent(JSON.stringify(final, null, 2)));
    say("  repairs:");
    say(repairsOf(streamCollector));

    heading("3. b.parse.EvaluateResume(text): never silently wrong");
    try {
      const refusal = "I'm sorry, but I can't evaluate candidates. Please consult your HR team.";
      say(`  input: ${JSON.stringify(refusal)}`);
      b.parse.EvaluateResume(refusal);
      say("  unexpected: a value came back");
    } catch (error) {
      if (!BamlValidationError.isInstance(error)) throw error;
      say(`  ${error.name}: ${error.message.split("\n")[0]}`);
      say(`  the raw text travels with the error: ${JSON.stringify(error.raw_output.slice(0, 40))}…`);
    }
  } finally {
    await mock.close();
  }

  await realProvider();
}

/** The same call against a real provider, only when the user has a key in the environment. */
async function realProvider(): Promise<void> {
  const clientRegistry = new ClientRegistry();
  if (process.env.OPENAI_API_KEY) {
    clientRegistry.setPrimary("GPT4oMini");
  } else if (process.env.ANTHROPIC_API_KEY) {
    clientRegistry.addLlmClient("Claude", "anthropic", {
      model: "claude-3-5-haiku-latest",
      api_key: process.env.ANTHROPIC_API_KEY,
    });
    clientRegistry.setPrimary("Claude");
  } else {
    say("\n(Set OPENAI_API_KEY or ANTHROPIC_API_KEY to run the same call against a real model.)");
    return;
  }
  heading(`4. The same call against ${clientRegistry.primary}`);
  const collector = new Collector("demo-real");
  const evaluation = await b.EvaluateResume(resume, { clientRegistry, collector });
  say(indent(JSON.stringify(evaluation, null, 2)));
  say("  repairs:");
  say(repairsOf(collector));
}

await main();
