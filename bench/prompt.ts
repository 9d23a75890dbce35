/**
 * `prompt` benchmark. Conformance first: every golden `ctx.output_format` case and every golden prompt
 * rendering (test/fixtures/prompt) is rendered by the real BAML runtime (@boundaryml/baml 0.226.2, the
 * bench-only dev dependency, through its offline `buildRequest`) and by Sapling, and the texts compared.
 * Then speed (median time of `renderOutputFormat`, `toJsonSchema` and `renderPrompt` on the resume
 * example, beside BAML's `buildRequest` for the same prompt) and the schema's token cost. Whole request
 * bodies are compared per provider too (compare/request-conformance.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { getEncoding } from "js-tiktoken";
import type { Ir, LlmFunction } from "../src/ir/index.js";
import { compile } from "../src/language/index.js";
import {
  parseOutputFormatOptions,
  renderOutputFormat,
  renderPrompt,
  toJsonSchema,
} from "../src/prompt/index.js";
import { type OutputMode, SaplingRuntime } from "../src/runtime/index.js";
import type { ChatMessage } from "../src/util/index.js";
import { type FixtureCase, readFixtureCases } from "../test/prompt-fixture-cases.js";
import { fixtureIr, fixtureType } from "../test/prompt-fixture-ir.js";
import { loadBaml } from "./compare/baml-parser.js";
import {
  bamlRequest,
  corpusRequestConformance,
  documentedCorpusDifferences,
} from "./compare/corpus-requests.js";
import { markdownTable } from "./compare/markdown-table.js";
import { measureTime } from "./compare/measure-time.js";
import { requestConformance } from "./compare/request-conformance.js";
import { requestFixtureConformance } from "./compare/request-fixtures.js";

type Baml = Awaited<ReturnType<typeof loadBaml>>;

const fixtures = join(import.meta.dirname, "..", "test", "fixtures", "prompt");
const verifyClient = `
client<llm> VerifyClient {
  provider openai-generic
  options {
    base_url "http://127.0.0.1:9/v1"
    model "m"
  }
}
`;
const env = { OPENAI_API_KEY: "unused" };

/** BAML's rendering of a prompt: the text of the request's messages (parts joined, media as markers). */
async function bamlPrompt(
  baml: Baml,
  source: string,
  functionName: string,
  args: Record<string, unknown>,
): Promise<string> {
  const runtime = baml.BamlRuntime.fromFiles("baml_src", { "baml_src/main.baml": source }, env);
  const request = await bamlRequest(baml, runtime, functionName, args, env);
  const body = request.body as {
    messages: { role: string; content: string | { type: string; text?: string }[] }[];
  };
  return body.messages
    .map((message) =>
      typeof message.content === "string"
        ? message.content
        : message.content
            .map((part) => (part.type === "text" ? (part.text ?? "") : `[${part.type}]`))
            .join("\n"),
    )
    .join("\n");
}

function saplingPrompt(messages: ChatMessage[]): string {
  return messages
    .map((message) =>
      message.parts.map((part) => (part.type === "text" ? part.text : "[image_url]")).join("\n"),
    )
    .join("\n");
}

function keywordArguments(options: Record<string, unknown>): string {
  return Object.entries(options)
    .map(
      ([name, value]) =>
        `${name}=${value === null ? "null" : typeof value === "boolean" ? String(value) : JSON.stringify(value)}`,
    )
    .join(", ");
}

async function outputFormatConformance(
  baml: Baml,
): Promise<{ compared: number; identical: number; differing: string[] }> {
  const cases = readFixtureCases(join(fixtures, "output-format")).filter(
    (fixture) => fixture.error === undefined && fixture.settings.parser === undefined,
  );
  const differing: string[] = [];
  for (const fixture of cases) {
    const options = JSON.parse(fixture.settings.options ?? "{}") as Record<string, unknown>;
    const call =
      Object.keys(options).length > 0
        ? `ctx.output_format(${keywordArguments(options)})`
        : "ctx.output_format";
    const target = fixture.settings.target ?? "string";
    const source = `${fixture.baml}\n${verifyClient}\nfunction VerifyTarget(text: string) -> ${target} {\n  client VerifyClient\n  prompt #"{{ ${call} }}"#\n}\n`;
    const ir = fixtureIr(fixture);
    const sapling = renderOutputFormat(
      ir,
      fixtureType(fixture, target, ir),
      parseOutputFormatOptions(options),
    );
    const real = await bamlPrompt(baml, source, "VerifyTarget", { text: "" }).catch(
      (error: Error) => `error: ${error.message}`,
    );
    if (real !== sapling) differing.push(`${fixture.file}: ${fixture.name}`);
  }
  return { compared: cases.length, identical: cases.length - differing.length, differing };
}

