/**
 * Answers in the formats models and agent frameworks write (issue #38, docs/sap.md "Formats"), read by
 * Sapling (final and streamed), the real BAML runtime (0.226.2, `parseLlmResponse`, what `b.parse.Fn`
 * calls) and jsonrepair + `JSON.parse` + a Zod mirror of the type; then Sapling's speed on each form
 * grown to ~100 kB (final parse MB/s) and a stream of it in 16-character chunks at 5 and 20 kB (linear
 * cost: the second about 4× the first).
 *
 *   npx tsx bench/formats.ts      (or `npm run bench -- formats`, which writes it into docs/benchmarks.md)
 *
 * Prints markdown for docs/benchmarks.md. Each answer is written here after the format's own docs (DSPy's
 * ChatAdapter, tag-based prompting guides, the YAML spec, ReAct's prompt); the expected value is what the
 * answer says, not any parser's output.
 */
import { jsonrepair } from "jsonrepair";
import { z } from "zod";
import { type Ir, IrIndex, type Type } from "../src/ir/index.js";
import { compile, renderDiagnostics } from "../src/language/index.js";
import { createStreamParser, parseValue } from "../src/sap/index.js";
import { loadBaml } from "./compare/baml-parser.js";
import { deepEqual } from "./compare/deep-equal.js";

/** The declarations every form is read against (one function per target type). */
export const FORMATS_BAML = `
client<llm> FormatsClient {
  provider "openai-generic"
  options {
    base_url env.BENCH_BASE_URL
    model "bench-model"
    api_key "none"
  }
}
class QA {
  reasoning string
  answer int
}
class Item {
  name string
  tags string[]
}
class Digest {
  title string
  items Item[]
}
class Plan {
  plan string[]
  passage string
}
class Search {
  query string
}
class Book {
  title string
  year int
}
enum Verdict {
  PASS
  FAIL
}
${[
  ["ReadQA", "QA"],
  ["ReadDigest", "Digest"],
  ["ReadPlan", "Plan"],
  ["ReadSearch", "Search"],
  ["ReadInt", "int"],
  ["ReadBool", "bool"],
  ["ReadVerdict", "Verdict"],
  ["ReadBooks", "Book[]"],
  ["ReadScores", "map<string, int>"],
]
  .map(
    ([name, type]) =>
      `function ${name}(text: string) -> ${type} {\n  client FormatsClient\n  prompt #"{{ text }} {{ ctx.output_format }}"#\n}`,
  )
  .join("\n")}
