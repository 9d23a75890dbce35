/**
 * `language` benchmark: front-end throughput on about 1 MB of generated, valid BAML (classes with
 * attributes, enums, aliases, clients, functions with prompts, tests), split over 20 files. Measures
 * parsing alone and the whole `compile` (parse + check + lower to IR), and `compile` on the same project
 * with one unknown type per file (the diagnostics path), and the formatter. Medians of several runs after
 * warm-up.
 */
import { compile, formatBaml, parseSource } from "../src/language/index.js";

const targetBytes = 1_000_000;
const fileCount = 20;
const warmup = 2;
const runs = 7;

function group(index: number): string {
  return `/// Group ${index}: a customer record.
enum Status${index} {
  ACTIVE @alias("active") @description("Currently a customer")
  CHURNED
  TRIAL @skip
  @@dynamic
}

type Tags${index} = string[] | map<string, string>

class Address${index} {
  street string @description("Street and number")
  city string
  postal_code string? @alias("zip")
}

class Customer${index} {
  name string @check(named, {{ this|length > 0 }})
  age int @assert(adult, {{ this >= 18 }})
  status Status${index}
  addresses (Address${index} @stream.done)[]
  tags Tags${index}?
  score float | null
  kind "person" | "company"
  @@description("A customer as found in a contract")
}

client<llm> Client${index} {
  provider openai-generic
  options {
    base_url "http://127.0.0.1:8000/v1"
    model "model-${index}"
    api_key env.API_KEY_${index}
    temperature 0.${index % 10}
  }
}

function Extract${index}(text: string, hint: string?) -> Customer${index} {
  client Client${index}
  prompt #"
    Extract the customer from the contract below.
    {{ text }}
    {% if hint %}Hint: {{ hint }}{% endif %}
    {{ ctx.output_format }}
  "#
}

test Extract${index}Works {
  functions [Extract${index}]
  args {
    text "ACME Corp, 42 Main St, Springfield"
  }
  @@assert({{ this.age >= 18 }})
}

`;
}

/** A project of about `targetBytes`, spread evenly over `fileCount` files. */
export function generateProject(bytes = targetBytes, files = fileCount): Record<string, string> {
  const parts: string[][] = Array.from({ length: files }, () => []);
  let total = 0;
  for (let index = 0; total < bytes; index++) {
    const text = group(index);
    parts[index % files]?.push(text);
    total += text.length;
  }
  return Object.fromEntries(
    parts.map((texts, index) => [`file-${String(index).padStart(2, "0")}.baml`, texts.join("")]),
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

function time(action: () => void): number {
  for (let index = 0; index < warmup; index++) action();
  const samples: number[] = [];
  for (let index = 0; index < runs; index++) {
    const start = performance.now();
    action();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

export async function benchLanguage(): Promise<string> {
  const sources = generateProject();
  const bytes = Object.values(sources).reduce((sum, text) => sum + text.length, 0);
  const check = compile(sources);
  if (!check.ir || check.diagnostics.length > 0)
    throw new Error("the generated benchmark project must compile cleanly");
  const declarations =
    check.ir.classes.length +
    check.ir.enums.length +
    check.ir.aliases.length +
    check.ir.clients.length +
    check.ir.functions.length +
    check.ir.tests.length;
  const broken = Object.fromEntries(
    Object.entries(sources).map(([file, text]) => [file, text.replace("street string", "street Strng")]),
  );
  const brokenDiagnostics = compile(broken).diagnostics.length;
  const rows = [
    [
      "parse (scan + parse, all files)",
      time(() => {
        for (const [file, text] of Object.entries(sources)) parseSource(text, file);
      }),
    ],
    ["compile (parse + check + lower to IR)", time(() => compile(sources))],
    [`compile with ${brokenDiagnostics} errors (diagnostics path)`, time(() => compile(broken))],
    [
      "format (formatBaml, all files)",
      time(() => {
        for (const text of Object.values(sources)) formatBaml(text);
      }),
    ],
  ] as const;
  const megabytes = bytes / 1_000_000;
  return [
    "## Language front end",
    "",
    `Generated project: ${(bytes / 1000).toFixed(0)} kB in ${Object.keys(sources).length} files, ${declarations} declarations ` +
      `(classes with attributes, enums, aliases, clients, functions with prompts, tests). Median of ${runs} runs after ${warmup} warm-up runs.`,
    "",
    "| phase | median time | throughput | declarations/s |",
    "|---|---:|---:|---:|",
    ...rows.map(
      ([phase, milliseconds]) =>
        `| ${phase} | ${milliseconds.toFixed(1)} ms | ${(megabytes / (milliseconds / 1000)).toFixed(1)} MB/s | ${Math.round(declarations / (milliseconds / 1000)).toLocaleString("en-US")} |`,
    ),
    "",
  ].join("\n");
}