/** Render cases without media, errors, render-context defaults (a Sapling extension) or custom clients. */
function comparableRenderCase(fixture: FixtureCase): boolean {
  const settings = fixture.settings;
  return (
    fixture.error === undefined &&
    settings.parser === undefined &&
    settings.output_format === undefined &&
    settings.client === undefined &&
    settings.tags === undefined &&
    !(settings.args ?? "").includes('"media"')
  );
}

async function renderConformance(
  baml: Baml,
): Promise<{ compared: number; identical: number; differing: string[] }> {
  const cases = readFixtureCases(join(fixtures, "render")).filter(comparableRenderCase);
  const differing: string[] = [];
  for (const fixture of cases) {
    const source = fixture.baml.replaceAll("client GPT4o", "client VerifyClient") + verifyClient;
    const ir = fixtureIr({ ...fixture, baml: source });
    const functionName = ir.functions[0]?.name ?? "";
    const args = JSON.parse(fixture.settings.args ?? "{}") as Record<string, unknown>;
    const sapling = saplingPrompt(
      renderPrompt(ir, functionName, args, { client: { name: "VerifyClient", provider: "openai-generic" } }),
    );
    const real = await bamlPrompt(baml, source, functionName, args).catch(
      (error: Error) => `error: ${error.message}`,
    );
    if (real !== sapling) differing.push(`${fixture.file}: ${fixture.name}`);
  }
  return { compared: cases.length, identical: cases.length - differing.length, differing };
}

async function speed(baml: Baml): Promise<string[][]> {
  const directory = join(import.meta.dirname, "..", "examples", "resume", "baml_src");
  const sources = {
    "resume.baml": readFileSync(join(directory, "resume.baml"), "utf8"),
    "clients.baml": readFileSync(join(directory, "clients.baml"), "utf8"),
  };
  const { ir } = compile(sources);
  if (!ir) throw new Error("the resume example does not compile");
  const fn = ir.functions.find((item) => item.name === "EvaluateResume");
  if (!fn) throw new Error("EvaluateResume is missing");
  const args = { resume_text: "Jane Doe — 8 years building distributed systems in Rust and Go." };
  const client = { name: "GPT4oMini", provider: "openai" };
  const runtime = baml.BamlRuntime.fromFiles(
    "baml_src",
    Object.fromEntries(Object.entries(sources).map(([name, text]) => [`baml_src/${name}`, text])),
    { OPENAI_API_KEY: "unused" },
  );
  const context = new baml.BamlCtxManager(runtime);
  const budget = { budgetMs: 400, minSamples: 5 };
  const rows: [string, () => unknown][] = [
    ["Sapling `renderOutputFormat` (CandidateEvaluation)", () => renderOutputFormat(ir, fn.returnType)],
    ["Sapling `toJsonSchema` (CandidateEvaluation)", () => toJsonSchema(ir, fn.returnType)],
    ["Sapling `renderPrompt` (EvaluateResume)", () => renderPrompt(ir, fn.name, args, { client })],
    [
      "BAML `buildRequest` (EvaluateResume: prompt + HTTP request)",
      () =>
        runtime.buildRequest(fn.name, args, context.cloneContext(), null, null, false, {
          OPENAI_API_KEY: "unused",
        }),
    ],
  ];
  const result: string[][] = [];
  for (const [label, call] of rows) {
    const { medianMs } = await measureTime(call, budget);
    result.push([label, `${(medianMs * 1000).toFixed(1)} µs`]);
  }
  const encoding = getEncoding("o200k_base");
  const schema = renderOutputFormat(ir, fn.returnType);
  const jsonSchema = JSON.stringify(toJsonSchema(ir, fn.returnType));
  result.push([
    "o200k_base tokens: output_format / minified JSON Schema",
    `${encoding.encode(schema).length} / ${encoding.encode(jsonSchema).length}`,
  ]);
  result.push(...(await outputModeTokens(ir, fn, args, encoding)));
  return result;
}