`;

const zodOf: Record<string, z.ZodType> = {
  ReadQA: z.object({ reasoning: z.string(), answer: z.number().int() }),
  ReadDigest: z.object({
    title: z.string(),
    items: z.array(z.object({ name: z.string(), tags: z.array(z.string()) })),
  }),
  ReadPlan: z.object({ plan: z.array(z.string()), passage: z.string() }),
  ReadSearch: z.object({ query: z.string() }),
  ReadInt: z.number().int(),
  ReadBool: z.boolean(),
  ReadVerdict: z.enum(["PASS", "FAIL"]),
  ReadBooks: z.array(z.object({ title: z.string(), year: z.number().int() })),
  ReadScores: z.record(z.string(), z.number().int()),
};

interface Row {
  form: string;
  functionName: string;
  answer: string;
  /** What the answer says; `undefined`: it says no value of the type (a parser must fail). */
  expected: unknown;
}

const qa = { reasoning: "2 + 2 is 4.", answer: 4 };
const books = [
  { title: "Dune", year: 1965 },
  { title: "Emma", year: 1815 },
];
const fence = "```";
const rows: Row[] = [
  { form: "label lines", functionName: "ReadQA", answer: "Reasoning: 2 + 2 is 4.\nAnswer: 4", expected: qa },
  {
    form: "bold labels",
    functionName: "ReadQA",
    answer: "**Reasoning:** 2 + 2 is 4.\n**Answer:** 4",
    expected: qa,
  },
  {
    form: "DSPy sections",
    functionName: "ReadQA",
    answer: "[[ ## reasoning ## ]]\n2 + 2 is 4.\n\n[[ ## answer ## ]]\n4\n\n[[ ## completed ## ]]",
    expected: qa,
  },
  {
    form: "XML-style tags",
    functionName: "ReadQA",
    answer: "<reasoning>2 + 2 is 4.</reasoning>\n<answer>4</answer>",
    expected: qa,
  },
  {
    form: "markdown headings",
    functionName: "ReadQA",
    answer: "## Reasoning\n2 + 2 is 4.\n\n## Answer\n4",
    expected: qa,
  },
  {
    form: "YAML block scalar",
    functionName: "ReadQA",
    answer: "reasoning: |\n  2 + 2 is 4.\nanswer: 4",
    expected: { reasoning: "2 + 2 is 4.\n", answer: 4 },
  },
  {
    form: "YAML folded",
    functionName: "ReadQA",
    answer: "reasoning: >\n  two plus two\n  is four\nanswer: 4",
    expected: { reasoning: "two plus two is four\n", answer: 4 },
  },
  {
    form: "YAML nested",
    functionName: "ReadDigest",
    answer: "title: Weekly\nitems:\n  - name: a\n    tags: [x, y]",
    expected: { title: "Weekly", items: [{ name: "a", tags: ["x", "y"] }] },
  },
  {
    form: "lone closing tag",
    functionName: "ReadInt",
    answer: "17*20=340, 17*3=51, total 391.\n</think>\n\n391",
    expected: 391,
  },
  {
    form: "verdict line",
    functionName: "ReadBool",
    answer: "Step 1: check.\nStep 2: verify.\nY",
    expected: true,
  },
  {
    form: "enum verdict after steps",
    functionName: "ReadVerdict",
    answer: "Step 1: look for FAIL lines in the log.\nStep 2: there are none.\nPASS",
    expected: "PASS",
  },
  {
    form: "labelled fences",
    functionName: "ReadPlan",
    answer: `Plan:\n${fence}json\n["read", "write"]\n${fence}\nPassage:\n${fence}\nThe quick brown fox.\n${fence}`,
    expected: { plan: ["read", "write"], passage: "The quick brown fox." },
  },
  {
    form: "ReAct input",
    functionName: "ReadSearch",
    answer: "Action: search\nAction Input: 'tallest building'",
    expected: { query: "tallest building" },
  },
  {
    form: "markdown table",
    functionName: "ReadBooks",
    answer: "Here are the books:\n\n| Title | Year |\n|-------|-----:|\n| Dune | 1965 |\n| Emma | 1815 |",
    expected: books,
  },
  {
    form: "records of label lines",
    functionName: "ReadBooks",
    answer: "title: Dune\nyear: 1965\ntitle: Emma\nyear: 1815",
    expected: books,
  },
  {
    form: "XML map entries",
    functionName: "ReadScores",
    answer:
      "<map>\n  <entry><key>math</key><value>90</value></entry>\n  <entry><key>art</key><value>75</value></entry>\n</map>",
    expected: { math: 90, art: 75 },
  },
  {
    form: "chat message with a tool call",
    functionName: "ReadSearch",
    answer:
      '{"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "search", "arguments": "{\\"query\\": \\"tallest building\\"}"}}]}',
    expected: { query: "tallest building" },
  },
  {
    form: "must fail: `Maybe` for bool",
    functionName: "ReadBool",
    answer: "Step 1: check.\nStep 2: verify.\nMaybe",
    expected: undefined,
  },
  {
    form: "must fail: only undeclared labels",
    functionName: "ReadQA",
    answer: "Thoughts: easy.\nResult: 4",
    expected: undefined,
  },
];