/**
 * What each output mode puts in the request for the schema, in o200k_base tokens of its JSON text (the
 * body fields the mode adds, from `b.request` with `outputMode`), beside the `ctx.output_format` text the
 * prompt mode sends. In `native` mode the prompt leaves `ctx.output_format` out. Providers turn tool and
 * schema JSON into their own internal text, so these are the request's tokens, not a bill.
 */
async function outputModeTokens(
  ir: Ir,
  fn: LlmFunction,
  args: Record<string, unknown>,
  encoding: ReturnType<typeof getEncoding>,
): Promise<string[][]> {
  const runtime = SaplingRuntime.fromIr(ir, {
    env: { OPENAI_API_KEY: "unused", ANTHROPIC_API_KEY: "unused", GOOGLE_API_KEY: "unused" },
    readTextFile: null,
  });
  const added = async (
    client: string,
    mode: OutputMode,
    pick: (body: Record<string, unknown>) => unknown,
  ) => {
    const request = await runtime.buildRequest(
      fn.name,
      args,
      { stream: false },
      { client, outputMode: mode },
    );
    return encoding.encode(JSON.stringify(pick(request.body))).length;
  };
  const outputFormat = encoding.encode(renderOutputFormat(ir, fn.returnType)).length;
  const rows: [string, number][] = [
    [
      "`tools`, OpenAI chat (`tools` + `tool_choice`)",
      await added("openai/gpt-4o-mini", "tools", (body) => [body.tools, body.tool_choice]),
    ],
    [
      "`native`, OpenAI chat (`response_format` json_schema, strict)",
      await added("openai/gpt-4o-mini", "native", (body) => body.response_format),
    ],
    [
      "`native`, Gemini (`generationConfig.responseSchema`)",
      await added("google-ai/gemini-2.5-flash", "native", (body) => body.generationConfig),
    ],
    [
      "`native`, Anthropic (forced tool: `tools` + `tool_choice`)",
      await added("anthropic/claude-3-5-haiku-latest", "native", (body) => [body.tools, body.tool_choice]),
    ],
  ];
  return [
    [
      "o200k_base tokens of the schema by output mode (CandidateEvaluation): `prompt` (`ctx.output_format`)",
      String(outputFormat),
    ],
    ...rows.map(([label, tokens]): string[] => [
      `… ${label}`,
      `${tokens} (${(tokens / outputFormat).toFixed(1)}× output_format)`,
    ]),
  ];
}

/** A list of prompt shapes, with every stream case folded into one mention when all of them differ. */
function summarize(shapes: string[]): string {
  const streams = shapes.filter((shape) => shape.endsWith("(stream)"));
  const calls = shapes.filter((shape) => !shape.endsWith("(stream)"));
  const folded = streams.length >= 10 ? [...calls, "every stream (`stream_options.include_usage`)"] : shapes;
  return folded.join(", ") || "—";
}

/** The projects the corpus lists (rows of bench/baml-corpus/sources.tsv). */
function materialisable(): number {
  const rows = readFileSync(join(import.meta.dirname, "baml-corpus", "sources.tsv"), "utf8").split("\n");
  return rows.filter((row) => row.trim() !== "" && !row.startsWith("#")).length;
}

/** Request bodies over every function of the materialised BAML compatibility corpus (`BAML_CORPUS`). */
async function corpusSection(baml: Baml): Promise<string> {
  const directory = process.env.BAML_CORPUS ?? "/tmp/baml-corpus";
  if (!existsSync(directory)) {
    return `The corpus comparison needs the corpus: \`bench/baml-corpus/materialise.sh ${directory}\` (or \`BAML_CORPUS=DIR\`).`;
  }
  const report = await corpusRequestConformance(baml, directory);
  const byReason = new Map<string, string[]>();
  const unexplained: string[] = [];
  for (const difference of report.differences) {
    const label = `${difference.project.split("/").at(-1)} ${difference.functionName}`;
    const reason = documentedCorpusDifferences.find((rule) => rule.matches(difference))?.reason;
    if (reason === undefined) unexplained.push(`${label} [${difference.provider}]: ${difference.detail}`);
    else byReason.set(reason, [...(byReason.get(reason) ?? []), label]);
  }
  const documented = report.differences.length - unexplained.length;
  return [
    `Every function of the BAML compatibility corpus (the projects materialised in \`${directory}\`: ` +
      `${report.projects} loaded by both runtimes${report.skippedProjects.length > 0 ? `; left out: ${report.skippedProjects.join(", ")}` : ""}), ` +
      "its request built by both runtimes for the same sample arguments (bench/compare/corpus-requests.ts) " +
      "and compared as URL and JSON body. A project whose repository has no local mirror is not materialised " +
      `(${materialisable()} rows of bench/baml-corpus/sources.tsv name a project; materialise.sh lists the missing).`,
    "",
    "Command: `bench/baml-corpus/materialise.sh DIR`, then `BAML_CORPUS=DIR npm run bench -- prompt`.",
    "",
    markdownTable(
      ["functions", "identical to BAML", "documented differences", "other differences", "neither builds one"],
      [
        [
          String(report.functions),
          String(report.identical),
          String(documented),
          String(unexplained.length),
          String(report.bothFailed),
        ],
      ],
    ),
    "",
    markdownTable(
      ["documented difference (docs/providers.md)", "functions"],
      [...byReason].map(([reason, labels]) => [reason, `${labels.length}: ${labels.join(", ")}`]),
    ),
    "",
    unexplained.length > 0 ? `Other differences: ${unexplained.join("; ")}.` : "No other differences.",
  ].join("\n");
}

export async function benchPrompt(): Promise<string> {
  const baml = await loadBaml();
  const formats = await outputFormatConformance(baml);
  const prompts = await renderConformance(baml);
  const requests = await requestConformance(baml);
  const fixtures = await requestFixtureConformance(baml);
  const timings = await speed(baml);
  const corpus = await corpusSection(baml);
  const differences = [...formats.differing, ...prompts.differing];
  return [
    "## Prompt rendering",
    "",
    "Conformance with the real BAML 0.226.2 runtime (its offline `buildRequest`; nothing is sent): the golden " +
      "cases of test/fixtures/prompt rendered by both. Error cases, media, custom clients, tags and Sapling-only " +
      "options are left out of the comparison (the golden tests cover them).",
    "",
    markdownTable(
      ["suite", "compared", "identical to BAML"],
      [
        ["`ctx.output_format` (schema × options)", String(formats.compared), String(formats.identical)],
        ["full prompt renderings", String(prompts.compared), String(prompts.identical)],
      ],
    ),
    "",
    differences.length > 0 ? `Differing: ${differences.join("; ")}.` : "No differences.",
    "",
    "Whole request bodies (JSON text, keys in order) from both runtimes' offline `buildRequest`, per provider, " +
      "for a call and a stream (BAML builds no `aws-bedrock` stream request), for each prompt shape of bench/compare/request-conformance.ts (roles, consecutive turns, system " +
      "placement, media, role metadata). Documented differences: docs/providers.md, " +
      '"Requests as BAML sends them".',
    "",
    markdownTable(
      ["provider", "compared", "identical to BAML", "documented differences", "other differences"],
      requests.map((row) => [
        `\`${row.provider}\``,
        String(row.compared),
        String(row.identical),
        summarize(row.documented),
        row.undocumented.join(", ") || "—",
      ]),
    ),
    "",
    `Request-body fixtures (test/fixtures/requests: roles, o1 models, blank lines, role metadata, Gemini file ` +
      `URIs, descriptions, Bedrock numbers): ${fixtures.compared} built by both; ${fixtures.identical} identical ` +
      `to BAML, ${fixtures.documented.length} documented differences (${fixtures.documented.join("; ") || "—"}), ` +
      `${fixtures.mismatched.length} mismatched${fixtures.mismatched.length > 0 ? ` (${fixtures.mismatched.join("; ")})` : ""}.`,
    "",
    corpus,
    "",
    "Speed (median per call) and token cost on the resume example:",
    "",
    markdownTable(["measure", "value"], timings),
    "",
    "Output modes (docs/runtime.md): the tokens of the JSON each mode adds to the request body for the " +
      "schema (from `b.request` with `outputMode`), beside `ctx.output_format`, which `prompt` mode puts in " +
      "the prompt and `native` mode leaves out. Providers turn tools and schemas into text of their own, so " +
      "these count what is sent, not what is billed.",
  ].join("\n");
}