/** A form grown to about `size` characters: its long string field repeated (its shape unchanged). */
export function grownAnswer(form: string, size: number): string | undefined {
  const sentence = "Two plus two is four, as counting on fingers shows. ";
  const long = sentence.repeat(Math.ceil(size / sentence.length));
  switch (form) {
    case "label lines":
      return `Reasoning: ${long}\nAnswer: 4`;
    case "DSPy sections":
      return `[[ ## reasoning ## ]]\n${long}\n\n[[ ## answer ## ]]\n4\n\n[[ ## completed ## ]]`;
    case "XML-style tags":
      return `<reasoning>${long}</reasoning>\n<answer>4</answer>`;
    case "markdown headings":
      return `## Reasoning\n${long}\n\n## Answer\n4`;
    case "YAML block scalar":
      return `reasoning: |\n${long.replace(/\. /g, ".\n").replace(/^/gm, "  ")}\nanswer: 4`;
    case "YAML nested": {
      const items = Math.ceil(size / 40);
      const lines = Array.from({ length: items }, (_, at) => `  - name: item${at}\n    tags: [x, y]`);
      return `title: Weekly\nitems:\n${lines.join("\n")}`;
    }
    case "lone closing tag":
      return `${long}17*20=340, 17*3=51, total 391.\n</think>\n\n391`;
    case "markdown table":
      return `| title | year |\n|---|---|\n${Array.from({ length: Math.ceil(size / 24) }, (_, at) => `| Book ${at} | ${1900 + (at % 100)} |`).join("\n")}`;
    case "verdict line":
      return `${Array.from({ length: Math.ceil(size / 40) }, (_, at) => `Step ${at + 1}: check it.`).join("\n")}\nY`;
    default:
      return undefined;
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false };

function attempt(run: () => unknown): Outcome {
  try {
    return { ok: true, value: run() };
  } catch {
    return { ok: false };
  }
}

/** ✔ right value, ✘ wrong value (silently), — refused; for a must-fail row, refusing is right. */
function mark(outcome: Outcome, expected: unknown): string {
  if (expected === undefined) return outcome.ok ? `✘ ${show(outcome.value)}` : "✔ error";
  if (!outcome.ok) return "— error";
  return deepEqual(outcome.value, expected) ? "✔" : `✘ ${show(outcome.value)}`;
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return `\`${(text.length > 40 ? `${text.slice(0, 37)}…` : text).replace(/\|/g, "\\|")}\``;
}

/** The markdown of this benchmark (the `formats` area of `npm run bench`, run only when named). */
export async function benchFormats(): Promise<string> {
  const lines: string[] = [];
  const sources = { "formats.baml": FORMATS_BAML };
  const { ir, diagnostics } = compile(sources);
  if (ir === undefined) throw new Error(renderDiagnostics(diagnostics, sources));
  const index = new IrIndex(ir);
  const returnType = (name: string): Type => ir.functions.find((fn) => fn.name === name)!.returnType;

  const baml = await loadBaml();
  const env = { BENCH_BASE_URL: "http://127.0.0.1:9/v1" };
  const runtime = baml.BamlRuntime.fromFiles("baml_src", { "baml_src/formats.baml": FORMATS_BAML }, env);
  const context = new baml.BamlCtxManager(runtime);

  function streamed(text: string, type: Type, irOf: Ir, size = 16): unknown {
    const stream = createStreamParser(type, irOf);
    for (let at = 0; at < text.length; at += size) stream.push(text.slice(at, at + size));
    return stream.finish().value;
  }

  lines.push("| form | Sapling | Sapling, streamed | BAML 0.226.2 | jsonrepair + JSON.parse + Zod |");
  lines.push("|---|---|---|---|---|");
  for (const row of rows) {
    const type = returnType(row.functionName);
    const cells = [
      mark(
        attempt(() => parseValue(row.answer, type, index).value),
        row.expected,
      ),
      mark(
        attempt(() => streamed(row.answer, type, ir)),
        row.expected,
      ),
      mark(
        attempt(() =>
          runtime.parseLlmResponse(
            row.functionName,
            row.answer,
            false,
            context.cloneContext(),
            null,
            null,
            env,
          ),
        ),
        row.expected,
      ),
      mark(
        attempt(() => zodOf[row.functionName]!.parse(JSON.parse(jsonrepair(row.answer)))),
        row.expected,
      ),
    ];
    lines.push(`| ${row.form} | ${cells.join(" | ")} |`);
  }

  function perCall(run: () => void, repeats: number): number {
    const started = performance.now();
    for (let repeat = 0; repeat < repeats; repeat++) run();
    return (performance.now() - started) / repeats;
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  const timed = (run: () => void, repeats: number, rounds = 5) => {
    run();
    return median(Array.from({ length: rounds }, () => perCall(run, repeats)));
  };

  lines.push("");
  lines.push(
    "| form | size | final parse | MB/s | stream, 16-char chunks, 5 kB | stream, 20 kB | 20 kB ÷ 5 kB |",
  );
  lines.push("|---|---:|---:|---:|---:|---:|---:|");
  for (const row of rows) {
    const large = grownAnswer(row.form, 100_000);
    const small = grownAnswer(row.form, 5_000);
    const medium = grownAnswer(row.form, 20_000);
    if (large === undefined || small === undefined || medium === undefined) continue;
    const type = returnType(row.functionName);
    parseValue(large, type, index);
    if (!deepEqual(streamed(medium, type, ir), parseValue(medium, type, index).value))
      throw new Error(`${row.form}: stream ≠ final`);
    const final = timed(() => parseValue(large, type, index), 5);
    const streamSmall = timed(() => streamed(small, type, ir), 1, 3);
    const streamLarge = timed(() => streamed(medium, type, ir), 1, 3);
    const megabytes = large.length / 1e6;
    lines.push(
      `| ${row.form} | ${(large.length / 1000).toFixed(0)} kB | ${final.toFixed(2)} ms | ${(megabytes / (final / 1000)).toFixed(0)} | ${streamSmall.toFixed(1)} ms | ${streamLarge.toFixed(1)} ms | ${(streamLarge / streamSmall).toFixed(1)}× (length ${(medium.length / small.length).toFixed(1)}×) |`,
    );
  }
  return lines.join("\n");
}

// Run directly (`npx tsx bench/formats.ts`): print it.
if (process.argv[1] === import.meta.filename) console.log(await benchFormats());
